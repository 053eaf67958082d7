"""Background work that survives crashes (issue 17): lost bot turns are swept up by turn
number, reviews are asked for by compare-and-set, tasks have time limits, and a real worker
killed while a bot turn is queued plays that turn once after its restart."""

from __future__ import annotations

import os
import re
import signal
import time
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings as django_settings
from django.utils import timezone

from games import services, tasks
from games.engine import bots
from games.models import Game, GameEvent, Status
from rummi_site.celery import app as celery_app

from .conftest import key, viewer
from .test_it_runs_clocks_on_a_real_worker import start_worker

pytestmark = pytest.mark.django_db(transaction=True)
BOT_MOVES = ("TilesPlayed", "TileDrawn", "Passed")


def bot_game(alice: Any, monkeypatch: pytest.MonkeyPatch, mode: str = "sandbox") -> Game:
    """A game against a bot whose bot turn was queued and lost (no task ever runs)."""
    monkeypatch.setattr(tasks.bot_turn, "apply_async", lambda *a, **k: None)
    game = services.create_game(
        viewer(alice), {"mode": mode, "players": 2, "seats": ["bot:casual"]}
    )
    game.refresh_from_db()
    if game.state["turn"] == 0:
        services.act(
            game.public_id, viewer(alice), "draw", {"expected_seq": game.seq, "key": key()}
        )
        game.refresh_from_db()
    assert game.state["turn"] == 1
    return game


def age(game: Game, seconds: float) -> None:
    """As if the game's last event had been written ``seconds`` ago."""
    then = timezone.now() - timedelta(seconds=seconds)
    GameEvent.objects.filter(game=game).update(created=then)
    Game.objects.filter(pk=game.pk).update(moved=then)


def test_a_bot_turn_whose_task_was_lost_is_found_by_its_turn_number(
    alice: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.RUMMI_BOT_PAUSE = 1.0
    game = bot_game(alice, monkeypatch)
    assert services.due_bot_turns() == []  # still within its pause and grace
    age(game, 10)

    assert services.due_bot_turns() == [(game.public_id, game.turn_number)]
    monkeypatch.undo()
    assert tasks.sweep_bot_turns() == 1

    game.refresh_from_db()
    assert game.state["turn"] == 0 and services.due_bot_turns() == []
    # A second copy of the lost task, run late, changes nothing: keyed on the turn number.
    assert services.play_bot_turn(game.public_id, game.turn_number - 1) is False


def test_a_bot_out_of_time_to_think_draws(alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game = bot_game(alice, monkeypatch)

    def too_slow(*args: Any, **kwargs: Any) -> Any:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(bots, "choose_action", too_slow)
    assert tasks.bot_turn.run(game.public_id, game.turn_number) is True

    game.refresh_from_db()
    assert game.events.order_by("-seq").first().kind in ("TileDrawn", "Passed")
    assert game.state["turn"] == 0


def test_every_task_has_time_limits_and_late_acks() -> None:
    assert django_settings.CELERY_TASK_ACKS_LATE is True
    assert django_settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True
    names = [name for name in celery_app.tasks if name.startswith(("games.", "puzzles."))]
    assert len(names) >= 8
    for name in names:
        task = celery_app.tasks[name]
        assert task.soft_time_limit and task.time_limit, name
        assert task.soft_time_limit < task.time_limit, name


def test_a_review_is_claimed_once_and_a_get_never_asks(
    duel: Game, alice: Any, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued: list[str] = []
    # The task itself is replaced (not its bound ``delay``: Celery's task proxy may hand out
    # another object), so what queue_review sends is recorded instead of run.
    monkeypatch.setattr(tasks, "review_game", SimpleNamespace(delay=queued.append))
    services.act(duel.public_id, viewer(alice), "resign", {"expected_seq": duel.seq, "key": key()})
    assert queued == [duel.public_id]  # the game_finished receiver won the claim

    assert services.request_review(duel.public_id) is False
    for _ in range(3):
        assert client.get(f"/g/{duel.public_id}/replay/").status_code == 200
    assert queued == [duel.public_id]
    # Lost: asked for long ago, never made. The sweep asks again, once.
    Game.objects.filter(pk=duel.pk).update(review_requested=timezone.now() - timedelta(hours=1))
    assert tasks.sweep_reviews() == 1 and tasks.sweep_reviews() == 0
    assert queued == [duel.public_id] * 2


@pytest.mark.slow
def test_a_killed_worker_loses_no_bot_turn(
    alice: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker times out the person, queues the bot's move with its pause, and is killed
    before it runs; restarted, it plays the bot's turn once, within a sweep and 2 s."""
    game = services.create_game(
        viewer(alice), {"mode": "blitz", "players": 2, "seats": ["bot:casual"]}
    )
    game.refresh_from_db()
    assert game.state["turn"] == 0  # the bot, if it started, moved in this process (eager)
    monkeypatch.setenv("RUMMI_BOT_PAUSE", "4")
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    worker = start_worker(tmp_path)
    log = tmp_path / "worker.log"
    try:
        end = time.monotonic() + 60
        while not game.events.filter(kind="TurnTimedOut").exists():
            assert time.monotonic() < end, log.read_text()[-3000:]
            time.sleep(0.05)
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(10)
        seq = Game.objects.get(pk=game.pk).seq
        assert not game.events.filter(seq__gt=seq).exists()  # the bot had not moved
        time.sleep(8)  # down for longer than the bot's pause and grace
        assert Game.objects.get(pk=game.pk).seq == seq
        before = log.read_text().count("ready.")
        worker = start_worker(tmp_path)
        while log.read_text().count("ready.") == before:
            assert time.monotonic() < end + 60, log.read_text()[-3000:]
            time.sleep(0.05)
        ready = timezone.now()
        while not game.events.filter(seq__gt=seq, kind__in=BOT_MOVES).exists():
            assert timezone.now() - ready < timedelta(seconds=30), log.read_text()[-3000:]
            time.sleep(0.05)
        moved = game.events.get(seq__gt=seq, kind__in=BOT_MOVES)
        recovery = (moved.created - ready).total_seconds()
        print(f"bot turn recovered {recovery:.2f} s after the restarted worker was ready")
        time.sleep(4)  # more sweeps: the turn is not played twice
        assert game.events.filter(seq__gt=seq, kind__in=BOT_MOVES).count() == 1
        assert recovery <= django_settings.CELERY_BEAT_SCHEDULE["sweep-bot-turns"]["schedule"] + 2
        assert re.search(r"queued 1 lost bot turns again", log.read_text()), log.read_text()[-4000:]
        assert Game.objects.get(pk=game.pk).status == Status.PLAYING
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(10)
