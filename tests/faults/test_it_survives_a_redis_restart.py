"""Redis restarted mid-game: no acknowledged move is lost and every board resyncs within 10 s.

One daphne on PostgreSQL and a redis-server of the test's own (the channel layer), two players
and a spectator watching on sockets, moves POSTed over HTTP. Redis is killed and, after a few
moves made while it is down, started again on the same port.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from games.engine.state import state_from_record

from .helpers import (
    SocketMover,
    assert_log_is_true,
    boards,
    describe,
    move,
    needs_postgres_and_redis,
    servers,
    site_env,
    started_game,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, needs_postgres_and_redis]
RESYNC_S = 10.0


def test_boards_resync_and_no_acknowledged_move_is_lost(tmp_path: Path) -> None:
    with servers(tmp_path) as running:
        redis = running.redis()
        web = running.daphne("web", site_env(tmp_path, redis.url))
        game, players, watcher = started_game()
        gid = game.public_id
        cookies = {f"seat{p.seat}": p.cookie for p in players}
        watching = boards(web, gid, {**cookies, "spectator": f"sessionid={watcher}"})
        seq, turn = game.seq, state_from_record(game.state).turn
        acked: list[tuple[str, int]] = []  # (key, seq) of every move answered 200

        def play() -> int:
            nonlocal seq, turn
            made = move(web.port, gid, players[turn], seq)
            assert made.status == 200, (made, running.logs())
            seq, turn = made.answer["seq"], made.answer["view"]["turn"]
            acked.append((made.key, seq))
            return seq

        def everyone_at(target: int, seconds: float) -> bool:
            return all(b.wait_for(target, seconds) for b in watching.values())

        try:
            for _ in range(4):
                play()
            assert everyone_at(seq, RESYNC_S), describe(watching)

            mover = SocketMover(web, gid, players[turn])  # opened while the layer is up
            redis.server.kill(signal.SIGKILL)
            # A move sent on the mover's socket while the layer is down: answered there, or
            # (a dropped socket) POSTed again with the same key, so it lands once.
            key, answer, socket_fate = mover.draw(seq)
            mover.close()
            if answer is None:
                again = move(web.port, gid, players[turn], seq, key=key)
                assert again.status == 200, (socket_fate, again, running.logs())
                answer = {"status": 200, **again.answer}
            assert answer["status"] == 200, (answer, socket_fate)
            seq, turn = answer["seq"], answer["view"]["turn"]
            acked.append((key, seq))
            down_moves = [seq] + [play() for _ in range(3)]  # HTTP moves need the database only
            redis.server.start()
            redis.wait_up()
            back = time.monotonic()

            # Moves go on, one every 0.3 s, until every board has caught up with the first
            # move made after the restart (a frame lost while the layer reconnects is
            # noticed at the next frame's gap and fetched).
            first_after = play()
            while time.monotonic() - back < RESYNC_S and not everyone_at(first_after, 0.3):
                play()
            reached = {n: b.time_reaching(first_after) for n, b in watching.items()}
            assert all(t is not None for t in reached.values()), describe(watching)
            resync = max(t - back for t in reached.values() if t is not None)
            assert resync < RESYNC_S, (resync, describe(watching))

            # The next move works, and its frame reaches every board over the layer.
            sent = time.monotonic()
            last = play()
            assert everyone_at(last, RESYNC_S), describe(watching)
            by_frame = {n: b.seqs[-1] for n, b in watching.items()}
            assert all(s == last and how == "frame" for _, s, how in by_frame.values()), by_frame
            latest = max(b.time_reaching(last) or 0 for b in watching.values())
            print(
                f"\nredis restart: boards resynced {resync:.2f} s after redis was back; "
                f"next move's frames in {latest - sent:.3f} s; moves while down {down_moves}; "
                f"socket drops {[len(b.closes) for b in watching.values()]}; "
                f"gaps fetched {[b.gaps for b in watching.values()]}; "
                f"socket act while down: {socket_fate}"
            )
        finally:
            for board in watching.values():
                board.stop()

    final = assert_log_is_true(gid)
    assert final.seq == seq
    logged = {e.seq for e in final.events.all()}
    assert {s for _, s in acked} <= logged
    receipts = set(final.receipts.values_list("key", flat=True))
    assert {key for key, _ in acked} <= receipts
