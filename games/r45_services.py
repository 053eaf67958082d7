"""Rummy 45 games on the site (docs/rules-45.md, docs/design.md "Rummy 45 on the site").

A Rummy 45 game is a :class:`~games.models.Game` of mode ``r45``: the same seats, invite
links, event log, receipts, result rows and lifecycle signals as a Rummikub game, driven by
``games.engine.r45`` instead. ``games.services`` hands its games to this module where the two
families differ (dealing, acting, timeouts, bot turns, views); everything else (creating,
joining, rematches, the scorecard from the result rows) is shared.

* **Acting**: ``POST /api/games/<gid>/r45`` with ``{"move": {"action": "Draw", ...}, "key",
  "expected_seq"}`` (the move as ``games.engine.r45.state.action_from_dict`` reads it), under the
  same idempotency key and expected-seq contract as every other action. A turn is several
  actions; before play several seats may act (the trump, the doubles exchange, ready).
* **Clock**: a deadline runs from the start of the setup and of every turn. A timeout readies
  every seat still setting up (declining an exchange offered to it), or, in play, draws (if the
  seat has not taken a tile) and discards the tile drawn.
* **Bots** play every action due from a bot seat, one committed action at a time, from their
  own view (``games.engine.r45.bots``), with random choices seeded by the game and its seq; a
  run of :data:`MAX_BOT_ACTIONS` wakes the bots again, so a table of bots alone plays on.
* **Stand-ins** (a live tournament table, ``Game.stand_in``): a person gone for a minute has
  each turn of play played whole by a casual bot (``services.due_stand_ins`` finds them); the
  setup is left to the clock, which readies a gone seat.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.r45 import bots
from games.engine.r45.audit import audit_record
from games.engine.r45.events import (
    Discarded,
    Displayed,
    Event,
    R45Started,
    Stitched,
    WentOutOnBoard,
    event_from_dict,
)
from games.engine.r45.melds import readings
from games.engine.r45.state import (
    TILES,
    Action,
    AnswerExchange,
    Discard,
    Draw,
    R45State,
    Ready,
    action_from_dict,
    apply,
    evolve,
    new_game,
    replay,
    state_from_record,
    state_to_record,
    to_act,
)
from games.engine.r45.views import CODES, event_for, view_for

from . import signals
from .errors import Conflict, Forbidden, Illegal, Invalid, NotFound
from .identity import Identity
from .models import (
    ActionReceipt,
    Game,
    GameEvent,
    GameResult,
    Mode,
    Seat,
    SeatKind,
    StandIn,
    Status,
)

ACTION = "r45"  # the URL's action name: POST /api/games/<gid>/r45
# The site's bot strengths (games/modes.py BOT_STRENGTHS) played by the engine's two.
STRENGTHS = {"beginner": "easy", "casual": "easy", "strong": "hard", "master": "hard"}
MAX_BOT_ACTIONS = 400  # a bot's run of actions in one call, far above any real turn


def tile_codes() -> list[str]:
    """Every tile id's code, for a board to draw the tiles it is shown."""
    return list(CODES)


def is_r45(game: Game) -> bool:
    return game.mode == Mode.R45


def load(game: Game) -> R45State | None:
    return state_from_record(game.state) if game.state else None


def seat_index(game: Game, viewer: Identity) -> int | None:
    """The viewer's seat, as ``services.seat_of`` finds it (from their session alone)."""
    for seat in game.seats.all():
        if viewer.user_id is not None and seat.user_id == viewer.user_id:
            return seat.index
        guest = viewer.user_id is None and viewer.guest_key and not seat.user_id
        if guest and seat.guest_key == viewer.guest_key:
            return seat.index
    return None


# Starting


def start(game: Game) -> None:
    """Deal a full game (``services._start_if_full``): commit to the seed, deal, set up."""
    state, events = new_game(game.players, bytes.fromhex(game.seed))
    game.status = Status.PLAYING
    game.started = timezone.now()
    game.commitment = state.commitment
    record(game, state, events)
    game.save()


# Acting


def act(gid: str, viewer: Identity, body: dict[str, Any]) -> dict[str, Any]:
    """Apply the asking seat's Rummy 45 action; the answer is its seq and view."""
    key = body.get("key")
    if not isinstance(key, str) or not 8 <= len(key) <= 80:
        raise Invalid("bad_key", "Each action needs an idempotency key (8-80 chars).")
    expected = body.get("expected_seq")
    if not isinstance(expected, int) or isinstance(expected, bool):
        raise Invalid("bad_seq", "Each action needs expected_seq, an integer.")
    try:
        with transaction.atomic():
            return _act_locked(gid, viewer, body, key, expected)
    except IntegrityError:
        game = Game.objects.get(public_id=gid)
        seat = seat_index(game, viewer)
        raise Conflict(
            "stale", "The game moved on; here is where it stands.", **answer(game, seat)
        ) from None


def _act_locked(
    gid: str, viewer: Identity, body: dict[str, Any], key: str, expected: int
) -> dict[str, Any]:
    game = Game.objects.select_for_update().filter(public_id=gid).first()
    if game is None:
        raise NotFound("no_such_game", "There is no such game.")
    if not is_r45(game):
        raise Invalid("wrong_game", "That is a Rummy 45 action; this game is not Rummy 45.")
    seat = seat_index(game, viewer)
    if seat is None:
        raise Forbidden("not_a_player", "You are not playing in this game.")
    if expected != game.seq:
        receipt = ActionReceipt.objects.filter(game=game, seat=seat, key=key).first()
        if receipt is not None:
            return dict(receipt.body)
        raise Conflict("stale", "The game moved on; here is where it stands.", **answer(game, seat))
    if game.status != Status.PLAYING:
        raise Conflict("not_playing", "This game is not being played now.")
    try:
        action = action_from_dict(body.get("move"), seat)
    except InvalidInput as error:
        raise Invalid("bad_action", str(error)) from None
    state = apply_action(game, action)
    reply = answer(game, seat, state)
    ActionReceipt.objects.create(game=game, seat=seat, key=key, status=200, body=reply)
    return reply


def apply_action(game: Game, action: Action, by_bot: bool = False) -> R45State:
    """Run an action through the engine on a locked game and append what happened."""
    state = load(game)
    if state is None:
        raise Conflict("not_playing", "This game is not being played now.")
    try:
        state, events = apply(state, action, bytes.fromhex(game.seed))
    except IllegalMove as error:
        raise Illegal(error.code, error.message) from None
    except InvalidInput as error:
        raise Invalid("bad_action", str(error)) from None
    record(game, state, events, by_bot=by_bot)
    Game.objects.filter(pk=game.pk).update(**{name: getattr(game, name) for name in RECORDED})
    return state


RECORDED = ("seq", "state", "turn_number", "status", "finished", "deadline", "review")


def _clock_key(state: R45State) -> tuple[str, int]:
    """What a clock runs for: the setup, or one turn of play."""
    return (state.phase, state.turn_number if state.phase == "play" else -1)


def record(game: Game, state: R45State, events: list[Event], by_bot: bool = False) -> None:
    """Append events after ``game.seq``, update the cache, write the result rows of a game
    that ends here, and send the lifecycle signals after commit (as ``services._record``)."""
    before = state_from_record(game.state) if game.state else None
    first = game.seq + 1
    now = timezone.now()
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=first + n, kind=e.kind, payload=e.to_dict(), created=now)
        for n, e in enumerate(events)
    )
    game.seq += len(events)
    game.state = state_to_record(state)
    game.turn_number = state.turn_number
    clock_moved = before is None or _clock_key(before) != _clock_key(state)
    results: list[GameResult] = []
    if state.finished and game.status != Status.FINISHED:
        game.status = Status.FINISHED
        game.finished = now
        game.deadline = None
        # The post-game review is the Rummikub solver's: a Rummy 45 game has none to make.
        game.review = []
        results = write_results(game, state)
    elif clock_moved and not state.finished:
        game.deadline = _deadline(game)
    numbered = list(enumerate(events, start=first))
    extra = {"deadline": game.deadline.isoformat() if game.deadline else None}
    extra["status"] = game.status
    turns = _turn_signals(game, state, by_bot, clock_moved)
    gid, seq = game.public_id, game.seq
    transaction.on_commit(lambda: _announce(gid, seq, state, numbered, extra, turns, results))


def _deadline(game: Game) -> datetime | None:
    if game.correspondence_days:
        return timezone.now() + timedelta(days=game.correspondence_days)
    if game.clock_seconds:
        return timezone.now() + timedelta(seconds=game.clock_seconds)
    return None


def _turn_signals(
    game: Game, state: R45State, by_bot: bool, clock_moved: bool
) -> list[dict[str, Any]]:
    """``turn_started`` for the bots now due (unless a bot's own run goes on) and, when the
    clock moved, for the people due (their clock, their correspondence notice)."""
    if state.finished:
        return []
    kinds = {s.index: s.kind for s in game.seats.all()}
    due = to_act(state)
    common = {
        "turn_number": state.turn_number,
        "deadline": game.deadline,
        "live": bool(game.clock_seconds) and not game.is_correspondence,
        "correspondence": game.is_correspondence,
    }
    found = []
    robots = [s for s in due if kinds.get(s) == SeatKind.BOT]
    if robots and not by_bot:
        found.append({"seat": robots[0], "bot": True, **common})
    if clock_moved:
        found += [
            {"seat": s, "bot": False, **common} for s in due if kinds.get(s) == SeatKind.HUMAN
        ]
    return found


def _announce(
    gid: str,
    seq: int,
    state: R45State,
    numbered: list[tuple[int, Event]],
    extra: dict[str, Any],
    turns: list[dict[str, Any]],
    results: list[GameResult],
) -> None:
    signals.events_committed.send(Game, gid=gid, seq=seq, state=state, events=numbered, extra=extra)
    if any(isinstance(event, R45Started) for _, event in numbered):
        signals.game_started.send(Game, gid=gid)
    if state.finished:
        signals.game_finished.send(Game, gid=gid, results=results)
        return
    for turn in turns:
        signals.turn_started.send(Game, gid=gid, **turn)


# Results


def write_results(game: Game, final: R45State) -> list[GameResult]:
    """One result row per seat (docs/design.md "The Rummy 45 engine": place by score, the
    match total is the score, melds laid are displayed melds, tiles played are displayed and
    stitched), from the whole log."""
    payloads = game.events.order_by("seq").values_list("payload", flat=True)
    events = [event_from_dict(p) for p in payloads]
    n = final.players
    melds = [0] * n
    tiles = [0] * n
    jokers = [0] * n
    turns = [0] * n
    biggest = [0] * n
    opening = [0] * n
    this_turn = [0] * n
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
    seats = {s.index: s for s in game.seats.all()}
    winner = final.winner
    made = []
    for s in range(n):
        seat = seats.get(s)
        rack = final.racks[s]
        made.append(
            GameResult(
                game=game,
                seat=s,
                user_id=seat.user_id if seat else None,
                kind=seat.kind if seat else SeatKind.HUMAN,
                bot_strength=seat.bot_strength if seat else "",
                name=seat.name if seat else "",
                finished=game.finished or timezone.now(),
                place=1 + sum(other > scores[s] for other in scores),
                total=scores[s],
                rounds_won=int(s == winner),
                rounds_won_out=int(s == winner),
                rounds_won_blocked=0,
                went_out=s == winner,
                tiles_left=len(rack),
                resigned=False,
                melds_laid=melds[s],
                tiles_played=tiles[s],
                jokers_played=max(jokers[s], 0),
                jokers_held=sum(TILES[t].is_joker for t in rack),
                openings=int(final.opened[s] >= 0),
                opening_points=opening[s],
                turns=turns[s],
                biggest_turn=max(biggest[s], this_turn[s]),
                average_turn_seconds=None,
            )
        )
    GameResult.objects.filter(game=game).delete()
    return GameResult.objects.bulk_create(made)


def _display_points(melds: Iterable[Iterable[int]]) -> int:
    return sum(sum(readings([TILES[t] for t in meld])[0].values) for meld in melds)


# Clocks and bots


def time_out(game: Game) -> None:
    """A clock ran out on a locked game (``services.timeout``): ready the seats still
    setting up, or draw (if not yet taken) and discard the drawn tile for the seat in turn."""
    state = load(game)
    if state is None or state.finished:
        return
    if state.phase == "setup":
        for seat in to_act(state):
            if state.offer is not None and state.offer[1] == seat:
                state = apply_action(game, AnswerExchange(seat, None), by_bot=True)
            if not state.finished and state.phase == "setup" and not state.ready[seat]:
                state = apply_action(game, Ready(seat), by_bot=True)
        _wake_bots(game, state)
        return
    seat, turn = state.turn, state.turn_number
    drawn: int | None = None
    if not state.taken:
        state = apply_action(game, Draw(seat), by_bot=True)
        found = [e for e in game.events.filter(kind="TileDrawn").order_by("-seq")[:1]]
        drawn = found[0].payload["tile"] if found else None
    if not state.finished and state.turn_number == turn:
        rack = state.racks[seat]
        plain = [t for t in rack if not TILES[t].is_joker] or list(rack)
        tile = drawn if drawn in rack else max(plain)
        state = apply_action(game, Discard(seat, tile), by_bot=True)
    _wake_bots(game, state)


def _wake_bots(game: Game, state: R45State) -> None:
    """Wake the bots now due, whose last commits said nothing to them (``by_bot``): after a
    timeout's actions, or a bot run that reached :data:`MAX_BOT_ACTIONS`."""
    kinds = {s.index: s.kind for s in game.seats.all()}
    due = [s for s in to_act(state) if kinds.get(s) == SeatKind.BOT]
    if due and not state.finished:
        turn = {
            "seat": due[0],
            "bot": True,
            "turn_number": state.turn_number,
            "deadline": game.deadline,
            "live": bool(game.clock_seconds) and not game.is_correspondence,
            "correspondence": game.is_correspondence,
        }
        gid = game.public_id
        transaction.on_commit(lambda: signals.turn_started.send(Game, gid=gid, **turn))


def play_bot_turn(gid: str) -> bool:
    """Play every action now due from a bot seat, one committed action at a time, until a
    person is to act or the game ends; True if any was played. Each action is applied under
    the lock to the game as it then stands, so a person's racing action is never undone."""
    played = False
    for _ in range(MAX_BOT_ACTIONS):
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(public_id=gid).first()
            if game is None or game.status != Status.PLAYING or not is_r45(game):
                return played
            state = load(game)
            if state is None:
                return played
            strengths = {
                s.index: STRENGTHS.get(s.bot_strength, s.bot_strength)
                for s in game.seats.all()
                if s.kind == SeatKind.BOT
            }
            due = [s for s in to_act(state) if s in strengths]
            if not due:
                return played
            seat = due[0]
            rng = random.Random(f"{game.seed}:{game.seq}")
            strength = strengths[seat] if strengths[seat] in bots.BOT_STRENGTHS else "easy"
            try:
                action = bots.choose_action(view_for(state, seat), rng, strength)
                apply_action(game, action, by_bot=True)
            except (Illegal, Invalid, IllegalMove, InvalidInput):
                apply_action(game, _fallback(state, seat), by_bot=True)
            played = True
    # So long a run is a table of bots only (a tournament's): a fresh task plays on, rather
    # than the game waiting for the sweeper (games.services.due_bot_turns) to find it.
    game = Game.objects.filter(public_id=gid, status=Status.PLAYING).first()
    state = load(game) if game is not None else None
    if game is not None and state is not None:
        _wake_bots(game, state)
    return played


def play_stand_in_turn(gid: str, turn_number: int, strength: str) -> bool:
    """A bot of ``strength`` (a site strength) plays the whole turn ``turn_number`` for the
    gone person whose turn it is (``services.play_stand_in_turn`` found them gone), kept as a
    :class:`StandIn` row: a turn is stood in for once. False if the turn moved on first."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=gid).first()
        if game is None or game.status != Status.PLAYING or game.turn_number != turn_number:
            return False
        state = load(game)
        if state is None or state.phase != "play":
            return False
        seat = state.turn
        try:
            with transaction.atomic():
                StandIn.objects.create(game=game, seat=seat, turn_number=turn_number)
        except IntegrityError:
            return False
        rng = random.Random(f"{game.seed}:{turn_number}:stand-in")
        engine_strength = STRENGTHS.get(strength, "easy")
        for _ in range(MAX_BOT_ACTIONS):
            if state.finished or state.turn_number != turn_number:
                break
            try:
                action = bots.choose_action(view_for(state, seat), rng, engine_strength)
                state = apply_action(game, action, by_bot=True)
            except (Illegal, Invalid, IllegalMove, InvalidInput):
                state = apply_action(game, _fallback(state, seat), by_bot=True)
        # Its actions were a bot's (``by_bot``): the next seat's bot, if any, is woken here.
        _wake_bots(game, state)
    return True


def _fallback(state: R45State, seat: int) -> Action:
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


# Reading


def answer(game: Game, seat: int | None, state: R45State | None = None) -> dict[str, Any]:
    """The seq and the seat's view (a spectator's with ``None``)."""
    state = state or load(game)
    view = view_for(state, seat) if state else None
    if view is not None and game.sealed:
        view["seed"] = None
    return {"seq": game.seq, "view": view}


def events_after(game: Game, seat: int | None, after: int) -> dict[str, Any]:
    rows = game.events.filter(seq__gt=after).order_by("seq")
    shown = []
    for row in rows:
        event = event_for(event_from_dict(row.payload), seat)
        if game.sealed and "seed" in event:
            event["seed"] = None
        shown.append({"seq": row.seq, "event": event})
    return {"seq": game.seq, "events": shown}


def frames_by_viewer(
    state: R45State, seq: int, numbered: list[tuple[int, Event]], extra: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """Each viewer's frame (``games.live``): a seat's own tiles reach that seat only."""
    seats: list[int | None] = [*range(state.players), None]
    return {
        "spectator" if s is None else str(s): {
            "type": "update",
            "seq": seq,
            "events": [{"seq": n, "event": event_for(e, s)} for n, e in numbered],
            "view": view_for(state, s),
            **extra,
        }
        for s in seats
    }


def my_turn(game: Game, seat: int) -> bool:
    state = load(game)
    return bool(state and not state.finished and seat in to_act(state))


def seat_names(game: Game) -> list[str]:
    return [s.name or f"Seat {s.index + 1}" for s in Seat.objects.filter(game=game)]


# Replays and the seed check


def describe(event: dict[str, Any], names: list[str]) -> str:
    """One line of the replay for an event (as a spectator may read it)."""
    kind = event["kind"]
    who = names[event["seat"]] if "seat" in event else ""
    code = str(TILES[event["tile"]]) if isinstance(event.get("tile"), int) else ""
    lines = {
        "R45Started": f"Game started; the deal is committed as {event.get('commitment', '')[:12]}…",
        "Dealt": "Dealt: the trump is turned up",
        "TrumpShown": f"{who} showed the trump's twin (+50 at the end)",
        "DoublesAnnounced": f"{who} announced doubles: {', '.join(event.get('sizes', []))}",
        "ExchangeOffered": f"{who} offered to exchange a double",
        "DoublesExchanged": f"{who} exchanged a double",
        "ExchangeDeclined": f"{who} declined an exchange",
        "PlayerReady": f"{who} is ready",
        "PlayStarted": f"Play starts: {names[event['first']]} lays the locomotive"
        if "first" in event
        else "Play starts",
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
    }
    if kind == "GameEnded":
        winner = event.get("winner", -1)
        ending = names[winner] + " won" if winner >= 0 else "no winner"
        return f"Game over ({str(event['reason']).replace('_', ' ')}): {ending}"
    return lines.get(kind, kind)


def replay_steps(game: Game) -> list[dict[str, Any]]:
    """The replay page's steps (templates/games/replay.html): the displays after each event,
    every board's size, and the boards' tiles only once the game is over."""
    names = [s.name or f"Seat {s.index + 1}" for s in game.seats.all()]
    rows = list(game.events.order_by("seq"))
    show = game.status == Status.FINISHED
    from_events = [row.payload for row in rows]
    state = replay_state(from_events[:1])
    steps = []
    for row in rows[1:]:
        state = evolve_state(state, row.payload)
        public = view_for(state, None)
        train = public["train_codes"]
        text = describe(row.payload, names)
        if train:
            text += f" · train {' '.join(train[-3:])}"
        steps.append(
            {
                "seq": row.seq,
                "text": text,
                "table": [meld["codes"] for meld in public["melds"]],
                "racks": [
                    {
                        "name": names[s] if s < len(names) else f"Seat {s + 1}",
                        "count": len(rack),
                        "tiles": [str(TILES[t]) for t in rack] if show else [],
                    }
                    for s, rack in enumerate(state.racks)
                ],
                "pool": len(state.stock),
                "totals": list(state.scores) or [0] * state.players,
            }
        )
    return steps


def replay_state(payloads: list[dict[str, Any]]) -> R45State:
    return replay(payloads)


def evolve_state(state: R45State, payload: dict[str, Any]) -> R45State:
    return evolve(state, event_from_dict(payload))


def seed_check(game: Game) -> dict[str, Any] | None:
    """The verify page's check of a finished game (``games.engine.r45.audit``)."""
    if game.status != Status.FINISHED:
        return None
    events = [e.payload for e in game.events.order_by("seq")]
    return audit_record({"events": events, "seed": game.seed})[1]
