"""Bots take their turns through the game service, like people, as Celery tasks."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.engine.state import state_from_record
from games.models import Game

from .conftest import key, viewer

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("strength", ["beginner", "casual", "strong", "master"])
def test_a_bot_answers_every_move_until_the_game_ends(
    alice: Any, strength: str, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            viewer(alice), {"mode": "parlor", "players": 2, "seats": [f"bot:{strength}"]}
        )
    game = Game.objects.get(pk=game.pk)
    bot_moves = 0
    for _ in range(200):
        game.refresh_from_db()
        if game.status == "finished":
            break
        state = state_from_record(game.state)
        assert state.turn == 0, "after every move of alice's, the bot has already moved"
        with django_capture_on_commit_callbacks(execute=True):
            services.act(
                game.public_id,
                viewer(alice),
                "resign" if state.turn_number > 120 else "draw",
                {"expected_seq": game.seq, "key": key()},
            )
        bot_moves += 1
    game.refresh_from_db()
    kinds = set(game.events.filter(payload__seat=1).values_list("kind", flat=True))
    assert kinds & {"TilesPlayed", "TileDrawn"}
    assert bot_moves > 1
