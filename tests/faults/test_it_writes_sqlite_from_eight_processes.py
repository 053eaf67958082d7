"""SQLite (the embedded default), 8 writer processes x 1,000 moves: never "database is locked".

Each process (forked by tests/faults/sqlite_writer.py after one Django start-up) draws on its
own game through ``services.act``, all of them at once on the one test database file in WAL
mode, with the site's SQLite options (rummi_site/settings.py: IMMEDIATE transactions so
writers queue for the lock, a 20 s busy timeout). Every move must land: no OperationalError,
1,000 receipts and 1,000 turn events per game, and each game's log replays to its cached
state. Draws are the cheapest move there is.
"""

from __future__ import annotations

import json
import os
import signal
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
    launched = time.monotonic()
    jobs_file = tmp_path / "jobs.json"
    jobs_file.write_text(json.dumps(jobs))
    log = tmp_path / "writers.log"
    with log.open("wb") as err:
        command = [sys.executable, str(WRITER), str(jobs_file)]
        writers = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            start_new_session=True,  # the writers are its children: killed with it
        )
    try:
        assert writers.stdout is not None
        assert writers.stdout.readline().strip() == "ready", log.read_text()[-3000:]
        started = time.monotonic()
        startup = started - launched
        go.touch()
        assert writers.wait(600) == 0, log.read_text()[-3000:]
        seconds = time.monotonic() - started
    finally:
        if writers.poll() is None:
            os.killpg(writers.pid, signal.SIGKILL)
            writers.wait()
    results = [json.loads(Path(f"{go}.{n}.json").read_text()) for n in range(WRITERS)]
    assert not [r["crashed"] for r in results if "crashed" in r]

    print(
        f"\nSQLite: {WRITERS} writers x {MOVES} moves in {seconds:.1f} s "
        f"({WRITERS * MOVES / seconds:.0f} moves/s); per writer s "
        f"{[round(r['seconds'], 1) for r in results]}; p99 move ms "
        f"{[r['p99_ms'] for r in results]}; slowest move ms "
        f"{[r['slowest_ms'] for r in results]}"
    )
    assert [r["errors"] for r in results] == [[]] * WRITERS
    assert [r["done"] for r in results] == [MOVES] * WRITERS
    checking = time.monotonic()
    for job in jobs:
        game = assert_log_is_true(str(job["gid"]))
        assert game.receipts.count() == MOVES
        assert game.events.filter(kind__in=["TileDrawn", "Passed"]).count() == MOVES
    print(
        f"SQLite: the writers were ready {startup:.1f} s after their start; checking and "
        f"replaying the logs took {time.monotonic() - checking:.1f} s"
    )
