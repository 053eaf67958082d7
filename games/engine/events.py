"""Events: what happened in a game, in the past tense. The log of these is the truth.

Each event is a frozen dataclass that turns into a JSON-ready dict (``to_dict``) with a
``kind`` key, and back (``event_from_dict``). Events hold the full truth (racks, the pool
order); :func:`games.engine.state.event_for` makes the copy a given viewer may see.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .errors import InvalidInput

Melds = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: tuples become lists, ``kind`` names the event."""
        names = _FIELD_NAMES.get(type(self))
        if names is None:
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in fields(self))
        # Not dataclasses.asdict: its deep copy cost more than the rest of a move's events.
        data: dict[str, Any] = {name: _thawed(getattr(self, name)) for name in names}
        data["kind"] = self.kind
        return data


# Each event class's field names, looked up once (to_dict runs for every event of every frame).
_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}


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
    """How the round ended (``going_out``, ``blocked``, ``resigned``), who won, the scores."""

    kind: ClassVar[str] = "RoundEnded"
    round: int
    reason: str
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    racks: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The match is over: winners, final totals, and the revealed seed (hex)."""

    kind: ClassVar[str] = "GameEnded"
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    seed: str


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


def _thawed(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_thawed(v) for v in value]
    if isinstance(value, dict):
        return {k: _thawed(v) for k, v in value.items()}
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def event_from_dict(data: object) -> Event:
    """Rebuild an event from its dict; raise :class:`InvalidInput` on a malformed one."""
    if not isinstance(data, dict) or data.get("kind") not in EVENT_TYPES:
        raise InvalidInput(f"not an event: {str(data)[:80]}")
    cls = EVENT_TYPES[data["kind"]]
    names = [f.name for f in fields(cls)]
    missing = [n for n in names if n not in data]
    if missing:
        raise InvalidInput(f"{data['kind']} event lacks {', '.join(missing)}")
    values = {n: data[n] if isinstance(data[n], dict) else _frozen(data[n]) for n in names}
    return cls(**values)
