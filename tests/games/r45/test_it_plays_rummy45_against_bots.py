"""A Rummy 45 game against bots runs to its end through the site's services: bots play their
whole turns, the person's actions go through ``act``, result rows are written."""

from __future__ import annotations

import random
from typing import Any

from games import services
from games.engine.r45 import bots
from games.models import Game, GameResult, Status

from ..conftest import key, viewer


def play_out(game: Game, user: Any, capture: Any, strength: str = "hard") -> Game:
    """Play alice's seat with a bot of ``strength`` through ``services.act`` until the end."""
    me = viewer(user)
    for step in range(3000):
        game.refresh_from_db()
        if game.status == Status.FINISHED:
            return game
        summary = services.game_summary(game, me)
        view = summary["view"]
        assert view["seat"] == 0
        if 0 not in view["to_act"]:
            continue
        action = bots.choose_action(view, random.Random(step), strength)
        body = {k: list(v) if isinstance(v, tuple) else v for k, v in _fields(action).items()}
        body.update(action=type(action).__name__, key=key(), expected_seq=summary["seq"])
        with capture(execute=True):
            services.act(game.public_id, me, "r45", body)
    raise AssertionError(f"the game did not end: {game.state}")


def _fields(action: Any) -> dict[str, Any]:
    return {name: getattr(action, name) for name in action.__dataclass_fields__ if name != "seat"}


def test_it_plays_a_game_against_bots_to_its_end(
    r45_bots: Game, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = play_out(r45_bots, alice, django_capture_on_commit_callbacks)
    rows = list(GameResult.objects.filter(game=game).order_by("seat"))
    assert [r.seat for r in rows] == [0, 1, 2]
    state = game.state
    assert state is not None and state["phase"] == "over"
    assert [r.total for r in rows] == state["scores"]
    best = max(state["scores"])
    assert [r.place == 1 for r in rows] == [s == best for s in state["scores"]]
    assert game.review == []  # no Rummikub review is queued for this family
