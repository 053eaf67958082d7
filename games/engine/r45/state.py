"""Rummy 45 state, actions, ``apply`` and ``replay`` (docs/rules-45.md).

Built like the Rummikub engine (``games.engine.state``): ``apply(state, action, seed=...) ->
(state, events)`` decides, ``evolve(state, event) -> state`` records, ``replay(events)`` folds
``evolve`` over a log, so a replayed log gives exactly the state built step by step. The seed is
passed in by the caller; it is needed only when the stock is renewed from the train and when the
game ends (to reveal it).

Seats play in seat order, each seat's right-hand player being the next seat, so "the player on
your left" is the seat before yours. A seat that resigned (docs/rules-45.md "Resigning") is
skipped from then on. Tiles are ids into the classic set (``CLASSIC``); every one
of the 106 is always in exactly one zone: the stock, the face-up trump, the train, a board (rack),
a displayed meld or a take-back pile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import MISSING, dataclass, replace
from typing import Any

from ..errors import IllegalMove, InvalidInput
from ..shuffle import SeededStream, commitment
from ..tiles import CLASSIC, Tile
from .deal import deal
from .events import (
    Dealt,
    Discarded,
    DiscardTaken,
    Displayed,
    DoublesAnnounced,
    DoublesExchanged,
    Event,
    ExchangeDeclined,
    ExchangeOffered,
    FewTilesAnnounced,
    GameEnded,
    JokerBorrowed,
    Melds,
    PlayerReady,
    PlayerResigned,
    PlayStarted,
    R45Started,
    Stitched,
    StockRenewed,
    TileDrawn,
    TrainBroken,
    TrumpShown,
    TrumpTaken,
    WentOutOnBoard,
    event_from_dict,
)
from .hands import HAND, best_combination
from .melds import HIGH_ONE, Reading, check_display, readings, run_tile
from .scoring import seat_score

MIN_PLAYERS, MAX_PLAYERS = 2, 4
FEW_TILES = 3
# House rule (docs/rules-45.md "Later turns"): once the stock has been renewed this many times,
# the next time it runs out the game ends with no winner, as when the tiles run out.
RENEWAL_LIMIT = 6
# The ends with no winner and no 50s: the tiles ran out, or the house rule's limit came.
NO_WINNER_ENDS = ("exhausted", "renewal_limit")
TILES = CLASSIC.tiles
DOUBLE_SIZES = ("small", "medium", "big")


def double_size(tile: Tile) -> str:
    """A double's size: small 1-5, medium 6-9, big 10-13."""
    return "small" if tile.number <= 5 else "medium" if tile.number <= 9 else "big"


@dataclass(frozen=True, slots=True)
class Meld:
    """A displayed meld: its owner, its kind, its tiles in order and who each tile counts for.

    ``closed`` says whether a run's low or high end was closed by a 1 taken back (the tile
    next to it lies face down and its joker, if it is one, can no longer be borrowed).
    """

    owner: int
    kind: str
    tiles: tuple[int, ...]
    credits: tuple[int, ...]
    closed: tuple[bool, bool] = (False, False)

    def reading(self) -> Reading:
        kinds = [TILES[i] for i in self.tiles]
        return next(r for r in readings(kinds) if r.kind == self.kind)

    def to_dict(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "kind": self.kind,
            "tiles": list(self.tiles),
            "credits": list(self.credits),
            "closed": list(self.closed),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Meld:
        low, high = data["closed"]
        return cls(
            owner=int(data["owner"]),
            kind=str(data["kind"]),
            tiles=tuple(map(int, data["tiles"])),
            credits=tuple(map(int, data["credits"])),
            closed=(bool(low), bool(high)),
        )


@dataclass(frozen=True, slots=True)
class R45State:
    """The whole state of a game; ``phase`` is ``dealing``, ``setup`` (trump, doubles), ``play``
    or ``over``. ``opened[s]`` is the turn number of seat ``s``'s first display, or -1."""

    players: int
    commitment: str
    phase: str = "dealing"
    dealer: int = 0
    trump: int = -1
    trump_up: bool = False
    trump_shown: int = -1
    stock: tuple[int, ...] = ()
    train: tuple[int, ...] = ()
    racks: tuple[tuple[int, ...], ...] = ()
    melds: tuple[Meld, ...] = ()
    takebacks: tuple[tuple[int, ...], ...] = ()
    opened: tuple[int, ...] = ()
    on_board: tuple[bool, ...] = ()
    doubles: tuple[tuple[str, ...], ...] = ()
    ready: tuple[bool, ...] = ()
    offer: tuple[int, int, int] | None = None
    offers: tuple[int, ...] = ()  # how many exchange offers each seat has made (public)
    turn: int = 0
    turn_number: int = 0
    taken: bool = False
    few: tuple[bool, ...] = ()
    renewals: int = 0
    # Per seat, whether it resigned; empty until the first resignation (so the games and the
    # cached states from before resigning existed read the same).
    resigned: tuple[bool, ...] = ()
    reason: str = ""
    winner: int = -1
    scores: tuple[int, ...] = ()
    seed: str | None = None

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    @property
    def first_round(self) -> bool:
        return self.turn_number < self.players

    def rack_tiles(self, seat: int) -> list[Tile]:
        return [TILES[i] for i in self.racks[seat]]

    def out(self, seat: int) -> bool:
        """Whether ``seat`` has resigned."""
        return bool(self.resigned) and self.resigned[seat]

    @property
    def active_seats(self) -> list[int]:
        """The seats that have not resigned, in seat order."""
        return [s for s in range(self.players) if not self.out(s)]

    def zones(self) -> list[int]:
        """Every tile id in every zone, for conservation checks: 106 distinct ids once dealt."""
        tiles = list(self.stock) + list(self.train) + ([self.trump] if self.trump_up else [])
        tiles += [t for rack in self.racks for t in rack]
        tiles += [t for meld in self.melds for t in meld.tiles]
        return tiles + [t for pile in self.takebacks for t in pile]


# Actions: what a seat asks for, in the imperative.


@dataclass(frozen=True, slots=True)
class ShowTrump:
    seat: int


@dataclass(frozen=True, slots=True)
class AnnounceDoubles:
    seat: int
    sizes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OfferExchange:
    seat: int
    to: int
    give: int


@dataclass(frozen=True, slots=True)
class AnswerExchange:
    """Accept the offer made to ``seat`` by giving ``give`` (a tile of a double), or decline
    (``give`` None)."""

    seat: int
    give: int | None = None


@dataclass(frozen=True, slots=True)
class Ready:
    seat: int


@dataclass(frozen=True, slots=True)
class Draw:
    seat: int


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the left player's last discard and display ``melds`` using it at once, or announce a
    game on the board (``on_board``, no melds)."""

    seat: int
    melds: Melds = ()
    on_board: bool = False


@dataclass(frozen=True, slots=True)
class TakeTrump:
    """Take the face-up trump as the last tile of a game on the board and go out, discarding
    ``discard``."""

    seat: int
    discard: int


@dataclass(frozen=True, slots=True)
class Display:
    seat: int
    melds: Melds


@dataclass(frozen=True, slots=True)
class Stitch:
    """Add ``tile`` to displayed meld number ``meld``; ``end`` (``low``/``high``) says which end
    of a run when the tile fits both."""

    seat: int
    tile: int
    meld: int
    end: str = ""


@dataclass(frozen=True, slots=True)
class Borrow:
    """Put ``give`` in the places of meld ``meld``'s joker(s) and display ``melds`` with them."""

    seat: int
    meld: int
    give: tuple[int, ...]
    melds: Melds


@dataclass(frozen=True, slots=True)
class BreakTrain:
    """Take the train from position ``start`` and display ``melds`` using its tile there."""

    seat: int
    start: int
    melds: Melds


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class GoOut:
    """Go out on the board: discard ``tile``; the 14 tiles left make a combination."""

    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class Resign:
    """Leave the game, at any time, on one's turn or not (docs/rules-45.md "Resigning")."""

    seat: int


Action = (
    ShowTrump
    | AnnounceDoubles
    | OfferExchange
    | AnswerExchange
    | Ready
    | Draw
    | TakeDiscard
    | TakeTrump
    | Display
    | Stitch
    | Borrow
    | BreakTrain
    | Discard
    | GoOut
    | Resign
)
SETUP_ACTIONS = (ShowTrump, AnnounceDoubles, OfferExchange, AnswerExchange, Ready)
ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls
    for cls in (*SETUP_ACTIONS, Draw, TakeDiscard, TakeTrump, Display, Stitch, Borrow)
    + (BreakTrain, Discard, GoOut, Resign)
}


def action_from_dict(data: object, seat: int) -> Action:
    """The action a JSON request names for ``seat``: ``{"action": "Stitch", "tile": 40, ...}``
    with the fields of that action (lists for tuples; never a seat, which is the asker's); raise
    :class:`InvalidInput` otherwise.

    >>> action_from_dict({"action": "Display", "melds": [[1, 2, 3]]}, seat=1)
    Display(seat=1, melds=((1, 2, 3),))
    """
    named = data.get("action") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(named, str) or named not in ACTION_TYPES:
        raise InvalidInput(f"name the action, one of {', '.join(ACTION_TYPES)}")
    action: str = named

    def number(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def numbers(value: object) -> bool:
        return isinstance(value, list) and all(number(v) for v in value)

    # Each field's JSON shape, by its annotation (a string: the module postpones them).
    shapes: dict[str, tuple[Any, str]] = {
        "int": (number, "a whole number"),
        "int | None": (lambda v: v is None or number(v), "a whole number or null"),
        "bool": (lambda v: isinstance(v, bool), "true or false"),
        "str": (lambda v: isinstance(v, str), "a string"),
        "tuple[str, ...]": (
            lambda v: isinstance(v, list) and all(isinstance(s, str) for s in v),
            "a list of strings",
        ),
        "tuple[int, ...]": (numbers, "a list of whole numbers"),
        "Melds": (
            lambda v: isinstance(v, list) and all(numbers(m) for m in v),
            "a list of lists of whole numbers",
        ),
    }
    cls = ACTION_TYPES[action]
    values: dict[str, Any] = {"seat": seat}
    for name, field in cls.__dataclass_fields__.items():
        if name == "seat":
            continue
        if name in data:
            value = data[name]
            fits, shape = shapes[str(field.type)]
            if not fits(value):
                raise InvalidInput(f"{action}'s {name!r} must be {shape}")
            if isinstance(value, list):
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            values[name] = value
        elif field.default is MISSING:
            raise InvalidInput(f"{data['action']} needs {name!r}")
    unknown = set(data) - set(cls.__dataclass_fields__) - {"action"} | ({"seat"} & set(data))
    if unknown:
        raise InvalidInput(f"{data['action']} takes no {', '.join(sorted(unknown))}")
    return cls(**values)


def new_game(players: int, seed: bytes) -> tuple[R45State, list[Event]]:
    """Start a game: publish the seed's commitment and deal."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidInput(f"Rummy 45 has {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    if len(seed) < 16:
        raise InvalidInput("the seed must be at least 16 bytes")
    events: list[Event] = [R45Started(players, commitment(seed)), deal(seed, players)]
    return replay(events), events


def to_act(state: R45State) -> tuple[int, ...]:
    """The seats that may act now: before play, those not ready or answering an offer."""
    if state.phase == "setup":
        waiting = {s for s in range(state.players) if not state.ready[s] and not state.out(s)}
        if state.offer is not None:
            waiting.add(state.offer[1])
        return tuple(sorted(waiting))
    if state.phase == "play":
        return (state.turn,)
    return ()


def apply(
    state: R45State, action: Action, seed: bytes | None = None
) -> tuple[R45State, list[Event]]:
    """Decide an action: the new state and the events it appended; raise if it is refused."""
    if state.finished:
        raise IllegalMove("game_over", "The game is over.")
    seat = action.seat
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise InvalidInput(f"there is no seat {seat!r}")
    if seed is not None and commitment(seed) != state.commitment:
        raise InvalidInput("the seed does not match this game's commitment")
    if state.out(seat):
        raise IllegalMove("resigned", "You have resigned from this game.")
    if isinstance(action, Resign):
        events = _resign(state, seat, seed)
    elif isinstance(action, SETUP_ACTIONS):
        if state.phase != "setup":
            raise IllegalMove("not_setup", "That is done before play starts.")
        events = _decide_setup(state, action)
    else:
        if state.phase != "play":
            raise IllegalMove("not_playing", "Play has not started yet.")
        if seat != state.turn:
            raise IllegalMove("not_your_turn", "It is not your turn.")
        events = _decide_turn(state, action, seed)
    return _fold(state, events), events


# ---------------------------------------------------------------------------------------------
# Before play: the trump, the doubles


def _doubles_of(state: R45State, seat: int) -> Counter[Tile]:
    kinds = Counter(t for t in state.rack_tiles(seat) if not t.is_joker)
    return Counter({t: n for t, n in kinds.items() if n >= 2})


def _double_tile(state: R45State, seat: int, tile: object) -> Tile:
    kind = _own_tile(state, seat, tile)
    if kind not in _doubles_of(state, seat):
        raise IllegalMove("not_a_double", f"{kind} is not one of a double on your board")
    return kind


def _decide_setup(state: R45State, action: Action) -> list[Event]:
    seat = action.seat
    if isinstance(action, ShowTrump):
        if state.trump_shown != -1:
            raise IllegalMove("trump_shown", "The trump has been shown already.")
        twin = TILES[state.trump]
        holding = [i for i in state.racks[seat] if TILES[i] == twin]
        if not holding:
            raise IllegalMove("no_trump", f"You do not hold the trump's twin, {twin}.")
        return [TrumpShown(seat, holding[0])]
    if isinstance(action, AnnounceDoubles):
        sizes = tuple(action.sizes) if isinstance(action.sizes, list | tuple) else ()
        if not sizes or len(set(sizes)) != len(sizes) or set(sizes) - set(DOUBLE_SIZES):
            raise InvalidInput("announce one or more of small, medium and big, once each")
        held = {double_size(t) for t in _doubles_of(state, seat)}
        if set(sizes) - held:
            raise IllegalMove("no_such_double", "Announce only the sizes of doubles you hold.")
        return [DoublesAnnounced(seat, sizes)]
    if isinstance(action, OfferExchange):
        if state.offer is not None:
            raise IllegalMove("offer_pending", "An exchange offer is waiting for its answer.")
        to = action.to
        if not isinstance(to, int) or not 0 <= to < state.players or to == seat:
            raise InvalidInput(f"there is no other seat {to!r}")
        if state.out(to):
            raise IllegalMove("resigned_seat", "That player has resigned.")
        if not state.doubles[seat] or not state.doubles[to]:
            raise IllegalMove("no_doubles", "Both players must have announced doubles.")
        kind = _double_tile(state, seat, action.give)
        return [ExchangeOffered(seat, to, action.give, double_size(kind))]
    if isinstance(action, AnswerExchange):
        offer = state.offer
        if offer is None or offer[1] != seat:
            raise IllegalMove("no_offer", "No exchange offer is waiting for you.")
        if action.give is None:
            events: list[Event] = [ExchangeDeclined(seat, offer[0])]
        else:
            _double_tile(state, seat, action.give)
            events = [DoublesExchanged(seat, offer[0], action.give, offer[2])]
        return events + _maybe_start(state, events)
    assert isinstance(action, Ready)
    if state.ready[seat]:
        raise IllegalMove("ready", "You are ready already.")
    ready: list[Event] = [PlayerReady(seat)]
    return ready + _maybe_start(state, ready)


def _maybe_start(state: R45State, events: list[Event]) -> list[Event]:
    after = _fold(state, events)
    everyone = all(ready or after.out(s) for s, ready in enumerate(after.ready))
    if everyone and after.offer is None:
        return [PlayStarted(next_seat(after, after.dealer)[0])]
    return []


def next_seat(state: R45State, seat: int) -> tuple[int, int]:
    """The next seat after ``seat`` that has not resigned, and how many places on it is (a
    resigned seat's place counts as its turn gone by, so the first round still ends once every
    place has come round)."""
    for step in range(1, state.players + 1):
        found = (seat + step) % state.players
        if not state.out(found):
            return found, step
    return seat, state.players


def _resign(state: R45State, seat: int, seed: bytes | None) -> list[Event]:
    """A resignation; the game ends when one seat is left (it wins), and before play, the
    resigned seat no longer holds up the start."""
    events: list[Event] = [PlayerResigned(seat)]
    left = _fold(state, events).active_seats
    if len(left) == 1:
        return _end(state, events, "resigned", left[0], seed)
    if state.phase == "setup":
        return events + _maybe_start(state, events)
    return events


# ---------------------------------------------------------------------------------------------
# Turns


def _own_tile(state: R45State, seat: int, tile: object) -> Tile:
    if not isinstance(tile, int) or isinstance(tile, bool):
        raise InvalidInput(f"tile id {tile!r} is not an integer")
    if tile not in state.racks[seat]:
        raise IllegalMove("not_your_tile", f"Tile {tile} is not on your board.")
    return TILES[tile]


def _melds(melds: object) -> Melds:
    if not isinstance(melds, list | tuple) or not all(isinstance(m, list | tuple) for m in melds):
        raise InvalidInput("melds must be a list of melds, each a list of tile ids")
    found = tuple(tuple(meld) for meld in melds)
    ids = [t for meld in found for t in meld]
    if any(not isinstance(t, int) or isinstance(t, bool) for t in ids):
        raise InvalidInput("tile ids must be integers")
    if len(set(ids)) != len(ids):
        raise InvalidInput("a tile appears twice in these melds")
    return found


def _display(state: R45State, seat: int, melds: Melds, hand: Iterable[int]) -> Displayed:
    """The display of ``melds`` from ``hand`` (the seat's tiles now), checked."""
    hand = set(hand)
    if any(t not in hand for meld in melds for t in meld):
        raise IllegalMove("not_your_tile", "Display only tiles on your board.")
    if not hand - {t for meld in melds for t in meld}:
        raise IllegalMove("keep_one", "Keep a tile to discard at the end of your turn.")
    first = state.opened[seat] < 0
    found = check_display([[TILES[t] for t in meld] for meld in melds], first)
    return Displayed(seat, melds, tuple(r.kind for r in found), first)


def _may_act(state: R45State, seat: int, what: str) -> None:
    """Refuse what a seat may not do now: before taking, in the first round, while waiting."""
    if not state.taken:
        raise IllegalMove("take_first", "Take a tile before anything else.")
    if state.first_round:
        raise IllegalMove("first_round", "In the first round you only draw and discard.")
    if state.on_board[seat]:
        raise IllegalMove("on_board", "You announced a game on the board: you do not display.")
    if state.opened[seat] == state.turn_number:
        raise IllegalMove("wait_a_round", "After a first display, wait for your next turn.")
    if what != "display" and state.opened[seat] < 0:
        raise IllegalMove("not_displayed", f"Display first: only then may you {what}.")


def _decide_turn(state: R45State, action: Action, seed: bytes | None) -> list[Event]:
    seat = action.seat
    if isinstance(action, Draw):
        if state.taken:
            raise IllegalMove("taken", "You have taken a tile this turn already.")
        if state.stock:
            return [TileDrawn(seat, state.stock[0])]
        if len(state.train) <= 1:
            return _end(state, [], "exhausted", -1, seed)
        if state.renewals >= RENEWAL_LIMIT:
            return _end(state, [], "renewal_limit", -1, seed)
        if seed is None:
            raise InvalidInput("the seed is needed to renew the stock")
        stream = SeededStream(seed, f"r45 renew {state.renewals + 1}")
        renewed = StockRenewed(tuple(stream.shuffled(state.train[1:])))
        return [renewed, TileDrawn(seat, renewed.stock[0])]
    if isinstance(action, TakeDiscard):
        return _take_discard(state, action)
    if isinstance(action, TakeTrump):
        return _take_trump(state, action, seed)
    if isinstance(action, Discard | GoOut):
        if not state.taken:
            raise IllegalMove("take_first", "Take a tile before you discard.")
        kind = _own_tile(state, seat, action.tile)
        if isinstance(action, GoOut):
            return _go_out(state, seat, action.tile, seed)
        events: list[Event] = [Discarded(seat, action.tile)]
        left = len(state.racks[seat]) - 1
        if left == 0:
            return _end(state, events, "went_out", seat, seed, winning=kind)
        if left <= FEW_TILES and not state.few[seat]:
            events.append(FewTilesAnnounced(seat, left))
        return events
    if isinstance(action, Display):
        _may_act(state, seat, "display")
        return [_display(state, seat, _melds(action.melds), state.racks[seat])]
    if isinstance(action, Stitch):
        _may_act(state, seat, "stitch")
        return [_stitch(state, action)]
    if isinstance(action, Borrow):
        # Before a first display too: the borrowed joker goes straight into the display, which
        # must then meet every first-display rule (docs/rules-45.md "Borrowing jokers").
        _may_act(state, seat, "display")
        return _borrow(state, action)
    assert isinstance(action, BreakTrain)
    _may_act(state, seat, "break the train")
    return _break_train(state, action)


def _take_discard(state: R45State, action: TakeDiscard) -> list[Event]:
    seat = action.seat
    if state.taken:
        raise IllegalMove("taken", "You have taken a tile this turn already.")
    if state.first_round:
        raise IllegalMove("first_round", "In the first round you draw from the stock.")
    if len(state.train) < 2:
        raise IllegalMove("no_discard", "There is no discard to take (the locomotive stays).")
    if state.few[seat] and len(state.train) > 2:
        raise IllegalMove(
            "few_tiles", "With 3 tiles or fewer you take from the train only all of it."
        )
    tile = state.train[-1]
    taken = DiscardTaken(seat, tile, bool(action.on_board))
    if action.on_board:
        if state.opened[seat] >= 0:
            raise IllegalMove("displayed", "You have displayed: you cannot play on the board.")
        if action.melds:
            raise InvalidInput("a game on the board displays no melds")
        return [taken]
    if state.on_board[seat]:
        raise IllegalMove("on_board", "You announced a game on the board: you do not display.")
    melds = _melds(action.melds)
    if not any(tile in meld for meld in melds):
        raise IllegalMove("use_discard", "The discard you take must be in the display.")
    hand = state.racks[seat] + (tile,)
    display = _display(state, seat, melds, hand)
    if state.few[seat] and not _mixes(melds, {tile}, state.racks[seat], 1):
        raise IllegalMove("few_tiles", "Display a new meld with a tile of your own.")
    return [taken, display]


def _mixes(melds: Melds, taken: set[int], own: Iterable[int], mine: int) -> bool:
    """Whether a meld holds a taken tile and at least ``mine`` tiles of the seat's own."""
    own = set(own)
    return any(set(m) & taken and len(set(m) & own) >= mine for m in melds)


def _take_trump(state: R45State, action: TakeTrump, seed: bytes | None) -> list[Event]:
    seat = action.seat
    if state.taken:
        raise IllegalMove("taken", "You have taken a tile this turn already.")
    if state.first_round:
        raise IllegalMove("first_round", "In the first round you draw from the stock.")
    if not state.trump_up:
        raise IllegalMove("no_trump", "The trump has been taken.")
    if state.opened[seat] >= 0:
        raise IllegalMove("displayed", "Only a game on the board may take the trump.")
    taken = TrumpTaken(seat, state.trump)
    after = _fold(state, [taken])
    _own_tile(after, seat, action.discard)
    return [taken] + _go_out(after, seat, action.discard, seed)


def _go_out(state: R45State, seat: int, tile: int, seed: bytes | None) -> list[Event]:
    if state.opened[seat] >= 0:
        raise IllegalMove("displayed", "You have displayed: you go out by discarding your last.")
    hand = [TILES[t] for t in state.racks[seat] if t != tile]
    name, points = best_combination(hand) if len(hand) == HAND else (None, 0)
    if name is None:
        raise IllegalMove("no_combination", "These 14 tiles make no combination on the board.")
    went = WentOutOnBoard(seat, tile, name, points)
    return _end(state, [went], "on_board", seat, seed, winning=TILES[tile], board=points)


def _stitch(state: R45State, action: Stitch) -> Stitched:
    seat = action.seat
    kind = _own_tile(state, seat, action.tile)
    if len(state.racks[seat]) < 2:
        raise IllegalMove("keep_one", "Keep a tile to discard at the end of your turn.")
    meld = _meld(state, action.meld)
    if meld.kind == "set":
        if len(meld.tiles) >= 4:
            raise IllegalMove("set_closed", "A set of 4 is closed.")
        tiles = [TILES[t] for t in meld.tiles] + [kind]
        if not any(r.kind == "set" for r in readings(tiles)):
            raise IllegalMove("no_fit", f"{kind} does not fit that set.")
        return Stitched(seat, action.tile, action.meld, "set", False)
    reading = meld.reading()
    colour = reading.colour
    assert colour is not None
    ends = [
        end
        for end, free, rank in (
            ("low", not meld.closed[0], reading.start - 1),
            ("high", not meld.closed[1], reading.end + 1),
        )
        if free and 1 <= rank <= HIGH_ONE and (kind.is_joker or kind == run_tile(colour, rank))
    ]
    if not ends or (action.end and action.end not in ends):
        where = "that end of that run" if ends else "that run"
        raise IllegalMove("no_fit", f"{kind} does not fit {where}.")
    if len(ends) > 1 and not action.end:
        raise IllegalMove("which_end", f"{kind} fits both ends of that run: say which.")
    end = action.end or ends[0]
    return Stitched(seat, action.tile, action.meld, end, kind.number == 1)


def _meld(state: R45State, index: object) -> Meld:
    if not isinstance(index, int) or isinstance(index, bool):
        raise InvalidInput(f"meld {index!r} is not a number")
    if not 0 <= index < len(state.melds):
        raise InvalidInput(f"there is no displayed meld {index}")
    return state.melds[index]


def _borrow(state: R45State, action: Borrow) -> list[Event]:
    seat = action.seat
    meld = _meld(state, action.meld)
    give = _melds([action.give])[0] if isinstance(action.give, list | tuple) else None
    if not give:
        raise InvalidInput("give the tile(s) the joker stands for")
    kinds = [_own_tile(state, seat, t) for t in give]
    tiles, credits = list(meld.tiles), list(meld.credits)
    jokers: list[int] = []
    if meld.kind == "run":
        reading = meld.reading()
        blocked = {0 if meld.closed[0] else -1, len(tiles) - 1 if meld.closed[1] else -1}
        for tile, kind in zip(give, kinds, strict=True):
            spot = next(
                (
                    p
                    for p, t in enumerate(tiles)
                    if TILES[t].is_joker and reading.stands_for(p) == kind and p not in blocked
                ),
                None,
            )
            if spot is None:
                raise IllegalMove("no_joker", f"No joker of that run stands for {kind}.")
            jokers.append(tiles[spot])
            tiles[spot] = tile
    else:
        real = [TILES[t] for t in tiles if not TILES[t].is_joker]
        whole = real + kinds
        if (
            len(whole) != 4
            or len({t.colour for t in whole}) != 4
            or any(t.number != real[0].number for t in whole)
            or len(real) == len(tiles)
        ):
            raise IllegalMove("no_joker", "Borrow a set's joker by completing the set to 4.")
        spots = [p for p, t in enumerate(tiles) if TILES[t].is_joker]
        jokers = [tiles[p] for p in spots]
        credit = credits[spots[0]]  # the given tiles count for whoever the joker counted for
        kept = [p for p in range(len(tiles)) if p not in spots]
        tiles = [tiles[p] for p in kept] + list(give)
        credits = [credits[p] for p in kept] + [credit] * len(give)
    borrowed = JokerBorrowed(seat, action.meld, give, tuple(jokers), tuple(tiles), tuple(credits))
    melds = _melds(action.melds)
    if not all(any(j in m for m in melds) for j in jokers):
        raise IllegalMove("use_joker", "A borrowed joker goes straight into a new display.")
    after = _fold(state, [borrowed])
    return [borrowed, _display(after, seat, melds, after.racks[seat])]


def _break_train(state: R45State, action: BreakTrain) -> list[Event]:
    seat, start = action.seat, action.start
    if not isinstance(start, int) or isinstance(start, bool) or not 1 <= start < len(state.train):
        raise IllegalMove(
            "no_train", "Break the train from one of its discards (not the locomotive)."
        )
    if state.few[seat] and start != 1:
        raise IllegalMove("few_tiles", "With 3 tiles or fewer you take all of the train.")
    taken = state.train[start:]
    melds = _melds(action.melds)
    mine = 1 if state.few[seat] else 2
    first = state.train[start]
    holding = [m for m in melds if first in m]
    if not holding or len(set(holding[0]) & set(state.racks[seat])) < mine:
        raise IllegalMove(
            "train_use",
            f"Use the first train tile you take with at least {mine} tile(s) from your board.",
        )
    broken = TrainBroken(seat, start, taken)
    after = _fold(state, [broken])
    return [broken, _display(after, seat, melds, after.racks[seat])]


# ---------------------------------------------------------------------------------------------
# The end


def _end(
    state: R45State,
    events: list[Event],
    reason: str,
    winner: int,
    seed: bytes | None,
    winning: Tile | None = None,
    board: int | None = None,
) -> list[Event]:
    if seed is None:
        raise InvalidInput("the seed is needed to end the game")
    after = _fold(state, events)
    scores = final_scores(after, reason, winner, winning, board)
    return events + [GameEnded(reason, winner, scores, after.racks, seed.hex())]


def credited(state: R45State, seat: int) -> list[Tile]:
    """The tiles that count for ``seat``: on the displays, and in its take-back pile."""
    tiles = [
        TILES[t]
        for meld in state.melds
        for t, c in zip(meld.tiles, meld.credits, strict=True)
        if c == seat
    ]
    return tiles + [TILES[t] for t in state.takebacks[seat]]


def final_scores(
    state: R45State, reason: str, winner: int, winning: Tile | None, board: int | None
) -> tuple[int, ...]:
    """Every seat's points at the end (``games.engine.r45.scoring``)."""
    trump_one = TILES[state.trump].number == 1
    return tuple(
        seat_score(
            credited(state, seat),
            state.rack_tiles(seat),
            state.opened[seat] >= 0,
            announced_board=state.on_board[seat],
            winner=seat == winner,
            board_points=board if seat == winner else None,
            winning_joker=winning is not None and winning.is_joker,
            trump_shown=state.trump_shown == seat,
            trump_one=trump_one,
            exhausted=reason in NO_WINNER_ENDS,
        )
        for seat in range(state.players)
    )


# ---------------------------------------------------------------------------------------------
# Recording events


def _with(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    changed = list(values)
    changed[seat] = value
    return tuple(changed)


def _rack(state: R45State, seat: int, add: Iterable[int] = (), remove: Iterable[int] = ()) -> Any:
    gone = set(remove)
    rack = tuple(sorted([t for t in state.racks[seat] if t not in gone] + list(add)))
    return _with(state.racks, seat, rack)


def evolve(state: R45State, event: Event) -> R45State:
    """Record one event. Trusts the event: validation happened in :func:`apply`."""
    if isinstance(event, Dealt):
        n = state.players
        return replace(
            state,
            phase="setup",
            dealer=event.dealer,
            trump=event.trump,
            trump_up=True,
            stock=event.stock,
            racks=event.racks,
            takebacks=((),) * n,
            opened=(-1,) * n,
            on_board=(False,) * n,
            doubles=((),) * n,
            ready=(False,) * n,
            offers=(0,) * n,
            few=(False,) * n,
        )
    if isinstance(event, TrumpShown):
        return replace(state, trump_shown=event.seat)
    if isinstance(event, DoublesAnnounced):
        return replace(state, doubles=_with(state.doubles, event.seat, event.sizes))
    if isinstance(event, ExchangeOffered):
        offers = state.offers or (0,) * state.players
        offers = _with(offers, event.seat, offers[event.seat] + 1)
        return replace(state, offer=(event.seat, event.to, event.give), offers=offers)
    if isinstance(event, ExchangeDeclined):
        return replace(state, offer=None)
    if isinstance(event, DoublesExchanged):
        moved = replace(state, racks=_rack(state, event.seat, [event.taken], [event.given]))
        racks = _rack(moved, event.offerer, [event.given], [event.taken])
        return replace(moved, racks=racks, offer=None)
    if isinstance(event, PlayerReady):
        return replace(state, ready=_with(state.ready, event.seat, True))
    if isinstance(event, PlayStarted):
        return replace(state, phase="play", turn=event.first, turn_number=0, taken=True)
    if isinstance(event, StockRenewed):
        return replace(state, stock=event.stock, train=state.train[:1], renewals=state.renewals + 1)
    if isinstance(event, TileDrawn):
        return replace(
            state, stock=state.stock[1:], racks=_rack(state, event.seat, [event.tile]), taken=True
        )
    if isinstance(event, DiscardTaken):
        on_board = state.on_board[event.seat] or event.on_board
        return replace(
            state,
            train=state.train[:-1],
            racks=_rack(state, event.seat, [event.tile]),
            taken=True,
            on_board=_with(state.on_board, event.seat, on_board),
        )
    if isinstance(event, TrumpTaken):
        racks = _rack(state, event.seat, [event.tile])
        return replace(state, trump_up=False, racks=racks, taken=True)
    if isinstance(event, TrainBroken):
        racks = _rack(state, event.seat, event.tiles)
        return replace(state, train=state.train[: event.start], racks=racks)
    if isinstance(event, Displayed):
        used = [t for meld in event.melds for t in meld]
        new = tuple(
            Meld(event.seat, kind, meld, (event.seat,) * len(meld))
            for meld, kind in zip(event.melds, event.kinds, strict=True)
        )
        opened = state.opened
        if event.first:
            opened = _with(opened, event.seat, state.turn_number)
        return replace(
            state,
            racks=_rack(state, event.seat, remove=used),
            melds=state.melds + new,
            opened=opened,
        )
    if isinstance(event, Stitched):
        return _stitched(state, event)
    if isinstance(event, JokerBorrowed):
        old = state.melds[event.meld]
        meld = replace(old, tiles=event.tiles, credits=event.credits)
        return replace(
            state,
            melds=_with(state.melds, event.meld, meld),
            racks=_rack(state, event.seat, event.jokers, event.given),
        )
    if isinstance(event, Discarded | WentOutOnBoard):
        racks = _rack(state, event.seat, remove=[event.tile])
        few = state.few
        if len(racks[event.seat]) > FEW_TILES:
            few = _with(few, event.seat, False)
        turn, step = next_seat(state, state.turn)
        return replace(
            state,
            racks=racks,
            train=state.train + (event.tile,),
            turn=turn,
            turn_number=state.turn_number + step,
            taken=False,
            few=few,
        )
    if isinstance(event, PlayerResigned):
        resigned = _with(state.resigned or (False,) * state.players, event.seat, True)
        # An exchange offer made by or to the seat lapses; its turn, if it is, passes on (the
        # tiles it took this turn stay on its board).
        offer = state.offer
        if offer is not None and event.seat in offer[:2]:
            offer = None
        moved = replace(state, resigned=resigned, offer=offer)
        if state.phase == "play" and state.turn == event.seat:
            turn, step = next_seat(moved, state.turn)
            moved = replace(moved, turn=turn, turn_number=state.turn_number + step, taken=False)
        return moved
    if isinstance(event, FewTilesAnnounced):
        return replace(state, few=_with(state.few, event.seat, True))
    if isinstance(event, GameEnded):
        return replace(
            state,
            phase="over",
            reason=event.reason,
            winner=event.winner,
            scores=event.scores,
            seed=event.seed,
        )
    raise InvalidInput(f"cannot apply {getattr(event, 'kind', type(event).__name__)} here")


def _stitched(state: R45State, event: Stitched) -> R45State:
    meld = state.melds[event.meld]
    racks = _rack(state, event.seat, remove=[event.tile])
    if event.taken_back:
        low, high = meld.closed
        closed = (True, high) if event.end == "low" else (low, True)
        pile = state.takebacks[event.seat] + (event.tile,)
        return replace(
            state,
            racks=racks,
            melds=_with(state.melds, event.meld, replace(meld, closed=closed)),
            takebacks=_with(state.takebacks, event.seat, pile),
        )
    if event.end == "low":
        tiles, credits = (event.tile,) + meld.tiles, (event.seat,) + meld.credits
    else:
        tiles, credits = meld.tiles + (event.tile,), meld.credits + (event.seat,)
    stitched = replace(meld, tiles=tiles, credits=credits)
    return replace(state, racks=racks, melds=_with(state.melds, event.meld, stitched))


def _fold(state: R45State, events: Iterable[Event]) -> R45State:
    for event in events:
        state = evolve(state, event)
    return state


def replay(events: Sequence[Event | dict[str, Any]]) -> R45State:
    """The state a log of events (objects or their dicts) leads to."""
    parsed = [e if isinstance(e, Event) else event_from_dict(e) for e in events]
    if not parsed or not isinstance(parsed[0], R45Started):
        raise InvalidInput("a Rummy 45 record starts with R45Started")
    start = parsed[0]
    return _fold(R45State(players=start.players, commitment=start.commitment), parsed[1:])


_TUPLES = ("stock", "train", "opened", "on_board", "ready", "offers", "few", "scores", "resigned")
# Fields added after states were first cached: a record without one reads as their default.
_LATER = ("offers", "resigned")
_NESTED = ("racks", "takebacks", "doubles")


def state_to_record(state: R45State) -> dict[str, Any]:
    """The whole state as JSON-ready data, for a cache; :func:`state_from_record` reverses it."""
    record: dict[str, Any] = {}
    for name in R45State.__dataclass_fields__:
        value = getattr(state, name)
        if name == "melds":
            value = [meld.to_dict() for meld in value]
        elif name in _NESTED:
            value = [list(v) for v in value]
        elif isinstance(value, tuple):
            value = list(value)
        record[name] = value
    return record


def state_from_record(record: dict[str, Any]) -> R45State:
    """Rebuild a state cached with :func:`state_to_record`."""
    try:
        values = dict(record)
        values["melds"] = tuple(Meld.from_dict(m) for m in record["melds"])
        for name in _TUPLES:
            values[name] = tuple(record[name] if name not in _LATER else record.get(name, ()))
        for name in _NESTED:
            values[name] = tuple(tuple(v) for v in record[name])
        offer = record["offer"]
        values["offer"] = None if offer is None else (int(offer[0]), int(offer[1]), int(offer[2]))
        unknown = set(values) - set(R45State.__dataclass_fields__)
        if unknown:
            raise KeyError(", ".join(sorted(unknown)))
        return R45State(**values)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise InvalidInput(f"not a Rummy 45 state record: {error}") from None
