"""Shared helpers for engine tests: positions in tile codes, simple legal-play finders."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from games.engine.melds import readings
from games.engine.state import Action, Draw, GameState, Pass, PlayTurn, TimeOut
from games.engine.tiles import Tile, parse_tiles


def melds(*texts: str) -> list[list[str]]:
    """``melds("R7 K7 Y7", "B4 B5 B6")`` -> lists of codes."""
    return [text.split() for text in texts]


def tiles(text: str) -> list[Tile]:
    return parse_tiles(text.split())


def find_rack_melds(state: GameState, seat: int) -> list[tuple[int, ...]]:
    """Disjoint valid 3-tile melds from a rack, greedily (enough to open and to go out)."""
    kinds = state.kinds
    free = list(state.racks[seat])
    found: list[tuple[int, ...]] = []
    changed = True
    while changed:
        changed = False
        for combo in combinations(free, 3):
            ordered = sorted(combo, key=lambda i: (kinds[i].is_joker, kinds[i].number))
            if readings([kinds[i] for i in ordered], state.rules.max_number):
                found.append(tuple(ordered))
                for i in combo:
                    free.remove(i)
                changed = True
                break
    return found


def find_extension(state: GameState, seat: int) -> PlayTurn | None:
    """One rack tile added to the end of a table meld, if any fits."""
    kinds = state.kinds
    for n, meld in enumerate(state.table):
        for tile_id in state.racks[seat]:
            for candidate in ((*meld, tile_id), (tile_id, *meld)):
                if readings([kinds[i] for i in candidate], state.rules.max_number):
                    table = list(state.table)
                    table[n] = candidate
                    try_action = PlayTurn(seat, tuple(table))
                    return try_action
    return None


def random_action(state: GameState, rng: random.Random) -> Action:
    """A legal-looking action for the seat to move: a play when one is easy, else draw/pass."""
    seat = state.turn
    roll = rng.random()
    if roll < 0.05:
        return TimeOut(seat, state.turn_number)
    if roll < 0.75:
        new = find_rack_melds(state, seat)
        if new and rng.random() < 0.8:
            return PlayTurn(seat, (*state.table, *new))
        if state.opened[seat]:
            extension = find_extension(state, seat)
            if extension is not None:
                return extension
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
