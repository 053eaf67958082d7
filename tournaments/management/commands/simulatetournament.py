"""``manage.py simulatetournament``: a whole tournament of bots through the real services.

Every table is a real game, created, played (the bots' Celery tasks run in this process, in
the order they are queued) and scored by the same code as on the site, so the JSON it prints
is what the tournament's page and downloads would show. It plays in the database it is given:
run it on a scratch database (``RUMMI_SQLITE_PATH``) to leave the site's own untouched.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from celery.app.task import Task
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.modes import BOT_STRENGTHS

from ... import services
from ...models import Format, Table, Tournament
from ...views import pairing_rows, standing_rows

MIXED = ("beginner", "casual", "strong")  # master bots think for seconds a move
MAX_TASKS = 2_000_000
# Bots never run out of time here (a clock would only wait), and post-game reviews are for
# people reading replays: neither changes a tournament.
SKIPPED = ("turn_timeout", "review_game", "queue_review")


@contextmanager
def tasks_in_process() -> Iterator[deque[tuple[Task, tuple[Any, ...], dict[str, Any]]]]:
    """Celery tasks run here, one after another in the order queued (a trampoline, not the
    nested calls of ``task_always_eager``, which a game of bots would nest hundreds deep)."""
    queue: deque[tuple[Task, tuple[Any, ...], dict[str, Any]]] = deque()
    original = Task.apply_async

    def enqueue(self: Task, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        queue.append((self, tuple(args or ()), dict(kwargs or {})))

    Task.apply_async = enqueue  # type: ignore[method-assign]
    try:
        yield queue
    finally:
        Task.apply_async = original  # type: ignore[method-assign]


def drain(queue: deque[tuple[Task, tuple[Any, ...], dict[str, Any]]], after: Any = None) -> int:
    ran = 0
    while queue:
        if after is not None:
            after()
        task, args, kwargs = queue.popleft()
        if task.name.endswith(SKIPPED):
            continue
        task.run(*args, **kwargs)
        ran += 1
        if ran > MAX_TASKS:
            raise CommandError("the tournament did not finish (too many tasks)")
    return ran


class Command(BaseCommand):
    help = "Play a whole tournament of bots of mixed strengths and print it as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=[f.value for f in Format], default="swiss")
        parser.add_argument("--players", type=int, default=8)
        parser.add_argument("--table-size", type=int, choices=(2, 3, 4), default=4)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--minutes", type=int, default=10, help="an arena's length")
        parser.add_argument("--seed", default="1")
        parser.add_argument("--mode", default="lan", help="the tables' game mode")
        parser.add_argument("--json", action="store_true", help="print JSON (the default)")

    def handle(self, *args: Any, **options: Any) -> None:
        players, size = options["players"], options["table_size"]
        if not 2 <= players <= 2000:
            raise CommandError("--players is 2 to 2000")
        if players < size:
            raise CommandError(f"--players must be at least the table size ({size})")
        if not 1 <= options["rounds"] <= 50:
            raise CommandError("--rounds is 1 to 50")
        executor = MigrationExecutor(connection)
        if executor.migration_plan(executor.loader.graph.leaf_nodes()):
            raise CommandError("the database is not migrated: run manage.py migrate first")
        rng = random.Random(f"simulate:{options['seed']}")
        fmt = options["format"]
        t = Tournament(
            name=f"Simulated {fmt} {options['seed']}",
            format=fmt,
            mode=options["mode"],
            table_size=size,
            rounds=options["rounds"] if fmt in (Format.SWISS, Format.DUPLICATE) else None,
            duration_minutes=options["minutes"] if fmt == Format.ARENA else None,
            starts_at=timezone.now(),
            clock_seconds=60,
        )
        try:
            services.check(t)
        except Exception as error:
            raise CommandError(getattr(error, "message", str(error))) from None
        t.seed = hashlib.sha256(f"tournament:{options['seed']}".encode()).hexdigest()
        settings.RUMMI_BOT_PAUSE = 0
        with tasks_in_process() as queue:
            t.save()
            for _ in range(players):
                services.add_player(None, t, bot=rng.choice(MIXED))
            services.start(None, t.pk)
            drain(queue, arena_clock(t, options["rounds"]) if fmt == Format.ARENA else None)
            services.advance(t.pk)
            drain(queue)
            t.refresh_from_db()
        if t.state != "finished":
            raise CommandError(f"the tournament stopped {t.state} before its end")
        self.stdout.write(json.dumps(summary(t), separators=(",", ":")))


def arena_clock(t: Tournament, rounds: int) -> Any:
    """An arena's time, simulated: it runs until about ``rounds`` tables per player's share
    have been seated, then its time is up (no new table; those playing finish)."""
    tables = rounds * max(1, t.entries.count() // t.table_size)

    def tick() -> None:
        made = Table.objects.filter(round__tournament=t).count()
        if made >= tables:
            ended = timezone.now() - timedelta(minutes=(t.duration_minutes or 0) + 1)
            Tournament.objects.filter(pk=t.pk, started__gt=ended).update(started=ended)

    return tick


def summary(t: Tournament) -> dict[str, Any]:
    rounds = []
    for rnd in pairing_rows(t):
        rounds.append(
            {
                "round": rnd["round"],
                "tables": [
                    {
                        "players": table["players"],
                        "game": table["game"],
                        "places": table["places"],
                        "points": table["points"],
                        "commitment": table["commitment"],
                    }
                    for table in rnd["tables"]
                ],
                "byes": rnd["byes"],
                "bye_points": rnd["bye_points"][0] if rnd["bye_points"] else 0,
            }
        )
    return {
        "format": t.format,
        "rounds": rounds,
        "standings": [
            {
                "rank": r["rank"],
                "player": r["player"],
                "points": r["points"],
                "tiebreaks": r["tiebreaks"],
            }
            for r in standing_rows(t)
        ],
    }


assert set(MIXED) <= set(BOT_STRENGTHS)
