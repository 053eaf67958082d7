"""SQLite (the embedded default), 8 writer processes x 1,000 moves: never "database is locked".

Each process (tests/faults/sqlite_writer.py) draws on its own game through ``services.act``,
all of them at once on the one test database file in WAL mode, with the site's SQLite options
(rummi_site/settings.py: IMMEDIATE transactions so writers queue for the lock, a 20 s busy
timeout). Every move must land: no OperationalError, 1,000 receipts and 1,000 turn events per
game, and each game's log replays to its cached state. Draws are the cheapest move there is.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from games.engine.state import state_from_record

from .helpers import ROOT, assert_log_is_true, site_env, sqlite_only, started_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, sqlite_only]
WRITERS = 8
MOVES = 1000
WRITER = Path(__file__).with_name("sqlite_writer.py")


def test_eight_writer_processes_never_meet_a_locked_database(tmp_path: Path) -> None:
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
    go = tmp_path / "go"
    env = site_env(tmp_path, None)
    jobs = []
    for _ in range(WRITERS):
        game, players, _ = started_game()
        jobs.append(
            {
                "gid": game.public_id,
                "guests": [p.identity.guest_key for p in players],
                "seq": game.seq,
                "turn": state_from_record(game.state).turn,
                "moves": MOVES,
                "go": str(go),
            }
        )
    logs = [tmp_path / f"writer{n}.log" for n in range(WRITERS)]
    writers = []
    for job, log in zip(jobs, logs, strict=True):
        with log.open("wb") as err:
            command = [sys.executable, str(WRITER), json.dumps(job)]
            writers.append(
                subprocess.Popen(
                    command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=err, text=True
                )
            )
    try:
        for writer, log in zip(writers, logs, strict=True):
            assert writer.stdout is not None
            assert writer.stdout.readline().strip() == "ready", log.read_text()[-3000:]
        started = time.monotonic()
        go.touch()
        results = []
        for writer, log in zip(writers, logs, strict=True):
            out, _ = writer.communicate(timeout=600)
            assert writer.returncode == 0, log.read_text()[-3000:]
            results.append(json.loads(out.strip().splitlines()[-1]))
        seconds = time.monotonic() - started
    finally:
        for writer in writers:
            if writer.poll() is None:
                writer.kill()
                writer.wait()

    print(
        f"\nSQLite: {WRITERS} writers x {MOVES} moves in {seconds:.1f} s "
        f"({WRITERS * MOVES / seconds:.0f} moves/s); per writer s "
        f"{[round(r['seconds'], 1) for r in results]}; p99 move ms "
        f"{[r['p99_ms'] for r in results]}; slowest move ms "
        f"{[r['slowest_ms'] for r in results]}"
    )
    assert [r["errors"] for r in results] == [[]] * WRITERS
    assert [r["done"] for r in results] == [MOVES] * WRITERS
    for job in jobs:
        game = assert_log_is_true(str(job["gid"]))
        assert game.receipts.count() == MOVES
        assert game.events.filter(kind__in=["TileDrawn", "Passed"]).count() == MOVES
