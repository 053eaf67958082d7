"""Game state, actions, ``apply`` and ``replay`` (docs/rules.md "A round", "Scoring", "Matches").

``apply(state, action, seed=...) -> (state, events)`` decides what happens; ``evolve(state,
event) -> state`` records it; ``replay(events) -> state`` folds ``evolve`` over a log, so a
replayed log gives exactly the state built step by step. The seed is passed in by the caller
(only when a deal or the final reveal needs it); the engine reads no clock and no global
randomness.

Choices where the rules are silent (docs/rules.md "Choices the engine makes"), each covered by
a test:

* Draw with an empty pool is a pass; ``Pass`` is accepted only when the pool is empty.
* A timeout with an empty pool counts as a pass towards a blocked round.
* Every round starts with a fresh first-player draw.
* A player who resigns is skipped from then on and only ever loses; when one player remains,
  the round ends (``resigned``) with the normal won-round scoring and the match ends.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import IllegalMove, InvalidInput
from .events import (
    Event,
    GameEnded,
    GameStarted,
    Passed,
    PlayerResigned,
    RoundEnded,
    RoundStarted,
    TileDrawn,
    TilesPlayed,
    TurnTimedOut,
    event_from_dict,
)
from .rules import Rules
from .scoring import MatchFormat, match_winners, rack_value, score_blocked_round, score_won_round
from .shuffle import SeededStream, commitment
from .tiles import Tile
from .turn import check_turn

Melds = tuple[tuple[int, ...], ...]
MIN_PLAYERS, MAX_PLAYERS = 2, 6


@dataclass(frozen=True, slots=True)
class GameConfig:
    rules: Rules
    players: int
    match: MatchFormat = MatchFormat()

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidInput(
                f"a game has {MIN_PLAYERS}-{MAX_PLAYERS} players, not {self.players}"
            )
        needed = self.players * self.rules.hand + 1
        if needed > self.rules.tile_set.size:
            raise InvalidInput(
                f"the {self.rules.tile_set.name} set is too small for {self.players} players"
            )


@dataclass(frozen=True, slots=True)
class GameState:
    config: GameConfig
    commitment: str
    round: int = 0
    finished: bool = False
    pool: tuple[int, ...] = ()
    racks: tuple[tuple[int, ...], ...] = ()
    table: Melds = ()
    turn: int = 0
    turn_number: int = 0
    opened: tuple[bool, ...] = ()
    passes: int = 0
    resigned: tuple[bool, ...] = ()
    totals: tuple[int, ...] = ()
    round_scores: tuple[tuple[int, ...], ...] = ()
    winners: tuple[int, ...] = ()
    seed: str | None = None

    @property
    def rules(self) -> Rules:
        return self.config.rules

    @property
    def kinds(self) -> tuple[Tile, ...]:
        return self.rules.tile_set.tiles

    @property
    def active_seats(self) -> list[int]:
        return [s for s in range(self.config.players) if not self.resigned[s]]

    def rack_tiles(self, seat: int) -> list[Tile]:
        return [self.kinds[i] for i in self.racks[seat]]


# Actions: what a seat asks for, in the imperative.


@dataclass(frozen=True, slots=True)
class PlayTurn:
    seat: int
    table: Melds


@dataclass(frozen=True, slots=True)
class Draw:
    seat: int


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The turn clock of ``turn`` ran out; stale or repeated timeouts are refused."""

    seat: int
    turn: int


@dataclass(frozen=True, slots=True)
class Resign:
    seat: int


Action = PlayTurn | Draw | Pass | TimeOut | Resign


def deal_round(
    config: GameConfig, seed: bytes, round_number: int, seats: Sequence[int] | None = None
) -> RoundStarted:
    """The first-player draw and the deal of a round to ``seats`` (default all), from the seed.

    Each seat draws a tile; the highest number starts; seats that drew a joker, or tie for the
    highest, draw again (from a fresh shuffle when the pile runs short). The tiles go back, the
    set is shuffled again and each seat gets ``rules.hand`` tiles, seat by seat.
    """
    tile_ids = list(range(config.rules.tile_set.size))
    kinds = config.rules.tile_set.tiles
    stream = SeededStream(seed, f"round {round_number}")
    draw_pile = stream.shuffled(tile_ids)
    dealt = list(seats) if seats is not None else list(range(config.players))
    contenders = list(dealt)
    draws: list[tuple[tuple[int, int], ...]] = []
    current: dict[int, int] = {}
    while True:
        draw = tuple((seat, draw_pile.pop()) for seat in contenders)
        draws.append(draw)
        current.update(draw)
        numbers = {seat: kinds[tile].number for seat, tile in current.items()}
        best = max(numbers.values())
        jokers = [s for s, n in numbers.items() if n == 0]
        leaders = [s for s, n in numbers.items() if n == best]
        if not jokers and len(leaders) == 1:
            break
        contenders = jokers if jokers else leaders
        current = {s: t for s, t in current.items() if s in leaders or s in jokers}
        if len(draw_pile) < len(contenders):
            draw_pile = stream.shuffled(tile_ids)
    first = leaders[0]
    pool = stream.shuffled(tile_ids)
    hand = config.rules.hand
    racks: list[tuple[int, ...]] = [()] * config.players
    for n, seat in enumerate(dealt):
        racks[seat] = tuple(sorted(pool[n * hand : (n + 1) * hand]))
    return RoundStarted(
        round=round_number,
        draws=tuple(draws),
        first=first,
        racks=tuple(racks),
        pool=tuple(pool[len(dealt) * hand :]),
    )


def new_game(config: GameConfig, seed: bytes) -> tuple[GameState, list[Event]]:
    """Start a game: publish the seed's commitment and deal the first round."""
    if len(seed) < 16:
        raise InvalidInput("the seed must be at least 16 bytes")
    started = GameStarted(
        rules=config.rules.to_dict(),
        match=config.match.to_dict(),
        players=config.players,
        commitment=commitment(seed),
    )
    events: list[Event] = [started, deal_round(config, seed, 1)]
    return replay(events), events


def apply(
    state: GameState, action: Action, seed: bytes | None = None
) -> tuple[GameState, list[Event]]:
    """Decide an action: the new state and the events it appended; raise if it is refused.

    ``seed`` is needed only when the action ends a round (to deal the next one or reveal the
    seed at the end of the match); pass it always and the engine uses it when it must.
    """
    if state.finished:
        raise IllegalMove("game_over", "The game is over.")
    if not 0 <= action.seat < state.config.players:
        raise InvalidInput(f"there is no seat {action.seat}")
    if state.resigned[action.seat]:
        raise IllegalMove("resigned", "You have resigned from this game.")
    if seed is not None and commitment(seed) != state.commitment:
        raise InvalidInput("the seed does not match this game's commitment")
    events = _decide(state, action)
    after = _fold(state, events)
    closing = _round_end(after, events[-1], seed)
    return _fold(after, closing), events + closing


def adjudicate(state: GameState, note: str, seed: bytes) -> tuple[GameState, list[Event]]:
    """End a running game now, by an operator's decision (a stuck game, a tournament table).

    The round in play is scored as if blocked (the lowest rack wins, resigned seats never gain;
    its reason is ``adjudicated``) and the match ends on the totals after it, with ``note`` (why)
    kept in the final event. Replaying the log gives the same end as any other.
    """
    if state.finished:
        raise IllegalMove("game_over", "The game is over.")
    if not state.racks:
        raise IllegalMove("not_started", "The game has not been dealt yet.")
    if commitment(seed) != state.commitment:
        raise InvalidInput("the seed does not match this game's commitment")
    note = " ".join(str(note).split())
    if not note:
        raise InvalidInput("say why the game is ended")
    blocked = _blocked_round(state)
    ended = RoundEnded(blocked.round, "adjudicated", blocked.winners, blocked.scores, blocked.racks)
    after = _fold(state, [ended])
    winners = match_winners(after.totals, after.active_seats)
    closing = GameEnded(tuple(winners), after.totals, seed.hex(), note)
    return _fold(after, [closing]), [ended, closing]


def _decide(state: GameState, action: Action) -> list[Event]:
    if isinstance(action, Resign):
        return [PlayerResigned(action.seat, state.turn_number)]
    if action.seat != state.turn:
        raise IllegalMove("not_your_turn", "It is not your turn.")
    if isinstance(action, TimeOut):
        if action.turn != state.turn_number:
            raise IllegalMove("stale_timeout", "That turn is already over.")
        drawn = state.pool[: state.rules.penalty]
        return [TurnTimedOut(action.seat, state.turn_number, drawn)]
    if isinstance(action, Draw):
        if not state.pool:
            return [Passed(action.seat, state.turn_number)]
        return [TileDrawn(action.seat, state.turn_number, state.pool[0])]
    if isinstance(action, Pass):
        if state.pool:
            raise IllegalMove("pool_not_empty", "You can pass only when the pool is empty; draw.")
        return [Passed(action.seat, state.turn_number)]
    table = _melds(action.table)
    result = check_turn(
        state.rules,
        state.kinds,
        state.table,
        state.racks[action.seat],
        table,
        state.opened[action.seat],
    )
    return [TilesPlayed(action.seat, state.turn_number, table, result.played)]


def _melds(table: object) -> Melds:
    if not isinstance(table, list | tuple) or not all(isinstance(m, list | tuple) for m in table):
        raise InvalidInput("the table must be a list of melds, each a list of tile ids")
    return tuple(tuple(meld) for meld in table)


def _round_end(state: GameState, last: Event, seed: bytes | None) -> list[Event]:
    """The events that close the round (and maybe the match) after ``last``, if any."""
    if isinstance(last, TilesPlayed) and not state.racks[last.seat]:
        ended = _won_round(state, last.seat, "going_out")
    elif isinstance(last, PlayerResigned) and len(state.active_seats) == 1:
        ended = _won_round(state, state.active_seats[0], "resigned")
    elif state.passes >= len(state.active_seats):
        ended = _blocked_round(state)
    else:
        return []
    after = _fold(state, [ended])
    if seed is None:
        raise InvalidInput("the seed is needed to end a round")
    if after.config.match.is_over(after.round, after.totals) or len(after.active_seats) == 1:
        winners = match_winners(after.totals, after.active_seats)
        return [ended, GameEnded(tuple(winners), after.totals, seed.hex())]
    return [ended, deal_round(after.config, seed, after.round + 1, after.active_seats)]


def _rack_values(state: GameState) -> list[int]:
    return [rack_value(state.rack_tiles(seat)) for seat in range(state.config.players)]


def _won_round(state: GameState, winner: int, reason: str) -> RoundEnded:
    scores = score_won_round(_rack_values(state), winner)
    return RoundEnded(state.round, reason, (winner,), tuple(scores), state.racks)


def _blocked_round(state: GameState) -> RoundEnded:
    counts = [len(rack) for rack in state.racks]
    winners, scores = score_blocked_round(_rack_values(state), counts, state.active_seats)
    return RoundEnded(state.round, "blocked", tuple(winners), tuple(scores), state.racks)


def _next_seat(state: GameState, seat: int) -> int:
    players = state.config.players
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if not state.resigned[candidate]:
            return candidate
    return seat


def _end_turn(state: GameState, **changes: Any) -> GameState:
    moved = replace(state, **changes)
    return replace(moved, turn=_next_seat(moved, state.turn), turn_number=state.turn_number + 1)


def _with_rack(state: GameState, seat: int, rack: Iterable[int]) -> tuple[tuple[int, ...], ...]:
    racks = list(state.racks)
    racks[seat] = tuple(rack)
    return tuple(racks)


def evolve(state: GameState, event: Event) -> GameState:
    """Record one event. Trusts the event: validation happened in :func:`apply`."""
    if isinstance(event, RoundStarted):
        players = state.config.players
        return replace(
            state,
            round=event.round,
            pool=event.pool,
            racks=event.racks,
            table=(),
            turn=event.first,
            opened=(False,) * players,
            passes=0,
        )
    if isinstance(event, TilesPlayed):
        played = set(event.played)
        remaining = (t for t in state.racks[event.seat] if t not in played)
        opened = list(state.opened)
        opened[event.seat] = True
        return _end_turn(
            state,
            table=event.table,
            racks=_with_rack(state, event.seat, remaining),
            opened=tuple(opened),
            passes=0,
        )
    if isinstance(event, TileDrawn | TurnTimedOut):
        drawn = (event.tile,) if isinstance(event, TileDrawn) else event.drawn
        rack = tuple(sorted(state.racks[event.seat] + drawn))
        return _end_turn(
            state,
            pool=state.pool[len(drawn) :],
            racks=_with_rack(state, event.seat, rack),
            passes=0 if drawn else state.passes + 1,
        )
    if isinstance(event, Passed):
        return _end_turn(state, passes=state.passes + 1)
    if isinstance(event, PlayerResigned):
        resigned = list(state.resigned)
        resigned[event.seat] = True
        moved = replace(state, resigned=tuple(resigned))
        if event.seat == state.turn:
            moved = replace(
                moved, turn=_next_seat(moved, state.turn), turn_number=state.turn_number + 1
            )
        return moved
    if isinstance(event, RoundEnded):
        totals = tuple(t + s for t, s in zip(state.totals, event.scores, strict=True))
        return replace(state, totals=totals, round_scores=state.round_scores + (event.scores,))
    if isinstance(event, GameEnded):
        return replace(state, finished=True, winners=event.winners, seed=event.seed)
    raise InvalidInput(f"cannot apply {event.kind} here")


def _fold(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = evolve(state, event)
    return state


def replay(events: Sequence[Event | dict[str, Any]]) -> GameState:
    """The state a log of events (objects or their dicts) leads to."""
    parsed = [e if isinstance(e, Event) else event_from_dict(e) for e in events]
    if not parsed or not isinstance(parsed[0], GameStarted):
        raise InvalidInput("a game record starts with GameStarted")
    start = parsed[0]
    config = GameConfig(
        Rules.from_dict(start.rules), start.players, MatchFormat.from_dict(start.match)
    )
    players = config.players
    state = GameState(
        config=config,
        commitment=start.commitment,
        resigned=(False,) * players,
        totals=(0,) * players,
        opened=(False,) * players,
    )
    return _fold(state, parsed[1:])


def state_to_record(state: GameState) -> dict[str, Any]:
    """The whole state as JSON-ready data, for a cache; :func:`state_from_record` reverses it."""
    return {
        "rules": state.rules.to_dict(),
        "match": state.config.match.to_dict(),
        "players": state.config.players,
        "commitment": state.commitment,
        "round": state.round,
        "finished": state.finished,
        "pool": list(state.pool),
        "racks": [list(r) for r in state.racks],
        "table": [list(m) for m in state.table],
        "turn": state.turn,
        "turn_number": state.turn_number,
        "opened": list(state.opened),
        "passes": state.passes,
        "resigned": list(state.resigned),
        "totals": list(state.totals),
        "round_scores": [list(s) for s in state.round_scores],
        "winners": list(state.winners),
        "seed": state.seed,
    }


def state_from_record(record: dict[str, Any]) -> GameState:
    """Rebuild a state cached with :func:`state_to_record`."""

    def ints(value: Any) -> tuple[int, ...]:
        return tuple(map(int, value))

    try:
        config = GameConfig(
            Rules.from_dict(record["rules"]),
            int(record["players"]),
            MatchFormat.from_dict(record["match"]),
        )
        return GameState(
            config=config,
            commitment=str(record["commitment"]),
            round=int(record["round"]),
            finished=bool(record["finished"]),
            pool=ints(record["pool"]),
            racks=tuple(ints(r) for r in record["racks"]),
            table=tuple(ints(m) for m in record["table"]),
            turn=int(record["turn"]),
            turn_number=int(record["turn_number"]),
            opened=tuple(bool(v) for v in record["opened"]),
            passes=int(record["passes"]),
            resigned=tuple(bool(v) for v in record["resigned"]),
            totals=ints(record["totals"]),
            round_scores=tuple(ints(s) for s in record["round_scores"]),
            winners=ints(record["winners"]),
            seed=record["seed"],
        )
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidInput(f"not a state record: {error}") from None
