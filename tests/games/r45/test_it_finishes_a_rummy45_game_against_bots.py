"""A Rummy 45 game against bots runs to its end through the site's services: the bots play
every action due from their seats, the person's actions go through ``act``, and the end writes
one result row per seat and sends ``game_finished``."""

from __future__ import annotations

from typing import Any

from games import services, signals
from games.models import Game, GameResult, Status
from games.services import bots as bot_services

from .conftest import play_out


def test_it_plays_a_game_against_bots_to_its_end(
    r45_bots: Game, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    finished: list[Any] = []

    def heard(sender: Any, gid: str, results: Any, **kwargs: Any) -> None:
        finished.append((gid, [r.seat for r in results]))

    signals.game_finished.connect(heard, dispatch_uid="test-r45-finished")
    try:
        game = play_out(r45_bots, alice, django_capture_on_commit_callbacks)
    finally:
        signals.game_finished.disconnect(dispatch_uid="test-r45-finished")
    rows = list(GameResult.objects.filter(game=game).order_by("seat"))
    assert [r.seat for r in rows] == [0, 1, 2]
    state = game.state
    assert state is not None and state["phase"] == "over"
    assert [r.total for r in rows] == state["scores"]
    best = max(state["scores"])
    assert [r.place == 1 for r in rows] == [s == best for s in state["scores"]]
    assert [r.went_out for r in rows] == [s == state["winner"] for s in range(3)]
    assert [r.tiles_left for r in rows] == [len(rack) for rack in state["racks"]]
    assert finished == [(game.public_id, [0, 1, 2])]
    assert game.review == []  # the Rummikub solver's review is not made for this family


def test_a_table_of_bots_alone_plays_on_past_one_runs_limit(
    monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A tournament's table of bots: a run that reaches its limit hands the rest to a fresh
    task (here, eager, a nested one) instead of waiting for the sweeper. The limit is one action,
    so every turn of two actions or more reaches it."""
    monkeypatch.setattr(bot_services, "MAX_BOT_ACTIONS", 1)
    woken: list[str] = []
    wake = bot_services._wake_bots

    def counted(gid: str) -> None:
        woken.append(gid)
        wake(gid)

    monkeypatch.setattr(bot_services, "_wake_bots", counted)
    seats = [{"bot": "strong"}, {"bot": "casual"}]
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_seated_game({"mode": "r45", "clock": 60}, seats)

    game.refresh_from_db()
    # The limit was reached (a fresh task was asked for) and the game still went to its end.
    assert woken and set(woken) == {game.public_id}
    assert game.status == Status.FINISHED
    assert GameResult.objects.filter(game=game).count() == 2
