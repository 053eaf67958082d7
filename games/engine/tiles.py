"""Tiles, tile sets and the tile notation of docs/rules.md.

A :class:`Tile` is a *kind* of tile (``R7``, ``J``); a physical tile is an integer id into a
:class:`TileSet`, so two copies of ``R7`` stay distinct in the event log.

>>> Tile.parse("R7")
Tile(colour='R', number=7)
>>> str(Tile.parse("j"))
'J'
>>> CLASSIC.size, LARGE.size, RUSH.size
(106, 160, 73)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from .errors import InvalidInput

COLOURS: tuple[str, ...] = ("K", "B", "R", "Y")
COLOUR_NAMES: dict[str, str] = {"K": "black", "B": "blue", "R": "red", "Y": "yellow"}
JOKER_CODE = "J"
JOKER_PENALTY = 30


@dataclass(frozen=True, slots=True)
class Tile:
    """A kind of tile: a colour and a number, or a joker (``colour is None``, ``number == 0``)."""

    colour: str | None
    number: int

    @classmethod
    def parse(cls, code: str) -> Tile:
        """Parse ``R7``, ``K13`` or ``J`` (case-insensitive); raise :class:`InvalidInput`.

        Codes are ASCII letters and digits only: ``R١`` or ``R１`` is no R1. A long code is
        refused before its digits are read, and shown shortened.

        >>> Tile.parse("r7"), Tile.parse(" J ")
        (Tile(colour='R', number=7), Tile(colour=None, number=0))
        >>> Tile.parse("R\uff11")
        Traceback (most recent call last):
        ...
        games.engine.errors.InvalidInput: unknown tile 'R１': ...
        >>> Tile.parse("R" + "7" * 5000)
        Traceback (most recent call last):
        ...
        games.engine.errors.InvalidInput: unknown tile 'R77777777777777...: ...
        """
        text = code.strip().upper() if isinstance(code, str) and code.isascii() else ""
        if text == JOKER_CODE:
            return JOKER
        # At most two digits before any int(): Python refuses to read 4,300 digits or more.
        if 2 <= len(text) <= 3 and text[0] in COLOURS and text[1:].isdigit():
            number = int(text[1:])
            if 1 <= number <= 13 and not text[1:].startswith("0"):
                return cls(text[0], number)
        shown = repr(code) if len(repr(code)) <= 20 else repr(code)[:16] + "..."
        raise InvalidInput(f"unknown tile {shown}: expected a colour K, B, R or Y and 1-13, or J")

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    @property
    def rack_value(self) -> int:
        """What this tile costs when left on a rack: its number, a joker 30."""
        return JOKER_PENALTY if self.colour is None else self.number

    @property
    def name(self) -> str:
        """An accessible name: ``red 7``, ``joker``."""
        return "joker" if self.colour is None else f"{COLOUR_NAMES[self.colour]} {self.number}"

    def __str__(self) -> str:
        return JOKER_CODE if self.colour is None else f"{self.colour}{self.number}"


JOKER = Tile(None, 0)


def parse_tiles(codes: Iterable[str]) -> list[Tile]:
    """Parse several tile codes."""
    return [Tile.parse(code) for code in codes]


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(str(tile) for tile in tiles)


@dataclass(frozen=True)
class TileSet:
    """A physical set: ``numbers`` 1..n in four colours, ``copies`` of each, plus ``jokers``.

    Ids run colour by colour, number by number, copy by copy, jokers last.
    """

    name: str
    numbers: int
    copies: int
    jokers: int

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        kinds = [
            Tile(colour, number)
            for colour in COLOURS
            for number in range(1, self.numbers + 1)
            for _ in range(self.copies)
        ]
        return tuple(kinds + [JOKER] * self.jokers)

    @cached_property
    def codes(self) -> tuple[str, ...]:
        """Each tile id's code (``str`` of its kind), made once per set: views list many."""
        return tuple(str(tile) for tile in self.tiles)

    @property
    def size(self) -> int:
        return len(COLOURS) * self.numbers * self.copies + self.jokers

    def tile(self, tile_id: int) -> Tile:
        """The kind of physical tile ``tile_id``; raise :class:`InvalidInput` if out of range."""
        if not isinstance(tile_id, int) or isinstance(tile_id, bool):
            raise InvalidInput(f"tile id {tile_id!r} is not an integer")
        if not 0 <= tile_id < self.size:
            raise InvalidInput(
                f"tile id {tile_id} is not in the {self.name} set (0-{self.size - 1})"
            )
        return self.tiles[tile_id]

    def kinds(self, tile_ids: Sequence[int]) -> list[Tile]:
        return [self.tile(tile_id) for tile_id in tile_ids]

    def contains(self, tile: Tile) -> bool:
        return tile.is_joker or 1 <= tile.number <= self.numbers


CLASSIC = TileSet("classic", numbers=13, copies=2, jokers=2)
LARGE = TileSet("large", numbers=13, copies=3, jokers=4)
RUSH = TileSet("rush", numbers=9, copies=2, jokers=1)
TILE_SETS: dict[str, TileSet] = {ts.name: ts for ts in (CLASSIC, LARGE, RUSH)}
