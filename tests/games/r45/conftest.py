"""Rummy 45 game fixtures: the cast at a table, and a check that every Rummy 45 game's log
replays to its cached state (docs/design.md "The Rummy 45 engine")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import services
from games.engine.r45.state import TILES, replay, state_from_record
from games.models import Game
from ..conftest import viewer


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
