"""Redis restarted while the Celery workers hold tasks: every worker stays up, and the work runs.

The production layout's back end on PostgreSQL and a redis-server of the test's own: one web
process, two workers of two prefork processes each (as production runs them) and beat. Before
Redis is killed, one worker runs a slow task (``faults.hold``, tests/faults/fault_tasks.py)
and a bot's turn waits in a worker for its pause (a task with a countdown, held unacknowledged
until then). kombu 5.7 made such a worker exit when the connection broke ("Restoring 1
unacknowledged message(s)", then "Unrecoverable error: AttributeError("'NoneType' object has no
attribute 'hostname'")"; rummi_site/celery.py says why). Here, after Redis is back: no worker
exits, the slow task finishes (its ack is lost with the old connection, and nothing breaks),
the bot's turn is played (its held task died with Redis's memory; beat's bot-turn sweep queues
it again), and a task sent afterwards runs.
"""

from __future__ import annotations

import signal
import time
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from celery import Celery

from games import services
from games.engine.state import state_from_record
from games.models import Game

from .helpers import (
    Player,
    assert_log_is_true,
    guest,
    move,
    needs_postgres_and_redis,
    servers,
    site_env,
    wait_for_log,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, needs_postgres_and_redis]
BOT_PAUSE = "4"  # seconds a bot turn's task waits in a worker: the window to kill Redis in
RECOVER_S = 15.0  # from Redis answering again to the bot's move


def wait_until(check: Any, seconds: float, what: str, logs: Any) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} within {seconds} s\n{logs()}")


def test_workers_holding_tasks_outlive_a_redis_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # This process queues nothing (its broker is not the test's Redis): a bot turn the new
    # game asks for here is left to beat's sweep, as one lost with a dead worker would be.
    from games import tasks

    monkeypatch.setattr(tasks, "bot_turn", SimpleNamespace(apply_async=lambda *a, **k: None))
    flags = tmp_path / "flags"
    flags.mkdir()
    with servers(tmp_path) as running:
        redis = running.redis()
        env = {**site_env(tmp_path, redis.url), "RUMMI_BOT_PAUSE": BOT_PAUSE}
        web = running.daphne("web", env)
        workers = [
            running.worker(f"worker{n}", env, concurrency=2, app="fault_tasks") for n in (1, 2)
        ]
        beat = running.beat(env)
        for worker in workers:
            wait_for_log(worker, " ready.")
        sender = Celery("faults-sender", broker=redis.url, set_as_current=False)

        def runs(name: str) -> list[str]:
            path = flags / f"{name}.runs"
            return path.read_text().split()[::2] if path.exists() else []

        session, identity = guest("Fault host")
        human = Player(0, session, identity)
        game = services.create_game(
            identity, {"mode": "parlor", "players": 2, "seats": ["bot:beginner"]}
        )
        gid = game.public_id

        def state() -> Any:
            return state_from_record(Game.objects.get(pk=game.pk).state)

        wait_until(lambda: state().turn == 0, 30, "the human's turn", running.logs)

        # A slow task running in one worker...
        sender.send_task("faults.hold", args=[str(flags), "slow"])
        wait_until(lambda: runs("slow") == ["start"], 30, "the slow task started", running.logs)
        # ...and the bot's next turn held in one for its pause.
        seq = Game.objects.get(pk=game.pk).seq
        made = move(web.port, gid, human, seq)
        assert made.status == 200, (made, running.logs())
        bot_turn = state().turn_number

        def received_bot_turns() -> int:
            return sum(
                w.log.read_text(errors="replace").count("games.tasks.bot_turn[") for w in workers
            )

        wait_until(lambda: received_bot_turns() > 0, 10, "a worker took the bot turn", running.logs)
        assert state().turn_number == bot_turn, "the bot moved before Redis went"

        redis.server.kill(signal.SIGKILL)
        time.sleep(0.5)  # the workers notice: their BRPOP connection broke
        redis.server.start()
        redis.wait_up()
        back = time.monotonic()
        (flags / "slow.release").touch()

        wait_until(
            lambda: state().turn_number > bot_turn, RECOVER_S, "the bot's turn played", running.logs
        )
        recovered = time.monotonic() - back
        wait_until(
            lambda: runs("slow") == ["start", "end"], 30, "the slow task ended", running.logs
        )

        # The workers consume again: a task sent now runs, once.
        name = f"after-{uuid.uuid4().hex[:8]}"
        (flags / f"{name}.release").touch()
        sender.send_task("faults.hold", args=[str(flags), name])
        wait_until(lambda: runs(name) == ["start", "end"], 30, "a new task ran", running.logs)

        for worker in workers:
            text = worker.log.read_text(errors="replace")
            assert worker.alive(), worker.tail()
            assert "Unrecoverable error" not in text, worker.tail()
        assert beat.alive(), beat.tail()
        restored = sum(
            "unacknowledged message(s)" in w.log.read_text(errors="replace") for w in workers
        )
        print(
            f"\nredis restart with tasks held: the bot moved {recovered:.2f} s after Redis was "
            f"back; workers that had messages to hand back: {restored}; slow task runs "
            f"{runs('slow')}"
        )
    assert_log_is_true(gid)
