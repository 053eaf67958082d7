"""A web process killed and started again: its boards reconnect and replay from their last seq.

Two daphne processes (A and B) on PostgreSQL and a redis-server of the test's own. Both players
and a spectator watch on A, one more board on B; moves are POSTed to B. A is killed (SIGKILL,
as a crash) while moves go on through B, then started again on the same port. Each of A's
boards reconnects, its hello has the game's current seq, and ``GET /events?after=<its last
seq>`` gives exactly the events it missed, projected for its viewer.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from games.engine.state import state_from_record

from .helpers import (
    Board,
    assert_log_is_true,
    boards,
    describe,
    move,
    needs_postgres_and_redis,
    projected_events,
    servers,
    site_env,
    started_game,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, needs_postgres_and_redis]
RECONNECT_S = 10.0  # from the restarted process listening to every board's new hello


def test_boards_reconnect_and_replay_exactly_what_they_missed(tmp_path: Path) -> None:
    with servers(tmp_path) as running:
        redis = running.redis()
        env = site_env(tmp_path, redis.url)
        web_a, web_b = running.daphne("web-a", env), running.daphne("web-b", env)
        game, players, watcher = started_game()
        gid = game.public_id
        seats = {f"seat{p.seat}": p.seat for p in players} | {"spectator": None}
        cookies = {f"seat{p.seat}": p.cookie for p in players}
        cookies["spectator"] = f"sessionid={watcher}"
        on_a = boards(web_a, gid, cookies)
        on_b = Board(web_b.port, gid, players[0].cookie, "seat0-on-b").start()
        everyone = {**on_a, "seat0-on-b": on_b}
        seq, turn = game.seq, state_from_record(game.state).turn

        def play() -> int:
            nonlocal seq, turn
            made = move(web_b.port, gid, players[turn], seq)
            assert made.status == 200, (made, running.logs())
            seq, turn = made.answer["seq"], made.answer["view"]["turn"]
            return seq

        def everyone_at(target: int, seconds: float) -> bool:
            return all(b.wait_for(target, seconds) for b in everyone.values())

        try:
            for _ in range(3):
                play()
            assert everyone_at(seq, 10), describe(everyone)
            before = seq

            web_a.server.kill(signal.SIGKILL)
            for _ in range(3):
                play()  # A's boards miss these
            assert on_b.wait_for(seq, 10), describe(everyone)  # B's board is unaffected
            missed_until = seq
            started = time.monotonic()
            listening_s = web_a.restart()
            listening = time.monotonic()
            assert everyone_at(missed_until, RECONNECT_S + listening_s), describe(everyone)

            reconnects = {}
            for name, board in on_a.items():
                hello_at, hello_seq = board.hellos[-1]
                assert len(board.hellos) == 2 and board.closes, (name, board.hellos)
                assert hello_seq == missed_until, (name, board.hellos)
                reconnects[name] = (hello_at - started, hello_at - listening)
                # One catch-up after the reconnect, from the board's last seq: exactly the
                # missed events, each as this viewer may see it.
                assert [after for after, _ in board.fetched] == [before], (name, board.fetched)
                answer = board.fetched[0][1]
                assert answer["seq"] == missed_until
                assert [e["seq"] for e in answer["events"]] == list(
                    range(before + 1, missed_until + 1)
                )
                assert answer["events"] == projected_events(gid, before, seats[name]), name
            assert max(late for _, late in reconnects.values()) < RECONNECT_S, reconnects
            assert not on_b.closes and not on_b.fetched, describe(everyone)

            # The restarted process takes the next move, and its frame reaches both processes'
            # boards (over Redis for B's).
            made = move(web_a.port, gid, players[turn], seq)
            assert made.status == 200, (made, running.logs())
            seq = made.answer["seq"]
            assert everyone_at(seq, 10), describe(everyone)
            print(
                f"\nweb restart: A listened {listening_s:.2f} s after its start; boards' new "
                "hello (s after the start, s after listening): "
                + ", ".join(f"{n} {a:.2f}/{b:.2f}" for n, (a, b) in reconnects.items())
            )
        finally:
            for board in everyone.values():
                board.stop()

    final = assert_log_is_true(gid)
    assert final.seq == seq
