"""benchmarks/stages_web.py stamps a socket move's stages in the web process (the consumer's
receive, the service call on its thread, the answer, each viewer's frame), which the sockets
bench lines up with the harness's own times to split a move's latency (docs/deploy.md,
"Sockets")."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from benchmarks import bench_sockets, stages_web
from games import consumers

from .conftest import key
from .test_it_pushes_frames_without_leaking_racks import cookie_of, socket
from .test_it_takes_actions_on_the_socket import blitz_duel, logged_in, until_answer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def stamped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The consumer patched as the bench's web process patches it, put back afterwards."""
    for name in ("receive", "game_update"):
        monkeypatch.setattr(consumers.GameConsumer, name, getattr(consumers.GameConsumer, name))
    monkeypatch.setattr(consumers, "act", consumers.act)
    monkeypatch.setattr(stages_web, "_moves", {})
    monkeypatch.setattr(stages_web, "_frames", {})
    stages_web._patch_consumer()


def test_a_draw_on_the_socket_is_stamped_in_order_and_its_frames_by_seq(
    stamped: None, alice: Any, bob: Any
) -> None:
    game, mover = blitz_duel(alice, bob)
    clients = [logged_in(alice), logged_in(bob)]
    draw_key = key()

    async def scenario() -> dict[str, Any]:
        socks = [socket(game.public_id, cookie_of(c)) for c in clients]
        for sock in socks:
            assert (await sock.connect())[0]
            await sock.receive_json_from()  # hello
        await socks[mover].send_to(text_data='{"type":"ping"}')  # not a move: not stamped
        await socks[mover].receive_json_from(timeout=10)
        draw = {"type": "act", "action": "draw", "expected_seq": game.seq, "key": draw_key}
        await socks[mover].send_json_to(draw)
        answer, _ = await until_answer(socks[mover])
        await socks[1 - mover].receive_json_from(timeout=10)  # the other's frame
        for sock in socks:
            await sock.disconnect()
        return answer

    answer = asyncio.run(scenario())
    assert answer["status"] == 200
    assert list(stages_web._moves) == [draw_key]
    gid, read, *times = stages_web._moves[draw_key]
    assert gid == game.public_id
    assert read is None  # daphne's frame reader is not on this path (the communicator's)
    assert all(t is not None for t in times) and times == sorted(times)
    ((frame_key, (first_in, last_written)),) = stages_web._frames.items()
    assert frame_key == (game.public_id, answer["seq"])
    assert times[2] <= first_in <= last_written  # after the service call ended
    # The bench's split of a move: its stages add up to its latency.
    stamps = [gid, times[0], *times]
    record = [draw_key, gid, answer["seq"], times[0] - 0.001, 0.0, last_written + 0.002]
    stages = bench_sockets.move_stages(record, stamps, last_written)
    assert stages is not None
    assert round(sum(stages.values()), 2) == round(1000 * (record[5] - record[3]), 2)
