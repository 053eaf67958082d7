"""Rummy 45 events, in the past tense: the log of these is the truth (docs/rules-45.md).

They follow ``games.engine.events``: frozen dataclasses with a ``kind``, turned into JSON-ready
dicts with the schema version ``v`` (``to_dict``) and back (``event_from_dict``), older versions
upgraded one step at a time through ``UPGRADES`` and missing fields taking their defaults.
Events hold the whole truth (racks, the stock's order); ``views.event_for`` makes a viewer's copy.

>>> event_from_dict({"kind": "Discarded", "seat": 1, "tile": 40})
Discarded(seat=1, tile=40)
>>> Discarded(1, 40).to_dict() == {"seat": 1, "tile": 40, "kind": "Discarded", "v": 3}
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from .. import schema

# 2: GameEnded's reason may be ``renewal_limit``; 3: ``PlayerResigned``, and GameEnded's reason
# ``resigned`` (docs/design.md "Event versions").
EVENT_VERSION = 3

Melds = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        return schema.as_dict(self, EVENT_VERSION)


@dataclass(frozen=True, slots=True)
class R45Started(Event):
    """A game of Rummy 45 for ``players`` seats, with the seed's commitment."""

    kind: ClassVar[str] = "R45Started"
    players: int
    commitment: str


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    kind: ClassVar[str] = "Dealt"
    dealer: int
    redeals: int
    from_right: bool
    landing: int
    trump: int
    racks: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TrumpShown(Event):
    kind: ClassVar[str] = "TrumpShown"
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class DoublesAnnounced(Event):
    kind: ClassVar[str] = "DoublesAnnounced"
    seat: int
    sizes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ExchangeOffered(Event):
    """``seat`` offers ``to`` one tile of a double (``give``, seen by the offerer only)."""

    kind: ClassVar[str] = "ExchangeOffered"
    seat: int
    to: int
    give: int
    size: str


@dataclass(frozen=True, slots=True)
class DoublesExchanged(Event):
    """``seat`` accepted ``offerer``'s offer: ``taken`` went to ``seat``, ``given`` back."""

    kind: ClassVar[str] = "DoublesExchanged"
    seat: int
    offerer: int
    given: int
    taken: int


@dataclass(frozen=True, slots=True)
class ExchangeDeclined(Event):
    kind: ClassVar[str] = "ExchangeDeclined"
    seat: int
    offerer: int


@dataclass(frozen=True, slots=True)
class PlayerReady(Event):
    kind: ClassVar[str] = "PlayerReady"
    seat: int


@dataclass(frozen=True, slots=True)
class PlayStarted(Event):
    """Every seat is ready: the dealer's right-hand player lays the locomotive."""

    kind: ClassVar[str] = "PlayStarted"
    first: int


@dataclass(frozen=True, slots=True)
class TileDrawn(Event):
    kind: ClassVar[str] = "TileDrawn"
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class StockRenewed(Event):
    """The stock ran out: the train but the locomotive, shuffled, is the new ``stock``."""

    kind: ClassVar[str] = "StockRenewed"
    stock: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiscardTaken(Event):
    kind: ClassVar[str] = "DiscardTaken"
    seat: int
    tile: int
    on_board: bool = False


@dataclass(frozen=True, slots=True)
class TrumpTaken(Event):
    kind: ClassVar[str] = "TrumpTaken"
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class TrainBroken(Event):
    """``seat`` took the train from position ``start`` (the locomotive is 0): ``tiles``."""

    kind: ClassVar[str] = "TrainBroken"
    seat: int
    start: int
    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Displayed(Event):
    """New melds in front of ``seat``, read as ``kinds`` (``run`` or ``set``)."""

    kind: ClassVar[str] = "Displayed"
    seat: int
    melds: Melds
    kinds: tuple[str, ...]
    first: bool


@dataclass(frozen=True, slots=True)
class Stitched(Event):
    """``tile`` added to meld ``meld`` at ``end`` (``low``, ``high`` or ``set``); a 1 on a run's
    end is taken back (``taken_back``): it goes to ``seat``'s take-back pile and the end closes."""

    kind: ClassVar[str] = "Stitched"
    seat: int
    tile: int
    meld: int
    end: str
    taken_back: bool


@dataclass(frozen=True, slots=True)
class JokerBorrowed(Event):
    """``given`` took the places of the jokers of meld ``meld`` (``tiles`` is the meld after)."""

    kind: ClassVar[str] = "JokerBorrowed"
    seat: int
    meld: int
    given: tuple[int, ...]
    jokers: tuple[int, ...]
    tiles: tuple[int, ...]
    credits: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    kind: ClassVar[str] = "Discarded"
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class FewTilesAnnounced(Event):
    """``seat`` has ``count`` tiles (3 or fewer) left on their board."""

    kind: ClassVar[str] = "FewTilesAnnounced"
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class WentOutOnBoard(Event):
    kind: ClassVar[str] = "WentOutOnBoard"
    seat: int
    tile: int
    combination: str
    points: int


@dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    """``seat`` resigned (from version 3; the house rule of docs/rules-45.md "Resigning"): it is
    skipped from then on and cannot win; its board and displays stay where they are."""

    kind: ClassVar[str] = "PlayerResigned"
    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """``reason``: ``went_out``, ``on_board``, from version 3 ``resigned`` (every other seat
    resigned: ``winner`` is the one left), or with no winner (``winner`` -1) ``exhausted``
    (nothing to draw, nothing in the train) or, from version 2, ``renewal_limit`` (the stock ran
    out once more after ``state.RENEWAL_LIMIT`` renewals: docs/rules-45.md "Later turns")."""

    kind: ClassVar[str] = "GameEnded"
    reason: str
    winner: int
    scores: tuple[int, ...]
    racks: tuple[tuple[int, ...], ...]
    seed: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        R45Started,
        Dealt,
        TrumpShown,
        DoublesAnnounced,
        ExchangeOffered,
        DoublesExchanged,
        ExchangeDeclined,
        PlayerReady,
        PlayStarted,
        TileDrawn,
        StockRenewed,
        DiscardTaken,
        TrumpTaken,
        TrainBroken,
        Displayed,
        Stitched,
        JokerBorrowed,
        Discarded,
        FewTilesAnnounced,
        WentOutOnBoard,
        PlayerResigned,
        GameEnded,
    )
}


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 added a reason a version-1 ``GameEnded`` never has: every field reads the same."""
    return data


def _from_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 added an event kind (``PlayerResigned``) and a reason a version-2 ``GameEnded``
    never has: every version-2 event reads the same."""
    return data


# UPGRADES[n] turns a version-n dict into a version n+1 dict (docs/design.md "Event versions").
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _from_version_1,
    2: _from_version_2,
}

_FIELDS = schema.field_table(EVENT_TYPES)


def upgraded(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` at :data:`EVENT_VERSION`; raise :class:`InvalidInput` for an unknown version."""
    return schema.upgraded(data, EVENT_VERSION, UPGRADES)


def event_from_dict(data: object) -> Event:
    """Rebuild an event from its dict; raise :class:`InvalidInput` on a malformed one."""
    event: Event = schema.read(
        data, EVENT_VERSION, UPGRADES, EVENT_TYPES, _FIELDS, "a Rummy 45 event"
    )
    return event
