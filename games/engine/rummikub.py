"""The Rummikub family (docs/rules.md) behind the game-family protocol of
:mod:`games.engine.family`: its five modes, its actions, its clock rule (a timeout draws the
penalty) and its bots, over :mod:`games.engine.state`.

>>> family = RUMMIKUB
>>> setup = family.setup("parlor", {"players": 3})
>>> (setup.players, setup.clock_seconds, setup.config["match"]["kind"])
(3, 60, 'target')
>>> state, events = family.new_game(setup, bytes(32))
>>> family.turn(state).to_act
(0,)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from . import bots
from .audit import audit_record
from .errors import InvalidInput
from .events import Event, RoundEnded, event_from_dict
from .family import (
    LIVE_CLOCKS,
    ModeInfo,
    Setup,
    Turn,
    choice,
    clocks,
)
from .projection import event_for, view_for
from .results import DETAILS, seat_results
from .rules import Rules, rules_named
from .scoring import MatchFormat
from .state import (
    Action,
    Draw,
    GameConfig,
    GameState,
    Pass,
    PlayTurn,
    Resign,
    TimeOut,
    adjudicate,
    apply,
    evolve,
    new_game,
    replay,
    state_from_record,
    state_to_record,
)

PLAYERS = (2, 3, 4, 5, 6)
TARGET_SCORES = (50, 100, 150, 200, 300, 500)
TILE_SETS = ("classic", "large", "rush")
# The engine's bot strengths are the site's own.
STRENGTHS = {"beginner": "beginner", "casual": "casual", "strong": "strong", "master": "master"}

MODES: dict[str, ModeInfo] = {
    mode.name: mode
    for mode in (
        ModeInfo(
            "parlor",
            "Parlor League",
            "The classic match: play rounds until someone's total reaches the target score.",
            ("players", "clock", "days", "target"),
            "Opening 30 points, 3-tile penalty on a timeout; the large set for 5-6 players.",
            PLAYERS,
        ),
        ModeInfo(
            "blitz",
            "Blitz",
            "Fast turns: 30 seconds each, to a target score or for one round.",
            ("players", "days", "target", "rounds"),
            "A 30-second clock, the classic set, 2-4 players.",
            PLAYERS[:3],
            fixed_clock=30,
        ),
        ModeInfo(
            "sandbox",
            "Sandbox",
            "Practice without pressure: no clock, one round, hints, any tile set and opening.",
            ("players", "tiles", "opening"),
            "No clock and one round; no target score.",
            PLAYERS,
            rated=False,
        ),
        ModeInfo(
            "rush",
            "Rummy Rush",
            "A quick duel with the small 1-9 set: three rounds, the highest total wins.",
            ("days",),
            "2 players, the rush set (opening 21), a 60-second clock, 3 rounds.",
            (2,),
            fixed_clock=60,
            pool="rush",
        ),
        ModeInfo(
            "lan",
            "LAN rules",
            "House rules of the table at home: one round, a 1-tile penalty, no clock unless set.",
            ("players", "clock", "days"),
            "One round and a 1-tile penalty on a timeout; no target score.",
            PLAYERS,
        ),
    )
}

# Each action's body fields beside the key and expected_seq (GameFamily.action_fields).
ACTION_FIELDS: Mapping[str, tuple[str, ...]] = {
    "play": ("table",),
    "draw": (),
    "pass": (),
    "resign": (),
}


def _table(raw: object) -> tuple[tuple[int, ...], ...]:
    if not isinstance(raw, list) or not all(
        isinstance(m, list) and all(isinstance(t, int) and not isinstance(t, bool) for t in m)
        for m in raw
    ):
        raise InvalidInput("The table must be a list of melds of tile ids.", "bad_table")
    return tuple(tuple(m) for m in raw)


def _target(options: Mapping[str, Any]) -> int:
    return int(choice(options, "target", TARGET_SCORES, 200))


class Rummikub:
    """The Rummikub family: :class:`games.engine.family.GameFamily` over games.engine.state."""

    name = "rummikub"
    label = "Rummikub"
    modes: Mapping[str, ModeInfo] = MODES
    action_fields = ACTION_FIELDS
    reviewed = True
    adjudicable = True
    # Its result rows' own counts (games/engine/results.py): rounds, melds, jokers, openings.
    result_details: tuple[str, ...] = DETAILS

    # Dealing

    def setup(self, mode: str, options: Mapping[str, Any]) -> Setup:
        """Validate a new game's options and fill in the mode's defaults (docs/rules.md
        "Modes"): players (2-6), clock (30/60/120 s) or days (1/3/7), target, rounds ("one"
        for a single Blitz round), tiles and opening (Sandbox)."""
        if mode not in MODES:
            raise InvalidInput(f"mode must be one of {', '.join(MODES)}")
        players = choice(options, "players", PLAYERS, 2)
        large = players >= 5
        rules: Rules
        if mode == "rush":
            if players != 2:
                raise InvalidInput("Rummy Rush is a game for 2 players")
            rules, match = rules_named("rush"), MatchFormat("rounds", rounds=3)
            clock, days = clocks(options, (), 60)
        elif mode == "blitz":
            if large:
                raise InvalidInput("Blitz is played with the classic set, 2-4 players")
            single = options.get("rounds") == "one"
            target = _target(options)
            match = MatchFormat("single") if single else MatchFormat("target", target=target)
            rules = rules_named("classic")
            clock, days = clocks(options, (), 30)
        elif mode == "lan":
            rules = rules_named("large" if large else "classic").with_penalty(1)
            match = MatchFormat("single")
            clock, days = clocks(options, (None, *LIVE_CLOCKS), None)
        elif mode == "sandbox":
            tiles = options.get("tiles") or ("large" if large else "classic")
            if tiles not in TILE_SETS:
                raise InvalidInput("tiles must be classic, large or rush")
            rules = rules_named(str(tiles))
            opening = choice(options, "opening", tuple(range(0, 61)), rules.opening)
            rules, match = rules.with_opening(opening), MatchFormat("single")
            if choice(options, "days", (None, 1, 3, 7), None) is not None:
                raise InvalidInput("Sandbox games have no clock")
            clock, days = None, None
        else:
            rules = rules_named("large" if large else "classic")
            match = MatchFormat("target", target=_target(options))
            clock, days = clocks(options, LIVE_CLOCKS, 60)
        # The engine's own check (a set too small for the players) before any seat is made.
        GameConfig(rules, players, match)
        config = {"rules": rules.to_dict(), "match": match.to_dict()}
        return Setup(self.name, mode, players, config, clock, days)

    def config(self, setup: Setup) -> GameConfig:
        rules = Rules.from_dict(dict(setup.config["rules"]))
        return GameConfig(rules, setup.players, MatchFormat.from_dict(dict(setup.config["match"])))

    def new_game(self, setup: Setup, seed: bytes) -> tuple[GameState, list[Event]]:
        return new_game(self.config(setup), seed)

    # Acting

    def apply(
        self, state: GameState, action: Action, seed: bytes | None
    ) -> tuple[GameState, list[Event]]:
        return apply(state, action, seed)

    def parse_action(self, name: str, body: Mapping[str, Any], seat: int) -> Action:
        if name == "play":
            return PlayTurn(seat, _table(body.get("table")))
        if name == "draw":
            return Draw(seat)
        if name == "pass":
            return Pass(seat)
        if name == "resign":
            return Resign(seat)
        raise InvalidInput(f"Unknown action {name!r}.")

    def turn(self, state: GameState) -> Turn:
        to_act = () if state.finished or not state.racks else (state.turn,)
        return Turn(
            to_act=to_act,
            clock=(state.round, state.turn_number),
            finished=state.finished,
            turn_number=state.turn_number,
            stand_in_seat=None if state.finished or not state.racks else state.turn,
        )

    def time_out(self, state: GameState, seed: bytes) -> tuple[GameState, list[Event]]:
        """The clock rule: the seat in turn draws its penalty.

        As docs/rules.md "Rule 6: the clock" has it."""
        return apply(state, TimeOut(state.turn, state.turn_number), seed)

    def bot_action(self, view: Mapping[str, Any], rng: random.Random, strength: str) -> Action:
        return bots.choose_action(view, rng, strength)

    def fallback_action(self, state: GameState, seat: int) -> Action:
        """What a bot does when its choice is refused or it is out of time: it draws."""
        return Draw(seat)

    def resign(self, seat: int) -> Action:
        return Resign(seat)

    def adjudicate(self, state: GameState, note: str, seed: bytes) -> tuple[GameState, list[Event]]:
        return adjudicate(state, note, seed)

    def engine_strength(self, strength: str) -> str:
        return STRENGTHS.get(strength, "casual")

    # Reading

    def view_for(self, state: GameState, seat: int | None) -> dict[str, Any]:
        return view_for(state, seat)

    def event_for(self, event: Event, seat: int | None) -> dict[str, Any]:
        return event_for(event, seat)

    def event_from_dict(self, data: object) -> Event:
        return event_from_dict(data)

    def event_to_dict(self, event: Event) -> dict[str, Any]:
        return event.to_dict()

    def event_kind(self, event: Event) -> str:
        return event.kind

    def state_to_record(self, state: GameState) -> dict[str, Any]:
        return state_to_record(state)

    def state_from_record(self, record: Mapping[str, Any]) -> GameState:
        return state_from_record(dict(record))

    def replay(self, events: Sequence[Any]) -> GameState:
        return replay(events)

    def evolve(self, state: GameState, event: Event) -> GameState:
        return evolve(state, event)

    def audit(self, record: object) -> tuple[GameState, dict[str, Any]]:
        return audit_record(record)

    def results(
        self,
        payloads: Sequence[Mapping[str, Any]],
        times: Sequence[float] | None,
        final: GameState,
    ) -> list[dict[str, Any]]:
        return [row.row() for row in seat_results([dict(p) for p in payloads], times)]

    def activity(self, payload: Mapping[str, Any]) -> tuple[int, str] | None:
        """Who did what in an event: ``(seat, "moved" | "missed" | "resigned")`` for a seat's
        own turn, its timeout or its resignation; None for the table's events."""
        kind = payload.get("kind")
        seat = payload.get("seat")
        if not isinstance(seat, int):
            return None
        if kind == "TurnTimedOut":
            return seat, "missed"
        if kind == "PlayerResigned":
            return seat, "resigned"
        if kind in ("TilesPlayed", "TileDrawn", "Passed"):
            return seat, "moved"
        return None

    def own_moves(self, payloads: Sequence[Mapping[str, Any]]) -> list[int | None]:
        """A play, a draw or a pass is the seat's own; a timeout's penalty is the clock's.

        >>> Rummikub().own_moves([{"kind": "TileDrawn", "seat": 1},
        ...     {"kind": "TurnTimedOut", "seat": 0}, {"kind": "PlayerResigned", "seat": 0}])
        [1, None, None]
        """
        found = [self.activity(p) for p in payloads]
        return [a[0] if a is not None and a[1] == "moved" else None for a in found]

    def describe(self, event: Mapping[str, Any], names: Sequence[str]) -> str:
        """One line of the replay for an event, as a spectator may read it."""
        kind = event["kind"]
        who = names[event["seat"]] if "seat" in event else ""
        if kind == "GameStarted":
            return f"Game started; the deal is committed as {event['commitment'][:12]}…"
        if kind == "RoundStarted":
            return f"Round {event['round']}: {names[event['first']]} starts"
        if kind == "TilesPlayed":
            return f"{who} played {len(event['played'])} tile(s)"
        if kind == "TileDrawn":
            return f"{who} drew a tile"
        if kind == "Passed":
            return f"{who} passed"
        if kind == "TurnTimedOut":
            return f"{who} ran out of time and drew {len(event['drawn'])}"
        if kind == "PlayerResigned":
            return f"{who} resigned"
        if kind == "RoundEnded":
            winners = ", ".join(names[w] for w in event["winners"])
            reason = str(event["reason"]).replace("_", " ")
            return f"Round {event['round']} over ({reason}): {winners} won"
        if kind == "GameEnded":
            return "Game over: " + ", ".join(names[w] for w in event["winners"]) + " won"
        return str(kind)

    def replay_step(self, state: GameState, show_racks: bool) -> dict[str, Any]:
        """The table, the racks (tiles only when ``show_racks``), the pool and the totals."""
        kinds = state.kinds
        return {
            "table": [[str(kinds[i]) for i in meld] for meld in state.table],
            "racks": [
                {"count": len(rack), "tiles": [str(kinds[i]) for i in rack] if show_racks else []}
                for rack in state.racks
            ],
            "pool": len(state.pool),
            "totals": list(state.totals),
        }

    def tile_codes(self, setup: Setup) -> list[str]:
        """Every tile id's code, for a board to draw the tiles it is shown."""
        return [str(t) for t in Rules.from_dict(dict(setup.config["rules"])).tile_set.tiles]

    def round_end(self, event: Event) -> dict[str, Any] | None:
        """A round's end, for the ``round_ended`` signal: round, reason, winners, scores."""
        if not isinstance(event, RoundEnded):
            return None
        return {
            "round": event.round,
            "reason": event.reason,
            "winners": event.winners,
            "scores": event.scores,
        }

    def players_of(self, state: GameState) -> int:
        return state.config.players

    def commitment(self, state: GameState) -> str:
        return state.commitment

    def round_scores(self, state: GameState) -> list[list[int]]:
        return [list(scores) for scores in state.round_scores]


RUMMIKUB = Rummikub()
