"""Romanian Rummy 45 (docs/rules-45.md) behind the game-family protocol of
:mod:`games.engine.family`: one mode, its setup and turns, its clock rule, its bots, its
result counting and its replay lines.

Its clock: a deadline runs from the start of the setup and of every turn of play. A timeout
readies every seat still setting up (declining an exchange offered to it), or, in play, draws
(if the seat has not taken a tile) and discards the tile drawn.

>>> setup = R45.setup("r45", {"players": 3})
>>> state, events = R45.new_game(setup, bytes(32))
>>> R45.turn(state).to_act
(0, 1, 2)
>>> state, events = R45.time_out(state, bytes(32))
>>> (state.phase, R45.turn(state).to_act)
('play', (1,))
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import IllegalMove, InvalidInput
from ..family import LIVE_CLOCKS, ModeInfo, Setup, Turn, clocks
from . import bots
from .audit import audit_record
from .events import (
    Discarded,
    Displayed,
    Event,
    GameEnded,
    Stitched,
    TileDrawn,
    WentOutOnBoard,
    event_from_dict,
)
from .melds import readings
from .state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TILES,
    Action,
    AnswerExchange,
    Discard,
    Draw,
    R45State,
    Ready,
    Resign,
    action_from_dict,
    apply,
    evolve,
    new_game,
    replay,
    state_from_record,
    state_to_record,
    to_act,
)
from .views import CODES, event_for, view_for

# The site's four strengths played by the engine's (docs/rules-45.md "Bots").
STRENGTHS = {"beginner": "easy", "casual": "easy", "strong": "hard", "master": "expert"}
PLAYERS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
ACTION = "r45"  # the URL's action name: POST /api/games/<gid>/r45 with {"move": {...}}
# Resigning also comes in as Rummikub's does, POST /api/games/<gid>/resign (docs/api.md).
RESIGN = "resign"

MODE = ModeInfo(
    "r45",
    "Rummy 45",
    "Romanian Rummy 45: draw and discard, display 45 points, stitch, or play on the board.",
    ("players", "clock", "days"),
    "The classic 106 tiles, 2-4 players, one game; a timeout draws and discards.",
    PLAYERS,
    # A round's deadline cannot end a Rummy 45 game (it has no adjudicated end).
    live_only=True,
    pool="r45",  # every rated Rummy 45 game, whatever its player count
)


def _display_points(melds: Iterable[Iterable[int]]) -> int:
    return sum(sum(readings([TILES[t] for t in meld])[0].values) for meld in melds)


# The events only a seat's own choice makes (docs/fair-play.md "Stand-ins, absence and aborts").
OWN_ACTIONS = frozenset(
    {
        "TrumpShown",
        "DoublesAnnounced",
        "ExchangeOffered",
        "DoublesExchanged",
        "DiscardTaken",
        "TrumpTaken",
        "TrainBroken",
        "Displayed",
        "Stitched",
        "JokerBorrowed",
        "WentOutOnBoard",
    }
)


class Rummy45:
    """The Rummy 45 family: :class:`games.engine.family.GameFamily` over games.engine.r45."""

    name = "r45"
    label = "Rummy 45"
    modes: Mapping[str, ModeInfo] = {MODE.name: MODE}
    action_fields: Mapping[str, tuple[str, ...]] = {ACTION: ("move",), RESIGN: ()}
    # The post-game review is the Rummikub solver's: a Rummy 45 game has none to make.
    reviewed = False
    # It has no adjudicated ending: an operator cannot end one.
    adjudicable = False
    # Its result rows' own counts (see ``results``); a game is one round, so it has no rounds
    # won: ``went_out`` says who won it by going out.
    result_details: tuple[str, ...] = (
        "melds_laid",
        "tiles_played",
        "jokers_played",
        "jokers_held",
        "openings",
        "opening_points",
        "biggest_turn",
    )

    def setup(self, mode: str, options: Mapping[str, Any]) -> Setup:
        if mode != MODE.name:
            raise InvalidInput(f"mode must be {MODE.name}")
        players = options.get("players", 2)
        try:
            players = int(players)
        except (TypeError, ValueError, OverflowError):
            raise InvalidInput("players must be one of 2, 3, 4") from None
        if players not in PLAYERS:
            raise InvalidInput("Rummy 45 is a game for 2-4 players")
        clock, days = clocks(options, LIVE_CLOCKS, 60)
        return Setup(self.name, mode, players, {}, clock, days)

    def new_game(self, setup: Setup, seed: bytes) -> tuple[R45State, list[Event]]:
        return new_game(setup.players, seed)

    def apply(
        self, state: R45State, action: Action, seed: bytes | None
    ) -> tuple[R45State, list[Event]]:
        return apply(state, action, seed)

    def parse_action(self, name: str, body: Mapping[str, Any], seat: int) -> Action:
        if name == RESIGN:
            return Resign(seat)
        if name != ACTION:
            raise InvalidInput(f"Unknown action {name!r}.")
        return action_from_dict(body.get("move"), seat)

    def turn(self, state: R45State) -> Turn:
        return Turn(
            to_act=() if state.finished else to_act(state),
            clock=(state.phase, state.turn_number if state.phase == "play" else -1),
            finished=state.finished,
            turn_number=state.turn_number,
            # The setup is left to the clock, which readies a gone seat: only turns of play.
            stand_in_seat=state.turn if state.phase == "play" else None,
        )

    def time_out(self, state: R45State, seed: bytes) -> tuple[R45State, list[Event]]:
        """The clock rule of the module docstring, as one list of events."""
        events: list[Event] = []
        if state.phase == "setup":
            for seat in to_act(state):
                if state.offer is not None and state.offer[1] == seat:
                    state, more = apply(state, AnswerExchange(seat, None), seed)
                    events += more
                if not state.finished and state.phase == "setup" and not state.ready[seat]:
                    state, more = apply(state, Ready(seat), seed)
                    events += more
            return state, events
        if state.phase != "play":
            raise IllegalMove("not_playing", "Play has not started yet.")
        seat, turn = state.turn, state.turn_number
        drawn: int | None = None
        if not state.taken:
            state, more = apply(state, Draw(seat), seed)
            events += more
            drawn = next((e.tile for e in more if isinstance(e, TileDrawn)), None)
        if not state.finished and state.turn_number == turn:
            rack = state.racks[seat]
            plain = [t for t in rack if not TILES[t].is_joker] or list(rack)
            tile = drawn if drawn in rack else max(plain)
            state, more = apply(state, Discard(seat, tile), seed)
            events += more
        return state, events

    def bot_action(self, view: Mapping[str, Any], rng: random.Random, strength: str) -> Action:
        return bots.choose_action(view, rng, strength)

    def fallback_action(self, state: R45State, seat: int) -> Action:
        """What a bot does when its choice is refused: it never stalls a game."""
        if state.phase == "setup":
            if state.offer is not None and state.offer[1] == seat:
                return AnswerExchange(seat, None)
            return Ready(seat)
        if not state.taken:
            return Draw(seat)
        rack = state.racks[seat]
        plain = [t for t in rack if not TILES[t].is_joker] or list(rack)
        return Discard(seat, max(plain))

    def resign(self, seat: int) -> Action:
        """A seat leaves the game (docs/rules-45.md "Resigning")."""
        return Resign(seat)

    def adjudicate(self, state: R45State, note: str, seed: bytes) -> tuple[R45State, list[Event]]:
        raise IllegalMove("not_adjudicated", "A Rummy 45 game cannot be ended by an operator.")

    def engine_strength(self, strength: str) -> str:
        engine = STRENGTHS.get(strength, strength)
        return engine if engine in bots.BOT_STRENGTHS else "easy"

    # Reading

    def view_for(self, state: R45State, seat: int | None) -> dict[str, Any]:
        return view_for(state, seat)

    def event_for(self, event: Event, seat: int | None) -> dict[str, Any]:
        return event_for(event, seat)

    def event_from_dict(self, data: object) -> Event:
        return event_from_dict(data)

    def event_to_dict(self, event: Event) -> dict[str, Any]:
        return event.to_dict()

    def event_kind(self, event: Event) -> str:
        return event.kind

    def state_to_record(self, state: R45State) -> dict[str, Any]:
        return state_to_record(state)

    def state_from_record(self, record: Mapping[str, Any]) -> R45State:
        return state_from_record(dict(record))

    def replay(self, events: Sequence[Any]) -> R45State:
        return replay(events)

    def evolve(self, state: R45State, event: Event) -> R45State:
        return evolve(state, event)

    def audit(self, record: object) -> tuple[R45State, dict[str, Any]]:
        return audit_record(record)

    def results(
        self,
        payloads: Sequence[Mapping[str, Any]],
        times: Sequence[float] | None,
        final: R45State,
    ) -> list[dict[str, Any]]:
        """One row per seat (docs/design.md "The Rummy 45 engine"): place by score, the total
        is the score, went out is the winner. Its details: ``melds_laid`` (displayed melds),
        ``tiles_played`` and ``jokers_played`` (tiles displayed and stitched), ``jokers_held``
        (jokers on its rack at the end), ``openings`` (1 once it has displayed),
        ``opening_points`` (its first display's points), ``biggest_turn`` (the most tiles laid
        in one turn)."""
        events = [event_from_dict(dict(p)) for p in payloads]
        n = final.players
        melds, tiles, jokers = [0] * n, [0] * n, [0] * n
        turns, biggest, opening, this_turn = [0] * n, [0] * n, [0] * n, [0] * n
        for event in events:
            if isinstance(event, Displayed):
                laid = [t for meld in event.melds for t in meld]
                melds[event.seat] += len(event.melds)
                tiles[event.seat] += len(laid)
                jokers[event.seat] += sum(TILES[t].is_joker for t in laid)
                this_turn[event.seat] += len(laid)
                if event.first:
                    opening[event.seat] = _display_points(event.melds)
            elif isinstance(event, Stitched):
                tiles[event.seat] += 1
                jokers[event.seat] += TILES[event.tile].is_joker
                this_turn[event.seat] += 1
            elif isinstance(event, Discarded | WentOutOnBoard):
                turns[event.seat] += 1
                biggest[event.seat] = max(biggest[event.seat], this_turn[event.seat])
                this_turn[event.seat] = 0
        scores = list(final.scores)
        winner = final.winner
        # Places as every family's (docs/design.md "Results"): the seats that did not resign
        # first, then by points.
        keys = [(not final.out(s), scores[s]) for s in range(n)]
        return [
            {
                "seat": s,
                "place": 1 + sum(other > keys[s] for other in keys),
                "total": scores[s],
                # The last one left after the others resigned won without going out.
                "went_out": s == winner and final.reason != "resigned",
                "tiles_left": len(final.racks[s]),
                "resigned": final.out(s),
                "turns": turns[s],
                "average_turn_seconds": None,
                "details": {
                    "melds_laid": melds[s],
                    "tiles_played": tiles[s],
                    "jokers_played": max(jokers[s], 0),
                    "jokers_held": sum(TILES[t].is_joker for t in final.racks[s]),
                    "openings": int(final.opened[s] >= 0),
                    "opening_points": opening[s],
                    "biggest_turn": max(biggest[s], this_turn[s]),
                },
            }
            for s in range(n)
        ]

    def activity(self, payload: Mapping[str, Any]) -> tuple[int, str] | None:
        """``(seat, "moved")`` for a seat's own turn of play (a discard or going out),
        ``(seat, "resigned")`` for its resignation."""
        seat = payload.get("seat")
        if not isinstance(seat, int):
            return None
        if payload.get("kind") in ("Discarded", "WentOutOnBoard"):
            return seat, "moved"
        if payload.get("kind") == "PlayerResigned":
            return seat, "resigned"
        return None

    def own_moves(self, payloads: Sequence[Mapping[str, Any]]) -> list[int | None]:
        """A seat's own real actions: what its clock never does for it (the clock readies a
        seat, declines an exchange, draws from the stack and discards the tile drawn). Taking
        the discard, the trump or the train, displaying, stitching, borrowing a joker, going
        out, the setup's announcements and offers, and a discard of another tile than the one
        just drawn are the seat's own (the opening discard, which the clock would also make,
        is not).

        >>> Rummy45().own_moves([
        ...     {"kind": "PlayerReady", "seat": 0},
        ...     {"kind": "TileDrawn", "seat": 1, "tile": 7},
        ...     {"kind": "Discarded", "seat": 1, "tile": 7},
        ...     {"kind": "TileDrawn", "seat": 0, "tile": 8},
        ...     {"kind": "Discarded", "seat": 0, "tile": 3},
        ...     {"kind": "DiscardTaken", "seat": 1, "tile": 3},
        ... ])
        [None, None, None, None, 0, 1]
        """
        found: list[int | None] = []
        drawn: dict[int, int] = {}
        for payload in payloads:
            kind, seat = payload.get("kind"), payload.get("seat")
            mine: int | None = None
            if isinstance(seat, int):
                if kind == "TileDrawn":
                    drawn[seat] = int(payload.get("tile", -1))
                elif kind == "Discarded":
                    # After a draw, a discard of another tile; without one (the first player's
                    # opening discard, or after a take, which is the seat's own already) the
                    # clock could have made it.
                    tile = drawn.pop(seat, None)
                    mine = seat if tile is not None and tile != payload.get("tile") else None
                elif kind in OWN_ACTIONS:
                    mine = seat
            found.append(mine)
        return found

    def describe(self, event: Mapping[str, Any], names: Sequence[str]) -> str:
        """One line of the replay for an event (as a spectator may read it)."""
        kind = event["kind"]
        who = names[event["seat"]] if "seat" in event else ""
        code = str(TILES[event["tile"]]) if isinstance(event.get("tile"), int) else ""
        if kind == "GameEnded":
            winner = event.get("winner", -1)
            ending = names[winner] + " won" if winner >= 0 else "no winner"
            return f"Game over ({str(event['reason']).replace('_', ' ')}): {ending}"
        if kind == "PlayStarted":
            if "first" in event:
                return f"Play starts: {names[event['first']]} lays the locomotive"
            return "Play starts"
        lines = {
            "R45Started": "Game started; the deal is committed as "
            f"{str(event.get('commitment', ''))[:12]}…",
            "Dealt": "Dealt: the trump is turned up",
            "TrumpShown": f"{who} showed the trump's twin (+50 at the end)",
            "DoublesAnnounced": f"{who} announced doubles: {', '.join(event.get('sizes', []))}",
            "ExchangeOffered": f"{who} offered to exchange a double",
            "DoublesExchanged": f"{who} exchanged a double",
            "ExchangeDeclined": f"{who} declined an exchange",
            "PlayerReady": f"{who} is ready",
            "TileDrawn": f"{who} drew from the stack",
            "StockRenewed": "The train was shuffled into a new stack",
            "DiscardTaken": f"{who} took the last discard, {code}",
            "TrumpTaken": f"{who} took the trump, {code}",
            "TrainBroken": f"{who} broke the train",
            "Displayed": f"{who} displayed {len(event.get('melds', []))} meld(s)",
            "Stitched": f"{who} stitched {code}",
            "JokerBorrowed": f"{who} borrowed a joker",
            "Discarded": f"{who} discarded {code}",
            "FewTilesAnnounced": f"{who} has {event.get('count')} tiles left",
            "WentOutOnBoard": f"{who} went out on the board: {event.get('combination')}",
            "PlayerResigned": f"{who} resigned",
        }
        return lines.get(kind, str(kind))

    def replay_step(self, state: R45State, show_racks: bool) -> dict[str, Any]:
        """The displays (``closed``: each meld's ends closed by a 1 taken back), the boards
        (tiles only when ``show_racks``) with their take-back piles, the train, the stack and
        the scores after an event; the train's last tiles in ``note``."""
        public = view_for(state, None)
        train = public["train_codes"]
        return {
            "note": f" · train {' '.join(train[-3:])}" if train else "",
            "table": [meld["codes"] for meld in public["melds"]],
            "closed": [list(meld.closed) for meld in state.melds],
            "train": train,
            "racks": [
                {
                    "count": len(rack),
                    "tiles": [CODES[t] for t in rack] if show_racks else [],
                    "takebacks": codes,
                }
                for rack, codes in zip(state.racks, public["takeback_codes"], strict=True)
            ],
            "pool": len(state.stock),
            "pile": "stock",  # what Rummy 45 calls the tiles left to draw (docs/rules-45.md)
            "totals": list(state.scores) or [0] * state.players,
        }

    def tile_codes(self, setup: Setup) -> list[str]:
        return list(CODES)

    def round_end(self, event: Event) -> dict[str, Any] | None:
        return None  # one game, no rounds

    def players_of(self, state: R45State) -> int:
        return state.players

    def commitment(self, state: R45State) -> str:
        return state.commitment

    def round_scores(self, state: R45State) -> list[list[int]]:
        return []


R45 = Rummy45()

__all__ = ["R45", "GameEnded", "Rummy45"]
