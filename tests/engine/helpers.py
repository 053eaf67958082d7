"""Shared helpers for engine tests: positions in tile codes, simple legal-play finders."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.melds import readings
from games.engine.state import Action, Draw, GameState, Pass, PlayTurn, TimeOut
from games.engine.tiles import Tile, parse_tiles


def melds(*texts: str) -> list[list[str]]:
    """``melds("R7 K7 Y7", "B4 B5 B6")`` -> lists of codes."""
    return [text.split() for text in texts]


def tiles(text: str) -> list[Tile]:
    return parse_tiles(text.split())


def find_rack_melds(state: GameState, seat: int) -> list[tuple[int, ...]]:
    """Disjoint 3-tile groups and runs from a rack, found greedily (enough to open and go out)."""
    kinds = state.kinds
    free = sorted(state.racks[seat], key=lambda i: (kinds[i].colour or "~", kinds[i].number))
    found: list[tuple[int, ...]] = []
    by_number: dict[int, dict[str, int]] = {}
    for i in free:
        if kinds[i].colour is not None:
            by_number.setdefault(kinds[i].number, {}).setdefault(kinds[i].colour or "", i)
    for colours in by_number.values():
        if len(colours) >= 3:
            found.append(tuple(list(colours.values())[:3]))
    used = {i for meld in found for i in meld}
    by_kind = {(kinds[i].colour, kinds[i].number): i for i in free if i not in used}
    for (colour, number), first in sorted(by_kind.items(), key=lambda kv: str(kv[0])):
        second = by_kind.get((colour, number + 1))
        third = by_kind.get((colour, number + 2))
        run = (first, second, third)
        if colour and None not in run and not set(run) & used:
            found.append((first, second, third))  # type: ignore[arg-type]
            used |= set(run)  # type: ignore[arg-type]
    return found


def greedy_play(state: GameState, seat: int) -> PlayTurn | None:
    """New melds from the rack, then every rack tile that extends a table meld at an end."""
    kinds = state.kinds
    new = find_rack_melds(state, seat)
    table = [*state.table, *new] if new else list(state.table)
    if not state.opened[seat]:
        return PlayTurn(seat, tuple(table)) if new else None
    used = {i for meld in new for i in meld}
    for tile_id in state.racks[seat]:
        if tile_id in used:
            continue
        for n, meld in enumerate(table):
            for candidate in ((*meld, tile_id), (tile_id, *meld)):
                if readings([kinds[i] for i in candidate], state.rules.max_number):
                    table[n] = candidate
                    used.add(tile_id)
                    break
            if tile_id in used:
                break
    return PlayTurn(seat, tuple(table)) if used else None


def random_action(state: GameState, rng: random.Random) -> Action:
    """A legal-looking action for the seat to move: a play when one is easy, else draw/pass."""
    seat = state.turn
    roll = rng.random()
    if roll < 0.05:
        return TimeOut(seat, state.turn_number)
    if roll < 0.85:
        play = greedy_play(state, seat)
        if play is not None:
            return play
    return Draw(seat) if state.pool or rng.random() < 0.5 else Pass(seat)


def tile_count(state: GameState) -> list[int]:
    ids: list[int] = list(state.pool)
    for rack in state.racks:
        ids.extend(rack)
    for meld in state.table:
        ids.extend(meld)
    return sorted(ids)


def assert_conserved(state: GameState) -> None:
    assert tile_count(state) == list(range(state.rules.tile_set.size))


def codes(items: Sequence[Tile]) -> list[str]:
    return [str(t) for t in items]
