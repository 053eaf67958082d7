"""Meld validation: groups and runs, jokers and values (docs/rules.md, "Melds").

A meld is an ordered sequence of tiles. Runs are written lowest first, so a joker's place in a
run says which tile it stands for. Where a meld reads both as a run and as a group (only possible
with a single real tile, e.g. ``R5 J J``), both readings are kept: it is valid if either is, its
value is the larger of the two, and a joker in it may stand for anything either reading allows.

>>> check_meld(parse_tiles(["R10", "R11", "J"])).value
33
>>> check_meld(parse_tiles(["R7", "K7", "Y7", "B7"])).kind
'group'
>>> meld_error(parse_tiles(["B3", "B5", "B6"]))
'B3 B5 B6 has a gap: a run needs consecutive numbers'
>>> meld_error(parse_tiles(["R12", "R13", "R1"]))
'R12 R13 R1 goes round from 13 to 1: a run cannot wrap, 1 is only low'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import IllegalMove
from .tiles import COLOUR_NAMES, COLOURS, Tile, format_tiles, parse_tiles

__all__ = ["Reading", "check_meld", "meld_error", "meld_value", "parse_tiles", "readings"]

MIN_MELD = 3
MAX_GROUP = len(COLOURS)


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a meld: its kind, its value and what each position stands for.

    ``roles[i]`` is the set of tiles position ``i`` may stand for: a real tile stands for itself,
    a joker in a run for the tile its place calls for, a joker in a group for the group's number
    in any colour the group lacks.
    """

    kind: Literal["run", "group"]
    value: int
    roles: tuple[frozenset[Tile], ...]


def _run_reading(tiles: Sequence[Tile], max_number: int) -> Reading | None:
    real = [(i, t) for i, t in enumerate(tiles) if not t.is_joker]
    colour = real[0][1].colour
    start = real[0][1].number - real[0][0]
    if start < 1 or start + len(tiles) - 1 > max_number:
        return None
    for i, tile in real:
        if tile.colour != colour or tile.number != start + i:
            return None
    roles = tuple(
        frozenset({Tile(colour, start + i)}) if t.is_joker else frozenset({t})
        for i, t in enumerate(tiles)
    )
    value = sum(range(start, start + len(tiles)))
    return Reading("run", value, roles)


def _group_reading(tiles: Sequence[Tile]) -> Reading | None:
    if len(tiles) > MAX_GROUP:
        return None
    real = [t for t in tiles if not t.is_joker]
    number = real[0].number
    colours = [t.colour for t in real]
    if any(t.number != number for t in real) or len(set(colours)) != len(colours):
        return None
    missing = frozenset(Tile(c, number) for c in COLOURS if c not in colours)
    roles = tuple(missing if t.is_joker else frozenset({t}) for t in tiles)
    return Reading("group", number * len(tiles), roles)


def readings(tiles: Sequence[Tile], max_number: int = 13) -> list[Reading]:
    """Every valid reading of ``tiles`` as a meld, the most valuable first (a run on ties)."""
    if len(tiles) < MIN_MELD or all(t.is_joker for t in tiles):
        return []
    found = [r for r in (_run_reading(tiles, max_number), _group_reading(tiles)) if r is not None]
    found.sort(key=lambda r: (-r.value, r.kind != "run"))
    return found


def meld_error(tiles: Sequence[Tile], max_number: int = 13) -> str | None:
    """``None`` for a valid meld, else a sentence saying, in a player's words, what is wrong
    and which rule it breaks: ``"B3 B5 B6 has a gap: a run needs consecutive numbers"``."""
    if readings(tiles, max_number):
        return None
    text = format_tiles(tiles)
    if not tiles:
        return f"an empty meld: a meld needs at least {MIN_MELD} tiles"
    if len(tiles) < MIN_MELD:
        count = f"{len(tiles)} tile{'s' if len(tiles) > 1 else ''}"
        return f"{text} has only {count}: a meld needs at least {MIN_MELD} tiles"
    real = [t for t in tiles if not t.is_joker]
    if not real:
        return f"{text} is only jokers: a meld needs at least one numbered tile"
    if len({t.number for t in real}) == 1:
        if len(tiles) > MAX_GROUP:
            return (
                f"{text} has {len(tiles)} tiles: a group has at most {MAX_GROUP}, "
                "one of each colour"
            )
        colours = [t.colour for t in real if t.colour is not None]
        twice = next(c for c in colours if colours.count(c) > 1)
        return f"{text} has {COLOUR_NAMES[twice]} twice: a group needs every colour different"
    if len({t.colour for t in real}) == 1:
        return _run_error(tiles, max_number, text)
    return (
        f"{text} is neither a group nor a run: a group is one number in different colours, "
        "a run is consecutive numbers in one colour"
    )


def _run_error(tiles: Sequence[Tile], max_number: int, text: str) -> str:
    """Why tiles of one colour and several numbers are not a run."""
    real = [(i, t.number) for i, t in enumerate(tiles) if not t.is_joker]
    numbers = [n for _, n in real]
    for n in numbers:
        if numbers.count(n) > 1:
            return f"{text} has {n} twice: a run needs each number once"
    pairs = list(zip(real, real[1:], strict=False))
    for (_, a), (_, b) in pairs:
        if b < a:
            if b == 1 and a == max_number:
                return f"{text} goes round from {max_number} to 1: a run cannot wrap, 1 is only low"
            return f"{text} is out of order: a run is laid lowest first"
    for (i, a), (j, b) in pairs:
        if b - a > j - i:
            return f"{text} has a gap: a run needs consecutive numbers"
        if b - a < j - i:
            return f"{text} has too many tiles between {a} and {b}: a run needs consecutive numbers"
    if real[0][1] - real[0][0] < 1:
        return f"{text} would go below 1: no tile comes before the 1"
    return f"{text} would go past {max_number}: a run stops at {max_number}"


def check_meld(tiles: Sequence[Tile], max_number: int = 13) -> Reading:
    """The best reading of a valid meld; raise ``IllegalMove("meld_invalid")`` otherwise."""
    found = readings(tiles, max_number)
    if not found:
        raise IllegalMove("meld_invalid", meld_error(tiles, max_number) or "invalid meld")
    return found[0]


def meld_value(tiles: Sequence[Tile], max_number: int = 13) -> int:
    """The value of a valid meld: the sum of its numbers, a joker counting as what it stands for."""
    return check_meld(tiles, max_number).value
