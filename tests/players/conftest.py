"""Players fixtures: rated games played to their end through the games services, with the
after-commit signals run (ratings and trophies are made from ``game_finished``)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import pytest

from games import services
from games.engine.state import state_from_record
from games.identity import Identity
from games.models import Game


@pytest.fixture(autouse=True)
def _eager_tasks(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.RUMMI_BOT_PAUSE = 0


def viewer(user: Any) -> Identity:
    return Identity(user_id=user.pk, name=user.username)


def make_users(django_user_model: Any, *names: str) -> list[Any]:
    return [
        django_user_model.objects.create_user(username=n, email=f"{n}@example.com", password="pw")
        for n in names
    ]


def act(game: Game, user: Any, name: str, **body: Any) -> dict[str, Any]:
    game.refresh_from_db()
    body = {"expected_seq": game.seq, "key": uuid.uuid4().hex, **body}
    return services.act(game.public_id, viewer(user), name, body)


def play_out(
    capture: Any,
    users: Sequence[Any],
    resign_order: Sequence[int],
    rated: bool = True,
    options: dict[str, Any] | None = None,
    moved: bool = True,
) -> Game:
    """A game of ``users`` (seat n is users[n]) where each seat first draws once, in turn (a
    real move: a game resigned before one is aborted, docs/fair-play.md; ``moved`` False skips
    them), then the seats of ``resign_order`` resign in that order; the game ends when one
    seat is left. Signals run as after a real commit."""
    with capture(execute=True):
        opts = {"mode": "parlor", "players": len(users), "rated": rated, **(options or {})}
        game = services.create_game(viewer(users[0]), opts)
        for n, user in enumerate(users[1:], start=1):
            services.join_game(viewer(user), game.seats.get(index=n).invite_token)
        for _ in range(len(users) if moved else 0):
            game.refresh_from_db()
            act(game, users[state_from_record(game.state).turn], "draw")
        for seat in resign_order:
            act(game, users[seat], "resign")
    game.refresh_from_db()
    return game


def each_person_draws(game: Game, people: dict[int, Identity]) -> None:
    """Every person's seat of ``people`` draws once, in turn, the bots playing theirs between:
    a game resigned before a real move is aborted (docs/fair-play.md)."""
    drew: set[int] = set()
    while drew != set(people):
        game.refresh_from_db()
        seat = state_from_record(game.state).turn
        if seat not in people:
            services.play_bot_turn(game.public_id, game.turn_number)
            continue
        body = {"expected_seq": game.seq, "key": uuid.uuid4().hex}
        services.act(game.public_id, people[seat], "draw", body)
        drew.add(seat)
    game.refresh_from_db()
