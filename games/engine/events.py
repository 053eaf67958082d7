"""Events: what happened in a game, in the past tense. The log of these is the truth.

Each event is a frozen dataclass that turns into a JSON-ready dict (``to_dict``) with a
``kind`` key and the schema version ``v``, and back (``event_from_dict``). Events hold the full
truth (racks, the pool order); :func:`games.engine.projection.event_for` makes the copy a given
viewer may see.

Stored events are never rewritten (docs/design.md "Event versions"). A dict written by an
older version is upgraded when it is read, one version at a time (``UPGRADES``), and a field
added later gets its dataclass default, so every game ever played replays unchanged:

>>> old = {"kind": "GameEnded", "winners": [1], "totals": [-5, 5], "seed": "00"}
>>> event_from_dict(old)
GameEnded(winners=(1,), totals=(-5, 5), seed='00', note='')
>>> event_from_dict(old).to_dict()["v"] == EVENT_VERSION
True

Versions: 1 (no ``v`` key) is every event written before versions existed; 2 adds
``GameEnded.note`` (why a game was ended by an operator, ``""`` otherwise) and the
``adjudicated`` reason of ``RoundEnded``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from . import schema

# The schema version every event is written with now; see UPGRADES for what each one changed.
EVENT_VERSION = 2

Melds = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: tuples become lists, ``kind`` names the event."""
        return schema.as_dict(self, EVENT_VERSION)


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    kind: ClassVar[str] = "GameStarted"
    rules: dict[str, Any]
    match: dict[str, Any]
    players: int
    commitment: str


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A new round: the first-player draws (seat, tile id) per draw, who starts, the deal."""

    kind: ClassVar[str] = "RoundStarted"
    round: int
    draws: tuple[tuple[tuple[int, int], ...], ...]
    first: int
    racks: tuple[tuple[int, ...], ...]
    pool: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TilesPlayed(Event):
    kind: ClassVar[str] = "TilesPlayed"
    seat: int
    turn: int
    table: Melds
    played: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TileDrawn(Event):
    kind: ClassVar[str] = "TileDrawn"
    seat: int
    turn: int
    tile: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    kind: ClassVar[str] = "Passed"
    seat: int
    turn: int


@dataclass(frozen=True, slots=True)
class TurnTimedOut(Event):
    kind: ClassVar[str] = "TurnTimedOut"
    seat: int
    turn: int
    drawn: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    kind: ClassVar[str] = "PlayerResigned"
    seat: int
    turn: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """How the round ended (``going_out``, ``blocked``, ``resigned``, or ``adjudicated`` when an
    operator ended the game: scored as blocked), who won, the scores."""

    kind: ClassVar[str] = "RoundEnded"
    round: int
    reason: str
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    racks: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The match is over: winners, final totals, the revealed seed (hex), and ``note``: why an
    operator ended it (version 2; empty when the game ended by the rules)."""

    kind: ClassVar[str] = "GameEnded"
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    seed: str
    note: str = ""


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        GameStarted,
        RoundStarted,
        TilesPlayed,
        TileDrawn,
        Passed,
        TurnTimedOut,
        PlayerResigned,
        RoundEnded,
        GameEnded,
    )
}


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 to 2: no field changed meaning; ``GameEnded.note`` is new (default ``""``)."""
    return data


# UPGRADES[n] turns a version-n dict into a version n+1 dict. A new version adds an entry here,
# a default for each field it adds, and a record of it under tests/fixtures/records/.
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_version_1}

# Each event class's fields: (name, has a default), looked up once per class.
_FIELDS = schema.field_table(EVENT_TYPES)


def upgraded(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` at :data:`EVENT_VERSION`, upgraded step by step from the version it was written
    with (a dict without ``v`` is version 1); raise :class:`InvalidInput` for a newer one."""
    return schema.upgraded(data, EVENT_VERSION, UPGRADES)


def event_from_dict(data: object) -> Event:
    """Rebuild an event from its dict, of any schema version; raise :class:`InvalidInput` on a
    malformed one. A field the dict lacks takes the field's default if it has one."""
    event: Event = schema.read(data, EVENT_VERSION, UPGRADES, EVENT_TYPES, _FIELDS, "an event")
    return event
