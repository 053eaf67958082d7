"""Time beat's sweeps over N running games (run by benchmarks/bench_sweeps.py in its own process,
on the database of DATABASE_URL): prints one JSON line.

Beat runs these every few seconds whatever the number of games, so each must cost a fixed number
of queries and stay well under its period: the clock sweep's ``due_timeouts`` and
``upcoming_timeouts`` (1 s), the bot sweep's ``due_bot_turns`` and ``due_stand_ins`` (2 s) and
the tournaments' ``tick`` (5 s). The games are copies of four real ones made through the
services (a live table of people, a table with a bot, a tournament table with stand-ins, a
correspondence game), a few of each with their turn due; a tenth of the games sit at tournament
tables, ten to a running Swiss.

Usage: python -m benchmarks.sweeps_driver N [N ...]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from datetime import timedelta
from typing import Any

REPEATS = 5


def main(sizes: list[int]) -> dict[str, Any]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games import services, signals
    from games.models import Game, GameEvent, Seat, Status
    from tournaments import services as tournaments
    from tournaments.models import Round, Table, Tournament

    call_command("migrate", verbosity=0)
    # Nothing queued: the sweeps are measured finding work, not doing it.
    for signal in (signals.turn_started, signals.game_started, signals.events_committed):
        signal.receivers.clear()
    signals.turn_started.sender_receivers_cache.clear()

    users = [get_user_model().objects.get_or_create(username=f"sweeper{n}")[0] for n in range(4)]
    people = [{"user_id": u.pk, "name": u.username} for u in users]
    templates = [
        services.create_seated_game({"mode": "parlor", "clock": 60}, people),
        services.create_seated_game(
            {"mode": "parlor", "clock": 60}, [{"bot": "casual"}, *people[1:]]
        ),
        services.create_seated_game({"mode": "parlor", "clock": 60}, people, stand_in=True),
        services.create_seated_game({"mode": "parlor", "days": 3}, people),
    ]

    def wipe() -> None:
        Tournament.objects.filter(name__startswith="Sweep bench").delete()
        Game.objects.exclude(pk__in=[t.pk for t in templates]).filter(
            seats__user__username__startswith="sweeper"
        ).delete()

    def grow(total: int) -> None:
        """Copies of the templates (events: the last one only), a quarter of ``total`` each."""
        now = timezone.now()
        for kind, template in enumerate(templates):
            share = total // len(templates) + (total % len(templates) if kind == 0 else 0)
            for chunk in range(0, share, 500):
                copy(kind, template, min(500, share - chunk), now)

    def copy(kind: int, template: Any, count: int, now: Any) -> None:
        turn = template.state["turn"]
        games = []
        for n in range(count):
            game = Game.objects.get(pk=template.pk)
            game.pk = None
            game.public_id = Game._meta.get_field("public_id").default()
            due = n % 50 == 0  # 2% of each kind have their turn (or their stand-in) due
            if kind == 3:
                game.deadline = now + timedelta(days=-1 if due else 2)
            else:
                game.deadline = now + timedelta(seconds=-30 if due else 30 + n % 60)
            game.started = now - timedelta(minutes=5 if due else 0)
            # The due ones' last move was a while ago (the event writer's column; the copies
            # keep the template's acting seats and stand-in seat). The others' is ahead, so that
            # the seconds spent making 5,000 games do not make early copies due.
            game.moved = now + timedelta(seconds=-90 if due else 600)
            games.append(game)
        made = Game.objects.bulk_create(games)
        seats = list(Seat.objects.filter(game=template))
        rows = []
        for game in made:
            for seat in seats:
                fields = _fields(seat)
                if kind == 1:  # the bot sits where the turn is
                    bot = seat.index == turn
                    fields.update(
                        kind="bot" if bot else "human",
                        bot_strength="casual" if bot else "",
                        user_id=None if bot else users[seat.index].pk,
                    )
                rows.append(Seat(**fields, game_id=game.pk))
        Seat.objects.bulk_create(rows)
        last = GameEvent.objects.filter(game=template).order_by("-seq").first()
        assert last is not None
        GameEvent.objects.bulk_create(
            GameEvent(game_id=g.pk, seq=g.seq, kind=last.kind, payload=last.payload) for g in made
        )
        # The due ones' last move was a while ago (``created`` is set on insert, so after it).
        due = [g.pk for n, g in enumerate(made) if n % 50 == 0]
        GameEvent.objects.filter(game_id__in=due).update(created=now - timedelta(seconds=90))
        if kind == 2:  # tournament tables: ten to a running Swiss
            for start in range(0, len(made), 10):
                t = Tournament.objects.create(
                    name=f"Sweep bench {made[start].pk}",
                    mode="parlor",
                    state="running",
                    table_size=4,
                    rounds=3,
                    starts_at=now,
                    clock_seconds=60,
                )
                rnd = Round.objects.create(tournament=t, number=1)
                Table.objects.bulk_create(
                    Table(round=rnd, number=i + 1, game=g)
                    for i, g in enumerate(made[start : start + 10])
                )

    sweeps = {
        "due_timeouts": lambda: services.due_timeouts(),
        "upcoming_timeouts": lambda: services.upcoming_timeouts(timedelta(seconds=3)),
        "due_bot_turns": lambda: services.due_bot_turns(),
        "due_stand_ins": lambda: services.due_stand_ins(),
        "tournaments_tick": lambda: tournaments.tick(),
    }
    results: dict[str, Any] = {}
    for size in sizes:
        wipe()
        grow(size - len(templates))
        running = Game.objects.filter(status=Status.PLAYING).count()
        row: dict[str, Any] = {"running_games": running}
        for name, sweep in sweeps.items():
            times = []
            with CaptureQueriesContext(connection) as queries:
                found = sweep()
            count = len(queries.captured_queries)
            for _ in range(REPEATS):
                started = time.perf_counter()
                sweep()
                times.append(1000 * (time.perf_counter() - started))
            row[name] = {
                "median_ms": round(statistics.median(times), 1),
                "max_ms": round(max(times), 1),
                "queries": count,
                "found": len(found) if isinstance(found, list) else found,
            }
        results[str(size)] = row
    if not os.environ.get("RUMMI_BENCH_SWEEPS_KEEP"):
        wipe()
    results["database"] = connection.vendor
    return results


def _fields(seat: Any) -> dict[str, Any]:
    """A seat's columns for a copy: a fresh invite token, which is unique."""
    fields = {
        f.attname: getattr(seat, f.attname)
        for f in seat._meta.concrete_fields
        if f.attname not in ("id", "game_id")
    }
    fields["invite_token"] = seat._meta.get_field("invite_token").default()
    return fields


if __name__ == "__main__":
    print(json.dumps(main([int(a) for a in sys.argv[1:]] or [500, 5000])))
