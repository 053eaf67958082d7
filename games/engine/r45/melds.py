"""Rummy 45 melds, display values and the display check (docs/rules-45.md "Melds and values").

A meld is written in order. A run is one colour in consecutive ranks, where a 1 stands before 2
(rank 1) or after 13 (rank 14), never both in a row of three: ``R12 R13 R1`` and ``R1 R2 R3`` are
runs, ``R13 R1 R2`` is not, and ``R1 R2 ... R13 R1`` is the longest run. A set is 3 or 4 tiles of
one number in different colours. Jokers stand for what their place calls for.

>>> display_points([parse_tiles(["R9", "R10", "R11", "R12", "R13"])])
45
>>> display_points([parse_tiles(["K1", "R1", "Y1"])])
30
>>> display_points([parse_tiles(["B1", "B2", "B3"])])
15
>>> meld_error(parse_tiles(["R13", "R1", "R2"]))
'R13 R1 R2 is not a run: a 1 stands before 2 or after 13, never between them'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import IllegalMove
from ..tiles import COLOURS, Tile, format_tiles, parse_tiles

__all__ = [
    "FIRST_DISPLAY",
    "FIRST_SETS",
    "Reading",
    "check_display",
    "display_points",
    "end_value",
    "meld_error",
    "parse_tiles",
    "readings",
    "run_tile",
]

MIN_MELD = 3
MAX_SET = len(COLOURS)
HIGH_ONE = 14  # the rank of a 1 after 13
FIRST_DISPLAY = 45  # the points a first display needs
FIRST_SETS = 3  # the sets a first display of sets only needs

Kind = Literal["run", "set"]


def run_tile(colour: str, rank: int) -> Tile:
    """The tile a run of ``colour`` holds at ``rank`` (14 is the 1 after 13)."""
    return Tile(colour, 1 if rank == HIGH_ONE else rank)


def run_value(rank: int) -> int:
    """A run position's display value: 10 from 10 up (a 1 after 13 too), else 5."""
    return 10 if rank >= 10 else 5


def set_value(number: int) -> int:
    """A set tile's display value: a 1 is 10, 2-9 are 5, 10-13 are 10."""
    return 10 if number == 1 or number >= 10 else 5


def end_value(tile: Tile) -> int:
    """The end-of-game value: 2-9 are 5, 10-13 are 10, a 1 is 25, a joker 50."""
    if tile.is_joker:
        return 50
    if tile.number == 1:
        return 25
    return 10 if tile.number >= 10 else 5


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a meld: a run from ``start`` (its colour) or a set of ``number``.

    ``values`` are the display values of its positions, in order.
    """

    kind: Kind
    colour: str | None
    start: int
    number: int
    values: tuple[int, ...]

    @property
    def points(self) -> int:
        return sum(self.values)

    @property
    def end(self) -> int:
        """A run's last rank (``start`` for a set)."""
        return self.start + len(self.values) - 1 if self.kind == "run" else self.start

    def stands_for(self, position: int) -> Tile:
        """What a run position holds (a set position: the set's number, colour unknown)."""
        if self.kind == "run" and self.colour is not None:
            return run_tile(self.colour, self.start + position)
        return Tile(None, self.number)


def _run_reading(tiles: Sequence[Tile]) -> Reading | None:
    real = [(i, t) for i, t in enumerate(tiles) if not t.is_joker]
    if len(tiles) > HIGH_ONE:
        return None
    first, tile = real[0]
    colour = tile.colour
    assert colour is not None
    starts = [tile.number - first] + ([HIGH_ONE - first] if tile.number == 1 else [])
    for start in starts:
        end = start + len(tiles) - 1
        if start < 1 or end > HIGH_ONE:
            continue
        if all(t.colour == colour and run_tile(colour, start + i) == t for i, t in real):
            values = tuple(run_value(start + i) for i in range(len(tiles)))
            return Reading("run", colour, start, 0, values)
    return None


def _set_reading(tiles: Sequence[Tile]) -> Reading | None:
    real = [t for t in tiles if not t.is_joker]
    number = real[0].number
    colours = [t.colour for t in real]
    if len(tiles) > MAX_SET or any(t.number != number for t in real):
        return None
    if len(set(colours)) != len(colours):
        return None
    return Reading("set", None, number, number, (set_value(number),) * len(tiles))


def readings(tiles: Sequence[Tile]) -> list[Reading]:
    """Every valid reading of ``tiles`` as a meld, the most points first (a run on ties)."""
    if len(tiles) < MIN_MELD or all(t.is_joker for t in tiles):
        return []
    found = [r for r in (_run_reading(tiles), _set_reading(tiles)) if r is not None]
    found.sort(key=lambda r: (-r.points, r.kind != "run"))
    return found


def meld_error(tiles: Sequence[Tile]) -> str | None:
    """``None`` for a valid meld, else a sentence saying why it is not one."""
    if readings(tiles):
        return None
    text = format_tiles(tiles) or "nothing"
    if len(tiles) < MIN_MELD:
        return f"a meld needs at least {MIN_MELD} tiles: {text} has {len(tiles)}"
    real = [t for t in tiles if not t.is_joker]
    if not real:
        return f"a meld of only jokers is not allowed: {text}"
    if len({t.number for t in real}) == 1 and len({t.colour for t in real}) > 1:
        if len(tiles) > MAX_SET:
            return f"a set has at most {MAX_SET} tiles, one of each colour: {text}"
        return f"a set needs every colour different: {text} repeats a colour"
    if len({t.colour for t in real}) == 1:
        if len(tiles) > HIGH_ONE:
            return f"a run has at most {HIGH_ONE} tiles (1 to 13 and 1): {text}"
        numbers = [t.number for t in real]
        if 1 in numbers and 13 in numbers:
            return f"{text} is not a run: a 1 stands before 2 or after 13, never between them"
        return f"{text} is not a run: a run is written in order, one number after the other"
    return (
        f"{text} is neither a set (one number, different colours) "
        "nor a run (consecutive numbers, one colour)"
    )


def check_meld(tiles: Sequence[Tile]) -> Reading:
    """The best reading of a valid meld; raise ``IllegalMove("meld_invalid")`` otherwise."""
    found = readings(tiles)
    if not found:
        raise IllegalMove("meld_invalid", meld_error(tiles) or "invalid meld")
    return found[0]


def display_points(melds: Sequence[Sequence[Tile]]) -> int:
    """The display points of valid melds, each read at its best."""
    return sum(check_meld(meld).points for meld in melds)


def check_display(melds: Sequence[Sequence[Tile]], first: bool) -> tuple[Reading, ...]:
    """The readings of a legal display, the most points; raise :class:`IllegalMove` if none.

    A first display needs 45 points, and one of sets only needs 3 sets; a meld that reads both
    as a run and as a set (one real tile and jokers) may be read either way
    (docs/rules-45.md "Displays").
    """
    if not melds:
        raise IllegalMove("display_empty", "a display needs at least one meld")
    options: list[list[Reading]] = []
    for meld in melds:
        found = readings(meld)
        if not found:
            raise IllegalMove("meld_invalid", meld_error(meld) or "invalid meld")
        options.append(found)
    best: tuple[Reading, ...] | None = None
    for choice in itertools.product(*options):
        if first and all(r.kind == "set" for r in choice) and len(choice) < FIRST_SETS:
            continue
        if first and sum(r.points for r in choice) < FIRST_DISPLAY:
            continue
        if best is None or sum(r.points for r in choice) > sum(r.points for r in best):
            best = choice
    if best is None:
        points = sum(o[0].points for o in options)
        if points < FIRST_DISPLAY:
            raise IllegalMove(
                "display_short",
                f"a first display needs {FIRST_DISPLAY} points: these melds make {points}",
            )
        raise IllegalMove(
            "display_sets",
            f"a first display of sets only needs at least {FIRST_SETS} sets, not {len(melds)}",
        )
    return best
