"""A real Celery worker with beat: timeouts land once, also after the worker is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Game

from .conftest import viewer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def worker_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    name = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite":
        env["RUMMI_SQLITE_PATH"] = name
    else:
        db = connection.settings_dict
        env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{name}"
    env["RUMMI_CELERY_DIR"] = str(tmp_path / "broker")
    if env.get("REDIS_URL"):
        env["REDIS_URL"] = own_redis_database(env["REDIS_URL"])
    env["RUMMI_RESTART_GRACE"] = "1"
    return env


def own_redis_database(url: str) -> str:
    """``url`` on a Redis database of this test process's own (8 + the xdist worker's number).

    The workers of tests running side by side in other processes would otherwise share the
    broker's queue: each could take the other's tasks (a sweep, a bot turn) and run them
    against its own test database.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    number = 8 + int(worker.removeprefix("gw") or 0)
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{number}"))


def start_worker(tmp_path: Path) -> subprocess.Popen[bytes]:
    log = open(tmp_path / "worker.log", "ab")  # noqa: SIM115 (closed with the process)
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "rummi_site",
            "worker",
            "-B",
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--schedule",
            str(tmp_path / "beat-schedule"),
        ],
        cwd=ROOT,
        env=worker_env(tmp_path),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_for(count: int, game: Game, seconds: float) -> int:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = game.events.filter(kind="TurnTimedOut").count()
        if found >= count:
            return found
        time.sleep(0.2)
    return game.events.filter(kind="TurnTimedOut").count()


def test_timeouts_land_once_across_a_killed_worker(alice: Any, bob: Any, tmp_path: Path) -> None:
    game = services.create_game(viewer(alice), {"mode": "blitz", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=2))
    worker = start_worker(tmp_path)
    try:
        assert wait_for(1, game, 30) == 1, (tmp_path / "worker.log").read_text()[-3000:]
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(10)
        # The next turn's clock runs out while no worker is alive.
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=5))
        worker = start_worker(tmp_path)
        assert wait_for(2, game, 30) == 2, (tmp_path / "worker.log").read_text()[-3000:]
        time.sleep(3)  # several more sweeps: nothing else may happen
        assert game.events.filter(kind="TurnTimedOut").count() == 2
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(10)
