"""Drive the clock benchmark in its own process (own database and broker): see bench_clocks."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from statistics import quantiles

import django

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], q: int) -> float:
    return quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def main() -> None:
    games_count, clock, run_for = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from games import services
    from games.identity import Identity
    from games.models import Game, GameEvent
    from games.tasks import CLOCK_LOOKAHEAD

    call_command("migrate", verbosity=0)
    users = [get_user_model().objects.create_user(f"p{n}", password="x") for n in range(2)]
    gids = []
    for _ in range(games_count):
        game = services.create_game(
            Identity(user_id=users[0].pk, name="p0"), {"mode": "blitz", "players": 2}
        )
        services.join_game(
            Identity(user_id=users[1].pk, name="p1"), game.seats.get(index=1).invite_token
        )
        gids.append(game.public_id)
    # The worker (with beat) runs before the clocks start, as on a live site: the bench
    # measures timeouts, not how long a worker takes to boot. It logs at INFO, as `make run`
    # does, and says "ready." once it consumes.
    folder = Path(os.environ["RUMMI_CELERY_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "worker.log"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "rummi_site", "worker", "-B",
         "--concurrency", "2", "--loglevel", "INFO", "--logfile", str(log),
         "--schedule", str(folder / "beat-schedule")],
        cwd=ROOT, env=dict(os.environ, RUMMI_RESTART_GRACE="0"), start_new_session=True,
    )  # fmt: skip
    booted = time.monotonic() + 60
    while not (log.exists() and " ready." in log.read_text()):
        if worker.poll() is not None:
            raise SystemExit(f"clocks bench: the Celery worker exited; see {log}")
        if time.monotonic() > booted:
            os.killpg(worker.pid, signal.SIGKILL)
            raise SystemExit("clocks bench: the Celery worker was not ready within 60 s")
        time.sleep(0.1)
    # Clocks shortened for the bench, deadlines spread evenly over one clock. The first comes
    # after the sweeper's lookahead, as every turn's does on a live site (a move sets the
    # clock 30 s or more ahead): a deadline nearer than that would be one no sweep saw coming.
    Game.objects.filter(public_id__in=gids).update(clock_seconds=int(clock))
    now = timezone.now()
    first_deadline = {}
    lead = CLOCK_LOOKAHEAD.total_seconds()
    for n, gid in enumerate(gids):
        deadline = now + timedelta(seconds=lead + clock * n / games_count)
        Game.objects.filter(public_id=gid).update(deadline=deadline)
        first_deadline[gid] = deadline
    # No task is queued here: as for every live turn, the beat sweeper queues each timeout
    # in the seconds before its deadline (games/tasks.py, CLOCK_LOOKAHEAD).
    try:
        time.sleep(run_for)
        ended = timezone.now()
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:
            # A warm shutdown hands its held ETA tasks back to the broker, which can take
            # longer than the bench cares to wait; what was applied is in the database.
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(30)
    lateness = []
    pending = 0
    for gid in gids:
        events = list(GameEvent.objects.filter(game__public_id=gid).order_by("seq"))
        deadline = first_deadline[gid]
        for event in events[2:]:
            lateness.append((event.created - deadline).total_seconds())
            deadline = event.created + timedelta(seconds=clock)
        if deadline + services.TIMEOUT_GRACE + timedelta(seconds=0.5) < ended:
            pending += 1  # due but not applied when the run ended: counted as late as that
            lateness.append((ended - deadline).total_seconds())
    print(
        json.dumps(
            {
                "games": games_count,
                "clock_s": clock,
                "run_s": run_for,
                "timeouts": len(lateness) - pending,
                "due_but_not_applied": pending,
                "lateness_p50_s": round(percentile(lateness, 50), 3),
                "lateness_p99_s": round(percentile(lateness, 99), 3),
                "lateness_max_s": round(max(lateness), 3),
                "timeout_grace_s": services.TIMEOUT_GRACE.total_seconds(),
            }
        )
    )


if __name__ == "__main__":
    main()
