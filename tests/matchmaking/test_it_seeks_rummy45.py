"""Rummy 45 seeks (docs/design.md "Matchmaking"): seekers are rated and seated in the r45 pool,
their game is a Rummy 45 game dealt by its own engine, and bots filling the table are Rummy 45
bots, which play it through to the end and its rating."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from django.utils import timezone

from games import services as games
from games.engine.r45 import bots
from games.engine.r45.state import to_act
from games.models import Game, Mode, SeatKind, Status
from matchmaking import services
from matchmaking.models import Seek
from ratings.models import Pool, RatingChange
from ratings.services import pool_of

from .conftest import later, viewer

pytestmark = pytest.mark.django_db


def r45(players: int = 2, **extra: Any) -> dict[str, Any]:
    return {"mode": "r45", "players": players, **extra}


def test_two_r45_seekers_share_a_rated_rummy45_game(alice: Any, bob: Any, rated: Any) -> None:
    rated(alice, "live2", 1900)  # the Rummikub duel pool is not the one read
    rated(alice, "r45", 1300)
    rated(bob, "r45", 1350)

    first = services.seek(viewer(alice), r45())
    second = services.seek(viewer(bob), r45())

    assert first["status"] == "open" and first["rating"] == 1300
    assert second["status"] == "matched"
    assert {s.pool for s in Seek.objects.all()} == {"r45"}
    game = Game.objects.get()
    assert game.mode == Mode.R45 and game.rated and not game.listed
    assert game.status == Status.PLAYING and game.clock_seconds == 60
    state = games.load_state(game)
    assert state is not None and state.players == 2 and state.phase == "setup"
    assert pool_of(game) == Pool.RUMMY45


def test_r45_seeks_meet_only_r45_seeks(alice: Any, bob: Any) -> None:
    services.seek(viewer(alice), r45())
    services.seek(viewer(bob), {"mode": "parlor", "players": 2})

    assert not Game.objects.exists()
    counts = {(r["mode"], r["label"]): r["count"] for r in services.seeking()}
    assert counts == {("parlor", "Parlor League"): 1, ("r45", "Rummy 45"): 1}


def test_bots_fill_an_r45_seek_with_r45_bots_to_a_rated_end(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    start = timezone.now()
    seek = r45(3, bots_after=30, bot_strength="strong")
    services.seek(viewer(alice), seek, now=start)
    assert services.match(later(start, 29)) == []

    with django_capture_on_commit_callbacks(execute=True):
        (game,) = services.match(later(start, 30))

    seats = list(game.seats.order_by("index"))
    assert [s.user_id for s in seats] == [alice.pk, None, None]
    assert [s.bot_strength for s in seats if s.kind == SeatKind.BOT] == ["strong", "strong"]
    game.refresh_from_db()
    state = games.load_state(game)
    assert state is not None and state.phase == "setup"
    # The bots set themselves up through the Rummy 45 engine; alice is the one left to act.
    assert state.ready[1] and state.ready[2] and to_act(state) == (0,)
    assert set(game.events.filter(kind="PlayerReady").values_list("payload__seat", flat=True)) == {
        1,
        2,
    }

    finished = play_out(game, alice, django_capture_on_commit_callbacks)

    assert finished.status == Status.FINISHED
    assert finished.results.count() == 3
    (change,) = RatingChange.objects.filter(game=finished)
    assert change.user_id == alice.pk and change.pool == Pool.RUMMY45


def play_out(game: Game, user: Any, capture: Any) -> Game:
    """Play ``user``'s seat with the engine's easy bot through the API's service (the bots'
    work run on each commit) until the game ends."""
    me = viewer(user)
    for step in range(3000):
        game.refresh_from_db()
        if game.status == Status.FINISHED:
            return game
        summary = games.game_summary(game, me)
        view = summary["view"]
        assert view["seat"] in view["to_act"], f"the bots stopped with nobody to act: {view}"
        action = bots.choose_action(view, random.Random(step), "easy")
        fields = {n: getattr(action, n) for n in action.__dataclass_fields__ if n != "seat"}
        move = {"action": type(action).__name__, **json.loads(json.dumps(fields))}
        body = {"move": move, "key": uuid.uuid4().hex}
        with capture(execute=True):
            games.act(game.public_id, me, "r45", {**body, "expected_seq": summary["seq"]})
    raise AssertionError("the game did not end")
