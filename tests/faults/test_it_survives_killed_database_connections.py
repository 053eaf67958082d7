"""PostgreSQL connections killed in the middle of a stream of moves.

One daphne on PostgreSQL (its psycopg pool) and a redis-server of the test's own. A mover makes
draw after draw, alternately POSTed and sent as "act" messages on the player's own socket, as
fast as the answers come, while the test kills every other connection to the test database
(``pg_terminate_backend``) a few times, some of them while a move's transaction is open. The
client's part (docs/api.md): a 5xx or a dropped connection is sent again by POST with the same
key; a socket that drops is opened again. The server's part, asserted here: it answers the
retried move with 200 within a few seconds of each kill, every acknowledged move is in the log
exactly once, the log replays to the cached state, and the next move works.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

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
    terminate_site_connections,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, needs_postgres_and_redis]
KILLS = 4
RECOVERY_S = 10.0  # a move, its retries included, is answered 200 within this


# Kill every connection to the test database but this one (the test's own), wait until they
# are gone, and drop the dead ones idle in this process's own pool (tests/faults/helpers.py).
terminate_connections = terminate_site_connections


def test_moves_survive_killed_connections(tmp_path: Path) -> None:
    with servers(tmp_path) as running:
        redis = running.redis()
        web = running.daphne("web", site_env(tmp_path, redis.url))
        game, players, watcher = started_game()
        gid = game.public_id
        watching = boards(web, gid, {"spectator": f"sessionid={watcher}"})
        state: dict[str, Any] = {"seq": game.seq, "turn": state_from_record(game.state).turn}
        moves: list[dict[str, Any]] = []  # every move: how it went
        stop = threading.Event()
        errors: list[str] = []
        sockets: dict[int, SocketMover | None] = {p.seat: None for p in players}

        def socket_for(seat: int) -> SocketMover | None:
            if sockets[seat] is None:
                try:
                    sockets[seat] = SocketMover(web, gid, players[seat])
                except Exception as error:  # the handshake hit a dead connection: POST this one
                    moves.append({"socket_open_failed": f"{type(error).__name__}: {error}"})
            return sockets[seat]

        def one_move(number: int) -> None:
            seq, seat = state["seq"], state["turn"]
            started = time.monotonic()
            record: dict[str, Any] = {"number": number, "expected": seq, "via": "http"}
            key, answer = None, None
            mover = socket_for(seat) if number % 2 else None
            if mover is not None:
                record["via"] = "socket"
                key, frame, fate = mover.draw(seq)
                record["socket"] = fate
                if frame is not None and frame["status"] == 200:
                    answer = frame
                else:
                    mover.close()
                    sockets[seat] = None
            if answer is None:
                made = move(web.port, gid, players[seat], seq, patience=RECOVERY_S, key=key)
                record.update(status=made.status, attempts=made.attempts, failures=made.failures)
                if made.status != 200:
                    raise AssertionError(f"move {number} not answered 200: {made}")
                answer = made.answer
            record.update(key=key or made.key, seq=answer["seq"])
            record["seconds"] = time.monotonic() - started
            moves.append(record)
            state["seq"], state["turn"] = answer["seq"], answer["view"]["turn"]

        def stream() -> None:
            number = 0
            try:
                while not stop.is_set():
                    one_move(number)
                    number += 1
            except Exception as error:
                errors.append(f"{type(error).__name__}: {error}")

        mover_thread = threading.Thread(target=stream, name="mover", daemon=True)
        killed: list[tuple[float, int]] = []
        try:
            mover_thread.start()
            time.sleep(2)
            for _ in range(KILLS):
                killed.append((time.monotonic(), terminate_connections()))
                time.sleep(1.5)
            stop.set()
            mover_thread.join(RECOVERY_S * 3)
            assert not mover_thread.is_alive() and not errors, (errors, running.logs())
            for mover in sockets.values():
                if mover is not None:
                    mover.close()

            # The next move after the last kill, on a fresh connection: 200 at once.
            terminate_connections()
            made = move(web.port, gid, players[state["turn"]], state["seq"], patience=RECOVERY_S)
            assert made.status == 200, (made, running.logs())
            state["seq"] = made.answer["seq"]
            assert watching["spectator"].wait_for(state["seq"], 10), describe(watching)
        finally:
            stop.set()
            for board in watching.values():
                board.stop()

    made_moves = [m for m in moves if "seq" in m]
    retried = [
        (m["via"], m.get("socket", "")[:40], len(m.get("failures", [])), round(m["seconds"], 2))
        for m in made_moves
        if m.get("failures") or m.get("socket", "answered") != "answered"
    ]
    print(
        f"\nkilled connections {[n for _, n in killed]}; {len(made_moves)} moves "
        f"({sum(m['via'] == 'socket' for m in made_moves)} on sockets); retried (via, socket, "
        f"5xx before the 200, seconds): {retried}; slowest move "
        f"{max(m['seconds'] for m in made_moves):.2f} s"
    )
    assert killed and all(n > 0 for _, n in killed), killed
    assert max(m["seconds"] for m in made_moves) < RECOVERY_S
    final = assert_log_is_true(gid)
    assert final.seq == state["seq"]
    receipts = set(final.receipts.values_list("key", flat=True))
    assert {m["key"] for m in made_moves} <= receipts
    # One turn event per acknowledged move, no more: a retried move landed once.
    turns = final.events.filter(kind__in=["TileDrawn", "Passed"]).count()
    assert turns == len(made_moves) + 1, (turns, len(made_moves))


def test_a_move_retried_once_after_the_connections_are_killed_is_answered(tmp_path: Path) -> None:
    with servers(tmp_path) as running:
        redis = running.redis()
        web = running.daphne("web", site_env(tmp_path, redis.url))
        game, players, _ = started_game()
        gid = game.public_id
        seq, turn = game.seq, state_from_record(game.state).turn
        for _ in range(4):  # the pool is warm
            made = move(web.port, gid, players[turn], seq)
            assert made.status == 200, (made, running.logs())
            seq, turn = made.answer["seq"], made.answer["view"]["turn"]
        assert terminate_connections() > 0
        made = move(web.port, gid, players[turn], seq, patience=0)  # one try
        if made.status != 200:
            made = move(web.port, gid, players[turn], seq, patience=0, key=made.key)  # one retry
        assert made.status == 200, made.failures
