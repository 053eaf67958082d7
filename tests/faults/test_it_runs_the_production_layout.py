"""The production layout of docs/deploy.md on one machine: two daphne web processes, two Celery
workers and one beat, on PostgreSQL and Redis (a redis-server of the test's own).

A move POSTed to one web process reaches the boards connected to the other (the Redis channel
layer), and a live clock that has run out is timed out exactly once, however many sweeps and
queued timeout tasks on the two workers ask: once for a deadline set into the past (the sweep
path), once for a deadline a second ahead (the timeout tasks queued for that moment by the
sweeps before it).
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games.engine.state import state_from_record
from games.models import Game

from .helpers import (
    Board,
    assert_log_is_true,
    boards,
    describe,
    move,
    needs_postgres_and_redis,
    servers,
    site_env,
    started_game,
    wait_for_log,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, needs_postgres_and_redis]
FRAME_S = 10.0
TIMEOUT_S = 20.0  # from the deadline to its TurnTimedOut, on a busy machine
SWEEPS_AFTER = 4  # beat sweeps that must pass after a timeout without a second one


def timed_out(game: Game, turn: int) -> int:
    return game.events.filter(kind="TurnTimedOut", payload__turn=turn).count()


def received_count(worker_log: Path, task: str) -> int:
    lines = worker_log.read_text(errors="replace").splitlines()
    return sum(f"games.tasks.{task}[" in line and line.endswith("received") for line in lines)


def sweeps_sent(beat_log: Path) -> int:
    return beat_log.read_text(errors="replace").count("Sending due task sweep-timeouts")


def test_two_web_processes_two_workers_one_beat(tmp_path: Path) -> None:
    with servers(tmp_path) as running:
        redis = running.redis()
        env = site_env(tmp_path, redis.url)
        web_a, web_b = running.daphne("web-a", env), running.daphne("web-b", env)
        workers = [running.worker(f"worker{n}", env) for n in (1, 2)]
        beat = running.beat(env)
        for worker in workers:
            wait_for_log(worker, " ready.")
        wait_for_log(beat, "Sending due task sweep-timeouts")

        game, players, watcher = started_game(mode="blitz", target=None)  # a 30 s live clock
        gid = game.public_id
        cookies = {f"seat{p.seat}": p.cookie for p in players}
        cookies["spectator"] = f"sessionid={watcher}"
        on_b = boards(web_b, gid, cookies)
        on_a = Board(web_a.port, gid, f"sessionid={watcher}", "spectator-on-a").start()
        everyone = {**on_b, "spectator-on-a": on_a}
        try:
            # A move on A reaches the boards on B through Redis.
            turn = state_from_record(game.state).turn
            sent = time.monotonic()
            made = move(web_a.port, gid, players[turn], game.seq)
            assert made.status == 200, (made, running.logs())
            seq = made.answer["seq"]
            assert all(b.wait_for(seq, FRAME_S) for b in on_b.values()), describe(everyone)
            across = max(b.time_reaching(seq) or 0 for b in on_b.values()) - sent
            assert not any(b.fetched for b in on_b.values()), "B's boards had to fetch"

            counts: dict[str, int] = {}
            latencies: dict[str, float] = {}
            numbers: list[int] = []
            for path, ahead in (("sweep", -5.0), ("queued task", 1.0)):
                game = Game.objects.get(pk=game.pk)
                number = game.turn_number
                numbers.append(number)
                set_at = timezone.now()
                deadline = set_at + timedelta(seconds=ahead)
                Game.objects.filter(pk=game.pk).update(deadline=deadline)
                until = time.monotonic() + max(ahead, 0) + TIMEOUT_S
                while time.monotonic() < until and not timed_out(game, number):
                    time.sleep(0.1)
                assert timed_out(game, number) == 1, (path, running.logs())
                # From the moment the clock had run out (or was set as run out).
                latencies[path] = (timezone.now() - max(deadline, set_at)).total_seconds()
                # Several more sweeps, on either worker: nothing more may happen to that turn.
                swept = sweeps_sent(beat.log)
                until = time.monotonic() + SWEEPS_AFTER * 3
                while sweeps_sent(beat.log) < swept + SWEEPS_AFTER and time.monotonic() < until:
                    time.sleep(0.2)
                assert sweeps_sent(beat.log) >= swept + SWEEPS_AFTER, beat.tail()
                counts[path] = timed_out(game, number)
                assert counts[path] == 1, (path, counts)
                # The timeout was made by a worker: its frames reached both web processes.
                game = Game.objects.get(pk=game.pk)
                assert all(b.wait_for(game.seq, FRAME_S) for b in everyone.values()), describe(
                    everyone
                )
            received = {
                f"{w.name} {task}": received_count(w.log, task)
                for w in workers
                for task in ("sweep_timeouts", "turn_timeout")
            }
            waited = {k: round(v, 2) for k, v in latencies.items()}
            print(
                f"\nproduction layout: a move's frames crossed to the other web process in "
                f"{across:.3f} s; TurnTimedOut per turn {counts}, s from the clock running out "
                f"to its timeout {waited}; tasks received {received}"
            )
        finally:
            for board in everyone.values():
                board.stop()

    final = assert_log_is_true(gid)
    # Later turns' own 30 s clocks may run out on a slow machine; these two timed out once each.
    assert [timed_out(final, n) for n in numbers] == [1, 1]
