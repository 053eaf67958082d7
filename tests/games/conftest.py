"""Game fixtures: the cast at a table, and a check that every game's log replays to its cache
(and its sweep columns to what that state says)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from games import services
from games.engine.families import family_named
from games.identity import Identity
from games.models import Game
from games.services.record import acting_bits


@pytest.fixture(autouse=True)
def _eager_tasks(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.RUMMI_BOT_PAUSE = 0


@pytest.fixture(autouse=True)
def _every_game_replays_to_its_cache(request: pytest.FixtureRequest) -> Iterator[None]:
    """docs/design.md: replaying any game's events gives exactly its cached state."""
    yield
    uses_db = {"db", "transactional_db"} & set(request.fixturenames)
    if not uses_db and not request.node.get_closest_marker("django_db"):
        return
    for game in Game.objects.exclude(state=None):
        family = family_named(game.family)
        events = [e.payload for e in game.events.order_by("seq")]
        assert [e.seq for e in game.events.order_by("seq")] == list(range(1, game.seq + 1))
        state = family.replay(events)
        assert state == family.state_from_record(game.state), game.public_id
        # The sweeps' columns (games/models.py) say what the state says.
        turn = family.turn(state)
        assert (game.acting, game.stand_in_seat) == (acting_bits(turn), turn.stand_in_seat)
        # The seats whose players resigned are the log's resignations.
        found = [family.activity(p) for p in events]
        resigned = {a[0] for a in found if a is not None and a[1] == "resigned"}
        assert {s.index for s in game.seats.all() if s.resigned is not None} == resigned


def key() -> str:
    return uuid.uuid4().hex


def viewer(user: Any) -> Identity:
    return Identity(user_id=user.pk, name=user.username)


@pytest.fixture
def duel(alice: Any, bob: Any) -> Game:
    """A started 2-player Parlor game: alice in seat 0, bob in seat 1."""
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    game.refresh_from_db()
    return game


def client_for(user: Any, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def post(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, body, content_type="application/json")
