"""What a game family gives the site: one protocol, met by every family (docs/design.md
"Game families" and "Adding a game family").

A family is a set of rules with its own engine package (Rummikub's modes, Romanian Rummy 45).
The site knows a family only through :class:`GameFamily`: it deals, applies actions, times out
turns, asks bots, projects views and counts results through it, and never branches on which
family a game is. :mod:`games.engine.families` is the registry the site looks a family up in.

Every method is pure: states and events are the family's own frozen values; what crosses to
the site is JSON-ready (``state_to_record``, ``view_for``, ``event_for``, ``results``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .errors import InvalidInput

LIVE_CLOCKS = (30, 60, 120)
CORRESPONDENCE_DAYS = (1, 3, 7)
# The site's four bot strengths; each family maps them onto its engine's own.
BOT_STRENGTHS = ("beginner", "casual", "strong", "master")

# The result fields every family counts for every seat (docs/design.md "Results"). A family's
# ``results`` gives each seat ``{"seat", *RESULT_FIELDS, "details"}``: ``details`` holds its own
# counts, exactly the keys it declares in ``result_details`` (integers; a family with none
# gives ``{}``), never one of these names.
RESULT_FIELDS = (
    "place",
    "total",
    "went_out",
    "tiles_left",
    "resigned",
    "turns",
    "average_turn_seconds",
)


@dataclass(frozen=True, slots=True)
class ModeInfo:
    """A mode (variant) of a family as the pages describe it: its label, a one-line summary,
    the new-game form's options it reads, what it fixes in words, its seat counts, and what a
    tournament may and may not set for it (``fixed_clock``: its turns always take that many
    seconds; ``live_only``: no correspondence). ``pool``: the rating pool its rated games
    count in when it has its own (``""``: pooled by time control and table size; docs/design.md
    "Ratings")."""

    name: str
    label: str
    summary: str
    options: tuple[str, ...]
    fixed: str
    players: tuple[int, ...]
    rated: bool = True
    fixed_clock: int | None = None
    live_only: bool = False
    pool: str = ""


@dataclass(frozen=True, slots=True)
class Setup:
    """A validated request for a new game: its family and mode, the family's own config
    (JSON-ready, kept on the game and handed back to :meth:`GameFamily.new_game`), the seat
    count and the clock."""

    family: str
    mode: str
    players: int
    config: Mapping[str, Any]
    clock_seconds: int | None
    correspondence_days: int | None


@dataclass(frozen=True, slots=True)
class Turn:
    """What the site needs to run a clock and a bot: the seats that may act now, and the key
    that changes whenever a new clock starts (a new turn, the start of play)."""

    to_act: tuple[int, ...]
    clock: tuple[Any, ...]
    finished: bool
    turn_number: int
    stand_in_seat: int | None = None  # the seat a stand-in may play a whole turn for
    extra: Mapping[str, Any] = field(default_factory=dict)


class GameFamily(Protocol):
    """The protocol every family meets (python-chess's variants, scalachess's ``Variant``)."""

    name: str
    label: str
    modes: Mapping[str, ModeInfo]
    # The URL action names its moves come in as (``POST /api/games/<gid>/<name>``), each with
    # the body fields it takes beside the key and expected_seq every action carries
    # (docs/api.md "Endpoints"): any other field is refused, not ignored.
    action_fields: Mapping[str, tuple[str, ...]]
    # A finished game gets the solver's post-game review.
    reviewed: bool
    # An operator may end a running game (the admin's "end stuck games").
    adjudicable: bool
    # The keys of its result rows' ``details``, its own counts (see RESULT_FIELDS).
    result_details: tuple[str, ...]

    def setup(self, mode: str, options: Mapping[str, Any]) -> Setup: ...

    def new_game(self, setup: Setup, seed: bytes) -> tuple[Any, list[Any]]: ...

    def apply(self, state: Any, action: Any, seed: bytes | None) -> tuple[Any, list[Any]]: ...

    def parse_action(self, name: str, body: Mapping[str, Any], seat: int) -> Any: ...

    def turn(self, state: Any) -> Turn: ...

    def time_out(self, state: Any, seed: bytes) -> tuple[Any, list[Any]]: ...

    def bot_action(self, view: Mapping[str, Any], rng: random.Random, strength: str) -> Any: ...

    def fallback_action(self, state: Any, seat: int) -> Any: ...

    def resign(self, seat: int) -> Any: ...

    def adjudicate(self, state: Any, note: str, seed: bytes) -> tuple[Any, list[Any]]: ...

    def view_for(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def event_for(self, event: Any, seat: int | None) -> dict[str, Any]: ...

    def event_from_dict(self, data: object) -> Any: ...

    def event_to_dict(self, event: Any) -> dict[str, Any]: ...

    def event_kind(self, event: Any) -> str: ...

    def state_to_record(self, state: Any) -> dict[str, Any]: ...

    def state_from_record(self, record: Mapping[str, Any]) -> Any: ...

    def replay(self, events: Sequence[Any]) -> Any: ...

    def evolve(self, state: Any, event: Any) -> Any: ...

    def audit(self, record: object) -> tuple[Any, dict[str, Any]]: ...

    def results(
        self, payloads: Sequence[Mapping[str, Any]], times: Sequence[float] | None, final: Any
    ) -> list[dict[str, Any]]: ...

    def activity(self, payload: Mapping[str, Any]) -> tuple[int, str] | None: ...

    def own_moves(self, payloads: Sequence[Mapping[str, Any]]) -> list[int | None]:
        """For each event of a log, the seat whose own real move it is (a draw or a play it
        chose), or None: the table's events, and what a clock did for a seat. A person who
        resigns or times out with no real move of their own aborts the game
        (docs/fair-play.md)."""
        ...

    def describe(self, payload: Mapping[str, Any], names: Sequence[str]) -> str: ...

    def replay_step(self, state: Any, show_racks: bool) -> dict[str, Any]: ...

    def tile_codes(self, setup: Setup) -> list[str]: ...

    def round_scores(self, state: Any) -> list[list[int]]: ...

    def round_end(self, event: Any) -> dict[str, Any] | None: ...

    def players_of(self, state: Any) -> int: ...

    def commitment(self, state: Any) -> str: ...

    def engine_strength(self, strength: str) -> str: ...


# Helpers the families share for their options


def choice(options: Mapping[str, Any], name: str, allowed: tuple[Any, ...], default: Any) -> Any:
    """``options[name]`` as one of ``allowed`` (``default`` when missing), else InvalidInput."""
    value = options.get(name, default)
    if value in (None, "") and None in allowed:
        return None
    try:
        value = type(default)(value) if default is not None else int(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidInput(f"{name} must be {one_of(allowed)}") from None
    if value not in allowed:
        raise InvalidInput(f"{name} must be {one_of(allowed)}")
    return value


def one_of(allowed: tuple[Any, ...]) -> str:
    """The values ``allowed`` in words: a run of five or more whole numbers as its ends.

    >>> one_of((30, 60, 120, None))
    'one of 30, 60, 120'
    >>> one_of(tuple(range(1, 61)))
    'a whole number from 1 to 60'
    """
    shown = [a for a in allowed if a is not None and a != ""]
    numbers = [a for a in shown if isinstance(a, int) and not isinstance(a, bool)]
    if len(numbers) == len(shown) >= 5 and sorted(numbers) == list(
        range(min(numbers), max(numbers) + 1)
    ):
        return f"a whole number from {min(numbers)} to {max(numbers)}"
    return f"one of {', '.join(map(str, shown))}"


def clocks(
    options: Mapping[str, Any], live: tuple[int | None, ...], default: int | None
) -> tuple[int | None, int | None]:
    """``(clock_seconds, correspondence_days)`` from ``clock`` and ``days``: days (a
    correspondence game) win over a live clock."""
    days = choice(options, "days", (None, *CORRESPONDENCE_DAYS), None)
    if days is not None:
        return None, days
    if not live:
        return default, None
    return choice(options, "clock", live, default), None
