"""CPU of one move in the web process: ``services.act`` draws on PostgreSQL, in process.

``python -m benchmarks.move_cpu`` seats 40 four-player games (benchsetup's games) in the bench
database and has the seat to move draw, round robin over the games, for a fixed number of moves;
prints JSON: the process CPU per move (the part of the live bench's server CPU that the move path
costs, without the websocket frames), the wall time per move, and the database's round trips.
Each move takes its connection from the pool, checked unless RUMMI_BENCH_MOVE_HEALTH_CHECKS=0.
RUMMI_BENCH_MOVE_PROFILE=<path> writes a cProfile of the measured moves there.
"""

from __future__ import annotations

import cProfile
import json
import os
import secrets
import sys
import time
from typing import Any


def main() -> dict[str, Any]:
    os.environ.setdefault(
        "DATABASE_URL",
        os.environ.get(
            "RUMMI_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/rummi_bench"
        ),
    )
    os.environ["DJANGO_SETTINGS_MODULE"] = "rummi_site.settings"
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import close_old_connections, connection

    # The pool's connection check (rummi_site/postgresql/base.py), on unless this says 0;
    # read when the pool is made, at the first query below.
    checks = os.environ.get("RUMMI_BENCH_MOVE_HEALTH_CHECKS", "1") != "0"
    connection.settings_dict["CONN_HEALTH_CHECKS"] = checks

    from games import services
    from games.engine.state import state_from_record
    from games.identity import GUEST_KEY, GUEST_NAME, Identity
    from games.management.commands.benchsetup import bench_game, reset
    from games.models import Game

    call_command("migrate", verbosity=0)
    reset()
    games = int(os.environ.get("RUMMI_BENCH_MOVE_GAMES", "40"))
    moves = int(os.environ.get("RUMMI_BENCH_MOVE_COUNT", "2000"))
    seated = [bench_game(n, 4) for n in range(games)]
    tables = []
    for table in seated:
        viewers = []
        for key in table["sessions"]:
            session = SessionStore(session_key=key)
            viewers.append(Identity(guest_key=session[GUEST_KEY], name=session[GUEST_NAME]))
        tables.append([table["gid"], viewers, None])
    for table in tables:
        game = Game.objects.get(public_id=table[0])
        table[2] = game.seq

    def one(table: list[Any]) -> tuple[float, float]:
        """One draw by the seat to move: its (CPU, wall) seconds inside services.act."""
        gid, viewers, seq = table
        turn = state_from_record(Game.objects.only("state").get(public_id=gid).state).turn
        body = {"expected_seq": seq, "key": secrets.token_hex(8)}
        # The connection goes back to the pool between moves, as after each request and each
        # socket move: the move takes one from the pool (and checks it) as theirs do.
        close_old_connections()
        c0, w0 = time.process_time(), time.perf_counter()
        answer = services.act(gid, viewers[turn], "draw", body)
        spent = time.process_time() - c0, time.perf_counter() - w0
        table[2] = answer["seq"]
        return spent

    # Warm up (prepared statements, caches), then measure only the act call.
    for table in tables:
        one(table)
    cpu = wall = 0.0
    profile_to = os.environ.get("RUMMI_BENCH_MOVE_PROFILE")
    profiler = cProfile.Profile() if profile_to else None
    if profiler:
        profiler.enable()
    for n in range(moves):
        spent = one(tables[n % len(tables)])
        cpu, wall = cpu + spent[0], wall + spent[1]
    if profiler:
        profiler.disable()
        profiler.dump_stats(profile_to)
    options = connection.settings_dict["OPTIONS"]
    return {
        "variant": {
            "server_side_binding": options.get("server_side_binding", False),
            "prepare_threshold": options.get("prepare_threshold"),
            "health_checks": checks,
        },
        "moves": moves,
        "cpu_ms_per_move": round(1000 * cpu / moves, 3),
        "wall_ms_per_move": round(1000 * wall / moves, 3),
    }


if __name__ == "__main__":
    json.dump(main(), sys.stdout)
    print()
