"""Create the live benchmark's games: 4-player Parlor tables, every seat a guest with a session.

``manage.py benchsetup --games 250 --output var/bench/live-games.json`` writes
``{"mode": "parlor", "games": [{"gid": ..., "sessions": [4 sessionid cookie values, by seat]}]}``.

The games go through the service like real ones (create, then three joins through invite links),
so their event log and cached state are the ordinary ones. The match target is 1000 points, past
what a Parlor game offers in the form (the service accepts up to 500): a table of four that only
draws then plays thousands of moves before anyone wins, so no game ends during a benchmark.

``--mode r45`` seats Rummy 45 tables instead (``"mode": "r45"``), and plays each through its
setup with the service's own move path (``services.act``, as the sockets do): an offer made to
a seat is declined and every seat says it is ready, so each game is in its play phase, the first
player (the dealer's right) holding 15 tiles to lay the locomotive. A table that only draws
from the stock and discards never ends by going out; it ends at the 674th such move (the 337th
draw, which finds the stock empty after 6 renewals: ``RENEWAL_LIMIT``, 48 draws a stock at four
players), far past what a benchmark plays: the full live bench offers at most about 225 moves
a game (100 warm-up moves, then 20 s at each pace up to 800 moves/s, over 250 games).
"""

from __future__ import annotations

import json
import secrets
import uuid
from pathlib import Path
from typing import Any

from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from games import services
from games.engine.r45.family import ACTION as R45_ACTION
from games.engine.r45.family import MODE as R45_INFO
from games.engine.scoring import MatchFormat
from games.identity import GUEST_KEY, GUEST_NAME, Identity
from games.models import ActionReceipt, Game, GameEvent, Seat

BENCH_PREFIX = "Bench "
TARGET = 1000
R45_MODE = R45_INFO.name  # "r45"


def guest_session(name: str) -> tuple[str, Identity]:
    """A stored guest session, as the site makes one: its cookie value and the viewer."""
    session = SessionStore()
    session[GUEST_KEY] = secrets.token_urlsafe(24)
    session[GUEST_NAME] = name
    session.create()
    assert session.session_key is not None
    return session.session_key, Identity(guest_key=session[GUEST_KEY], name=name)


def bench_game(number: int, players: int, mode: str = "parlor") -> dict[str, Any]:
    sessions, viewers = zip(
        *(guest_session(f"{BENCH_PREFIX}{number}.{seat}") for seat in range(players)), strict=True
    )
    game = services.create_game(viewers[0], {"mode": mode, "players": players, "listed": False})
    if mode == "parlor":
        # Not started until the last seat fills, so the start reads this target from the row.
        config = {**game.config, "match": MatchFormat("target", target=TARGET).to_dict()}
        Game.objects.filter(pk=game.pk).update(config=config)
    for seat, viewer in enumerate(viewers[1:], start=1):
        services.join_game(viewer, game.seats.get(index=seat).invite_token)
    if mode == R45_MODE:
        through_setup(game.public_id, list(viewers))
    return {"gid": game.public_id, "sessions": list(sessions)}


def through_setup(gid: str, viewers: list[Identity]) -> None:
    """Play a started Rummy 45 game through its setup, each move through ``services.act``: the
    seat an exchange is offered to declines it, every other seat still setting up says it is
    ready, until play starts."""
    seq = Game.objects.get(public_id=gid).seq
    view: dict[str, Any] | None = None
    for _ in range(4 * len(viewers)):  # each seat readies once (and declines at most a few)
        if view is not None and view["phase"] != "setup":
            break
        seat = view["to_act"][0] if view is not None else 0
        offer = view["offer"] if view is not None else None
        move = (
            {"action": "AnswerExchange"} if offer and offer["to"] == seat else {"action": "Ready"}
        )
        body = {"move": move, "expected_seq": seq, "key": uuid.uuid4().hex}
        done = services.act(gid, viewers[seat], R45_ACTION, body)
        seq, view = done["seq"], done["view"]
    if view is None or view["phase"] != "play":
        raise CommandError(f"Rummy 45 game {gid} did not reach its play phase")


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
    help = (
        "Create started 4-player games seated by guest sessions, for benchmarks/bench_live.py"
        " (Parlor, or with --mode r45 Rummy 45 games in their play phase)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=250)
        parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
        parser.add_argument(
            "--mode",
            default="parlor",
            choices=("parlor", R45_MODE),
            help="parlor (Rummikub, the default) or r45 (Rummy 45, played through its setup)",
        )
        parser.add_argument("--output", help="write the JSON here instead of stdout")
        parser.add_argument(
            "--reset",
            action="store_true",
            help="first delete the games (and sessions) an earlier run made",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["reset"]:
            reset()
        mode = options["mode"]
        games = [bench_game(n, options["players"], mode) for n in range(options["games"])]
        text = json.dumps({"mode": mode, "games": games})
        if options["output"]:
            Path(options["output"]).write_text(text)
        else:
            self.stdout.write(text)
