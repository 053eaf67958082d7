"""The tournaments benchmark's own process (benchmarks/bench_tournaments.py runs it): a fresh
SQLite database with a running 500-player arena at tables of 4, every player seated; then
tables are ended one at a time and the time from a table's game ending to its players sitting
at a new table is measured (the issue's target: within 1 s).

Prints one JSON object on stdout.
"""

from __future__ import annotations

import json
import os
import statistics
import time

import django

PLAYERS = 500
TABLE_SIZE = 4
RUNS = int(os.environ.get("BENCH_RUNS", "10"))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games import services as games
    from tournaments import services
    from tournaments.management.commands.simulatetournament import tasks_in_process
    from tournaments.models import Table, TableSeat, Tournament

    call_command("migrate", verbosity=0)
    with tasks_in_process():  # bots wait: only the seating is timed
        t = Tournament.objects.create(
            name="Bench arena",
            format="arena",
            mode="lan",
            table_size=TABLE_SIZE,
            duration_minutes=600,
            starts_at=timezone.now(),
            clock_seconds=60,
        )
        Tournament.objects.filter(pk=t.pk).update(state="running", started=timezone.now())
        strengths = ("beginner", "casual", "strong")
        t.refresh_from_db()
        for i in range(PLAYERS):
            services.add_player(None, t, bot=strengths[i % 3])
        started = time.perf_counter()
        services.seat_arena(t.pk)
        first_seating = time.perf_counter() - started
        seated = TableSeat.objects.filter(table__round__tournament=t).count()
        timings, queries = [], []
        for table in list(Table.objects.filter(round__tournament=t).order_by("number")[:RUNS]):
            before = Table.objects.filter(round__tournament=t).count()
            games.end_game(table.game.public_id, "bench: the table ends")
            with CaptureQueriesContext(connection) as captured:
                began = time.perf_counter()
                services.table_finished(table.game.public_id)
                timings.append(time.perf_counter() - began)
            queries.append(len(captured))
            assert Table.objects.filter(round__tournament=t).count() == before + 1
    print(
        json.dumps(
            {
                "players": PLAYERS,
                "table_size": TABLE_SIZE,
                "first_seating_s": round(first_seating, 3),
                "seated": seated,
                "reseat_median_ms": round(statistics.median(timings) * 1000, 1),
                "reseat_max_ms": round(max(timings) * 1000, 1),
                "reseat_queries_max": max(queries),
                "target_ms": 1000,
                "met": max(timings) < 1.0,
            }
        )
    )


if __name__ == "__main__":
    main()
