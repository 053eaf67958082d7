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


def test_a_change_made_while_the_bot_thinks_stands_and_its_stale_choice_is_dropped(
    alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot chooses with the game unlocked; what moved the game on meanwhile wins."""
    from games.engine import bots

    game = services.create_game(
        viewer(alice), {"mode": "parlor", "players": 2, "seats": ["bot:strong"]}
    )
    game = Game.objects.get(pk=game.pk)
    if state_from_record(game.state).turn == 0:  # on-commit work is not run: the bot waits
        services.act(
            game.public_id, viewer(alice), "draw", {"expected_seq": game.seq, "key": key()}
        )
        game.refresh_from_db()
    state = state_from_record(game.state)
    assert state.turn == 1
    choose = bots.choose_action
    thought: list[Any] = []

    def resign_while_thinking(view: Any, rng: Any, strength: str) -> Any:
        fresh = Game.objects.get(pk=game.pk)
        services.act(
            fresh.public_id, viewer(alice), "resign", {"expected_seq": fresh.seq, "key": key()}
        )
        thought.append(choose(view, rng, strength))
        return thought[-1]

    monkeypatch.setattr(bots, "choose_action", resign_while_thinking)
    seq = game.seq
    assert services.play_bot_turn(game.public_id, state.turn_number) is False
    game.refresh_from_db()
    assert thought, "the bot did think"
    assert game.status == "finished"
    kinds = list(game.events.filter(seq__gt=seq).order_by("seq").values_list("kind", flat=True))
    assert kinds[0] == "PlayerResigned"
    assert not {"TilesPlayed", "TileDrawn"} & set(kinds), "the bot's stale choice was dropped"


def test_a_bot_whose_turn_outlives_a_change_made_while_it_thought_still_moves(
    alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another seat resigning while the bot thinks leaves it to move: it must not stall."""
    from games.engine import bots

    game = services.create_game(
        viewer(alice), {"mode": "parlor", "players": 3, "seats": ["bot:strong", "bot:strong"]}
    )
    game = Game.objects.get(pk=game.pk)
    if state_from_record(game.state).turn == 0:
        services.act(
            game.public_id, viewer(alice), "draw", {"expected_seq": game.seq, "key": key()}
        )
        game.refresh_from_db()
    state = state_from_record(game.state)
    assert state.turn != 0
    choose = bots.choose_action
    resigned: list[int] = []

    def resign_once_while_thinking(view: Any, rng: Any, strength: str) -> Any:
        if not resigned:
            fresh = Game.objects.get(pk=game.pk)
            services.act(
                fresh.public_id, viewer(alice), "resign", {"expected_seq": fresh.seq, "key": key()}
            )
            resigned.append(fresh.seq)
        return choose(view, rng, strength)

    monkeypatch.setattr(bots, "choose_action", resign_once_while_thinking)
    assert services.play_bot_turn(game.public_id, state.turn_number) is True
    game.refresh_from_db()
    events = list(game.events.filter(seq__gt=resigned[0]).order_by("seq"))
    assert events[0].kind == "PlayerResigned"
    assert events[1].kind in {"TilesPlayed", "TileDrawn"}
    assert events[1].payload["seat"] == state.turn


def test_bots_of_one_strength_at_a_table_are_told_apart(alice: Any) -> None:
    """Two strong bots at a table are "Strong bot 1" and "Strong bot 2" (the move list and the
    standings must say which one played); a bot alone of its strength keeps its plain name."""
    game = services.create_game(
        viewer(alice),
        {"mode": "parlor", "players": 4, "seats": ["bot:strong", "bot:casual", "bot:strong"]},
    )
    names = list(game.seats.order_by("index").values_list("name", flat=True))
    assert names == ["alice", "Strong bot 1", "Casual bot", "Strong bot 2"]
