"""Rummy 45 bots: an action for one seat, chosen from that seat's view (docs/rules-45.md "Bots").

``choose_action(view, rng, strength)`` reads only ``views.view_for(state, seat)``: its own board,
the train, the displays, the trump and everyone's board *sizes*, never another board or the
stock's order. With the same view and the same ``rng`` state it chooses the same action. It is
called for a seat in ``view["to_act"]``, and returns one action at a time (a turn is several).

Strengths, weakest first (``BOT_STRENGTHS``):

* ``easy`` always draws from the stock, displays the first melds it notices once they reach 45
  points, discards a tile at random (never a joker) and stitches only when down to its last 3
  tiles, where no display can leave it a tile to discard (else it could never go out);
* ``hard`` takes the left discard when it makes a display, displays the most points it can (the
  first display as soon as it reaches 45), stitches every tile that fits a meld, goes out on the
  board when its 14 tiles make a combination, and discards the tile least connected to the
  others (the one worth most among equals).
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import IllegalMove, InvalidInput
from ..tiles import Tile
from .hands import HAND, best_combination
from .melds import FIRST_DISPLAY, HIGH_ONE, check_display, end_value, readings, run_tile
from .state import (
    TILES,
    Action,
    AnswerExchange,
    Discard,
    Display,
    Draw,
    GoOut,
    Ready,
    ShowTrump,
    Stitch,
    TakeDiscard,
)

__all__ = ["BOT_STRENGTHS", "best_display", "choose_action"]

BOT_STRENGTHS: tuple[str, ...] = ("easy", "hard")
SEARCH_NODES = 4000  # subsets of candidate melds tried, at most, per display search
Melds = tuple[tuple[int, ...], ...]


def candidate_melds(ids: Sequence[int], jokers_too: bool = True) -> list[tuple[int, ...]]:
    """Valid melds of distinct tiles among ``ids``, each written in order."""
    real = [i for i in ids if not TILES[i].is_joker]
    jokers = [i for i in ids if TILES[i].is_joker] if jokers_too else []
    by_kind: dict[Tile, int] = {}
    for i in real:
        by_kind.setdefault(TILES[i], i)
    found: list[tuple[int, ...]] = []
    by_number: dict[int, list[int]] = defaultdict(list)
    for kind, i in by_kind.items():
        by_number[kind.number].append(i)
    for group in by_number.values():
        for size in range(1, len(group) + 1):
            for chosen in itertools.combinations(group, size):
                for used in range(0, len(jokers) + 1):
                    if 3 <= size + used <= 4:
                        found.append(chosen + tuple(jokers[:used]))
    colours = {kind.colour for kind in by_kind}
    for colour in sorted(c for c in colours if c is not None):
        for start in range(1, HIGH_ONE - 1):
            for end in range(start + 2, HIGH_ONE + 1):
                run: list[int] = []
                spare = list(jokers)
                for rank in range(start, end + 1):
                    tile = by_kind.get(run_tile(colour, rank))
                    if tile is not None and tile not in run:
                        run.append(tile)
                    elif spare:
                        run.append(spare.pop())
                    else:
                        break
                else:
                    if any(not TILES[t].is_joker for t in run):
                        found.append(tuple(run))
    return [m for m in found if readings([TILES[t] for t in m])]


def best_display(
    ids: Sequence[int], first: bool, must: int | None = None, keep: int = 1
) -> tuple[Melds, int]:
    """The display of the most points among ``ids`` (using ``must`` if given, keeping ``keep``
    tiles back): ``((), 0)`` when there is none, or none a first display allows."""
    candidates = candidate_melds(ids)
    candidates.sort(key=lambda m: -sum(_points(m)))
    worth = [sum(_points(m)) for m in candidates]
    best: tuple[Melds, int] = ((), 0)
    nodes = 0
    limit = len(ids) - keep

    def search(start: int, chosen: list[tuple[int, ...]], used: set[int], points: int) -> None:
        nonlocal best, nodes
        nodes += 1
        wanted = not first or points >= FIRST_DISPLAY
        if chosen and points > best[1] and wanted and (must is None or must in used):
            try:
                check_display([[TILES[t] for t in m] for m in chosen], first)
            except IllegalMove:
                pass
            else:
                best = (tuple(chosen), points)
        for n in range(start, len(candidates)):
            if nodes >= SEARCH_NODES:
                return
            meld = candidates[n]
            if used.isdisjoint(meld) and len(used) + len(meld) <= limit:
                search(n + 1, chosen + [meld], used | set(meld), points + worth[n])

    search(0, [], set(), 0)
    return best


def _points(meld: Sequence[int]) -> tuple[int, ...]:
    return readings([TILES[t] for t in meld])[0].values


def choose_action(view: Mapping[str, Any], rng: random.Random, strength: str) -> Action:
    """The action a bot of ``strength`` takes, seeing only ``view`` (its own seat's view)."""
    if strength not in BOT_STRENGTHS:
        raise InvalidInput(f"unknown bot strength {strength!r}: one of {', '.join(BOT_STRENGTHS)}")
    seat = view.get("seat")
    if not isinstance(seat, int):
        raise InvalidInput("a bot needs the view of a seat, not a spectator's")
    if seat not in view["to_act"]:
        raise InvalidInput(f"seat {seat} has nothing to do now")
    rack: list[int] = list(view["rack"])
    if view["phase"] == "setup":
        offer = view["offer"]
        if offer is not None and offer["to"] == seat:
            return AnswerExchange(seat, None)
        trump = TILES[view["trump"]]
        if view["trump_shown"] is None and any(TILES[t] == trump for t in rack):
            return ShowTrump(seat)
        return Ready(seat)
    opened = view["opened_turn"][seat]
    waiting = opened == view["turn_number"]
    if not view["taken"]:
        if strength == "hard" and not view["first_round"] and len(view["train"]) > 1:
            take = _useful_discard(view, seat, rack, opened >= 0)
            if take is not None:
                return take
        return Draw(seat)
    if view["first_round"] or waiting or view["on_board"][seat]:
        return _discard(view, seat, rack, rng, strength)
    if strength == "easy":
        return _easy_act(view, seat, rack, rng, opened >= 0)
    return _hard_act(view, seat, rack, rng, opened >= 0)


def _useful_discard(
    view: Mapping[str, Any], seat: int, rack: list[int], opened: bool
) -> Action | None:
    if view["few"][seat] and len(view["train"]) > 2:
        return None
    tile = view["train"][-1]
    melds, points = best_display(rack + [tile], not opened, must=tile)
    if not melds or (view["few"][seat] and not any(tile in m and len(m) > 1 for m in melds)):
        return None
    return TakeDiscard(seat, melds)


# An easy bot stitches only with this many tiles left, the tile taken included.
LAST_TILES = 3


def _easy_act(
    view: Mapping[str, Any], seat: int, rack: list[int], rng: random.Random, opened: bool
) -> Action:
    free = list(rack)
    chosen: list[tuple[int, ...]] = []
    for meld in candidate_melds(free, jokers_too=False):
        if set(meld) <= set(free) and len(free) - len(meld) >= 1:
            chosen.append(meld)
            free = [t for t in free if t not in meld]
    if chosen:
        try:
            check_display([[TILES[t] for t in m] for m in chosen], not opened)
        except IllegalMove:
            pass
        else:
            return Display(seat, tuple(chosen))
    if opened and len(rack) <= LAST_TILES:
        # Down to its last tiles a display would leave nothing to discard: only a stitch lets
        # it go out (without one, two easy bots would draw and discard for ever).
        stitch = _stitch(view, seat, rack)
        if stitch is not None:
            return stitch
    return _discard(view, seat, rack, rng, "easy")


def _hard_act(
    view: Mapping[str, Any], seat: int, rack: list[int], rng: random.Random, opened: bool
) -> Action:
    if not opened and len(rack) == HAND + 1:
        out = _board_out(rack)
        if out is not None:
            return GoOut(seat, out)
    melds, _ = best_display(rack, not opened)
    if melds:
        return Display(seat, melds)
    if opened:
        stitch = _stitch(view, seat, rack)
        if stitch is not None:
            return stitch
    return _discard(view, seat, rack, rng, "hard")


def _board_out(rack: list[int]) -> int | None:
    """A tile to discard that leaves a combination on the board, if the likeliest one does."""
    order = sorted(rack, key=lambda t: (_links(t, rack), -end_value(TILES[t])))
    for tile in order[:2]:
        name, _ = best_combination([TILES[t] for t in rack if t != tile])
        if name is not None:
            return tile
    return None


def _stitch(view: Mapping[str, Any], seat: int, rack: list[int]) -> Action | None:
    if len(rack) < 2:
        return None
    for tile in sorted(rack, key=lambda t: TILES[t].is_joker):
        kind = TILES[tile]
        for index, meld in enumerate(view["melds"]):
            tiles = [TILES[t] for t in meld["tiles"]]
            if meld["kind"] == "set":
                if len(tiles) < 4 and any(r.kind == "set" for r in readings(tiles + [kind])):
                    return Stitch(seat, tile, index)
                continue
            for end, grown in (("low", [kind] + tiles), ("high", tiles + [kind])):
                closed = meld["closed"][0 if end == "low" else 1]
                if not closed and any(r.kind == "run" for r in readings(grown)):
                    return Stitch(seat, tile, index, end)
    return None


def _links(tile: int, rack: Sequence[int]) -> int:
    """How many other tiles of ``rack`` could stand in a meld with ``tile``."""
    kind = TILES[tile]
    if kind.is_joker:
        return 99
    links = 0
    for other in rack:
        o = TILES[other]
        if other == tile or o.is_joker:
            continue
        if o.number == kind.number and o.colour != kind.colour:
            links += 2
        elif o.colour == kind.colour and _gap(o.number, kind.number) <= 2:
            links += 3 - _gap(o.number, kind.number)
    return links


def _gap(a: int, b: int) -> int:
    gaps = [abs(a - b)]
    if a == 1:
        gaps.append(abs(HIGH_ONE - b))
    if b == 1:
        gaps.append(abs(HIGH_ONE - a))
    return min(gaps) if min(gaps) > 0 else 9


def _discard(
    view: Mapping[str, Any], seat: int, rack: list[int], rng: random.Random, strength: str
) -> Action:
    plain = [t for t in rack if not TILES[t].is_joker] or rack
    if strength == "easy":
        return Discard(seat, rng.choice(plain))
    tile = min(plain, key=lambda t: (_links(t, rack), -end_value(TILES[t]), t))
    return Discard(seat, tile)
