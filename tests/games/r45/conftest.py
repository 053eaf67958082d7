"""Rummy 45 game fixtures: the cast at a table, and a check that every Rummy 45 game's log
replays to its cached state (docs/design.md "The Rummy 45 engine")."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games import services
from games.engine.r45 import bots
from games.engine.r45.state import TILES, replay, state_from_record
from games.models import Game, Status

from ..conftest import key, viewer


@pytest.fixture(autouse=True)
def _every_game_replays_to_its_cache(db: Any) -> Iterator[None]:
    """Replaces the Rummikub check of tests/games/conftest.py: the same rule for this family,
    and the 106 tiles are all in exactly one zone."""
    yield
    for game in Game.objects.exclude(state=None).filter(mode="r45"):
        events = [e.payload for e in game.events.order_by("seq")]
        assert [e.seq for e in game.events.order_by("seq")] == list(range(1, game.seq + 1))
        state = replay(events)
        assert state == state_from_record(game.state), game.public_id
        assert sorted(state.zones()) == list(range(len(TILES)))
        # The seats whose players resigned are the log's resignations (Seat.resigned).
        resigned = {p["seat"] for p in events if p["kind"] == "PlayerResigned"}
        assert {s.index for s in game.seats.all() if s.resigned is not None} == resigned
        assert resigned == {s for s in range(state.players) if state.out(s)}


@pytest.fixture
def r45_duel(alice: Any, bob: Any) -> Game:
    """A started 2-player Rummy 45 game: alice in seat 0, bob in seat 1."""
    game = services.create_game(viewer(alice), {"mode": "r45", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    game.refresh_from_db()
    return game


@pytest.fixture
def r45_bots(alice: Any, django_capture_on_commit_callbacks: Any) -> Game:
    """Alice against a strong (hard) and a casual (easy) bot in a Rummy 45 game; the bots
    have readied themselves (their work runs on commit, here at once)."""
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            viewer(alice), {"mode": "r45", "players": 3, "seats": ["bot:strong", "bot:casual"]}
        )
    game.refresh_from_db()
    return game


def move(action: Any) -> dict[str, Any]:
    """An engine action as the API takes it: its name and fields, lists for tuples."""
    fields = {n: getattr(action, n) for n in action.__dataclass_fields__ if n != "seat"}
    return {"action": type(action).__name__, **json.loads(json.dumps(fields))}


def play_out(game: Game, user: Any, capture: Any, strength: str = "hard") -> Game:
    """Play ``user``'s seat with a bot of ``strength`` through ``services.act`` (the bots'
    work run on each commit by ``capture``) until the game ends."""
    me = viewer(user)
    for step in range(3000):
        game.refresh_from_db()
        if game.status == Status.FINISHED:
            return game
        summary = services.game_summary(game, me)
        view = summary["view"]
        if view["seat"] not in view["to_act"]:
            raise AssertionError(f"the bots stopped with nobody to act: {view}")
        action = bots.choose_action(view, random.Random(step), strength)
        body = {"move": move(action), "key": key(), "expected_seq": summary["seq"]}
        with capture(execute=True):
            services.act(game.public_id, me, "r45", body)
    raise AssertionError(f"the game did not end: {game.state}")
