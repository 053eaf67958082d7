"""Create the live benchmark's games: 4-player Parlor tables, every seat a guest with a session.

``manage.py benchsetup --games 250 --output var/bench/live-games.json`` writes
``{"games": [{"gid": ..., "sessions": [4 sessionid cookie values, by seat]}]}``.

The games go through the service like real ones (create, then three joins through invite links),
so their event log and cached state are the ordinary ones. The match target is 1000 points, past
what a Parlor game offers in the form (the service accepts up to 500): a table of four that only
draws then plays thousands of moves before anyone wins, so no game ends during a benchmark.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from games import services
from games.engine.scoring import MatchFormat
from games.identity import GUEST_KEY, GUEST_NAME, Identity
from games.models import ActionReceipt, Game, GameEvent, Seat

BENCH_PREFIX = "Bench "
TARGET = 1000


def guest_session(name: str) -> tuple[str, Identity]:
    """A stored guest session, as the site makes one: its cookie value and the viewer."""
    session = SessionStore()
    session[GUEST_KEY] = secrets.token_urlsafe(24)
    session[GUEST_NAME] = name
    session.create()
    assert session.session_key is not None
    return session.session_key, Identity(guest_key=session[GUEST_KEY], name=name)


def bench_game(number: int, players: int) -> dict[str, Any]:
    sessions, viewers = zip(
        *(guest_session(f"{BENCH_PREFIX}{number}.{seat}") for seat in range(players)), strict=True
    )
    game = services.create_game(viewers[0], {"mode": "parlor", "players": players, "listed": False})
    # Not started until the last seat fills, so the start reads this target from the row.
    Game.objects.filter(pk=game.pk).update(match=MatchFormat("target", target=TARGET).to_dict())
    for seat, viewer in enumerate(viewers[1:], start=1):
        services.join_game(viewer, game.seats.get(index=seat).invite_token)
    return {"gid": game.public_id, "sessions": list(sessions)}


def reset() -> None:
    """Delete the games and guest sessions an earlier run made, and nothing else."""
    Game.objects.filter(seats__name__startswith=BENCH_PREFIX).distinct().delete()
    model = SessionStore.get_model_class()
    ours = [
        row.session_key
        for row in model.objects.iterator()
        if str(row.get_decoded().get(GUEST_NAME, "")).startswith(BENCH_PREFIX)
    ]
    model.objects.filter(session_key__in=ours).delete()
    if connection.vendor == "postgresql":
        # Each run starts from tables without the dead rows of the last (a run updates each
        # game hundreds of times), so runs measure the same thing.
        with connection.cursor() as cursor:
            for model_class in (Game, GameEvent, ActionReceipt, Seat):
                cursor.execute(f"VACUUM ANALYZE {model_class._meta.db_table}")


class Command(BaseCommand):
    help = "Create started 4-player games seated by guest sessions, for benchmarks/bench_live.py."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=250)
        parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
        parser.add_argument("--output", help="write the JSON here instead of stdout")
        parser.add_argument(
            "--reset",
            action="store_true",
            help="first delete the games (and sessions) an earlier run made",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["reset"]:
            reset()
        games = [bench_game(n, options["players"]) for n in range(options["games"])]
        text = json.dumps({"games": games})
        if options["output"]:
            Path(options["output"]).write_text(text)
        else:
            self.stdout.write(text)
