"""The sockets bench's control holds its idle sockets as the site would for the bench's crowd:
the handshake, the watchers' hello (send nothing, hear the beat), the beat, a pong for each board
ping, the close (benchmarks/socket_holder.py, benchmarks/bench_sockets.py
``RUMMI_BENCH_SOCKETS_HOLDER``)."""

from __future__ import annotations

import asyncio
import doctest
import json
import multiprocessing
from typing import Any

import websockets

from benchmarks import socket_holder
from rummi_site import pings


def test_its_examples_hold() -> None:
    assert doctest.testmod(socket_holder).failed == 0


def holder(beat_s: float) -> tuple[Any, Any, int]:
    context = multiprocessing.get_context("spawn")
    here, there = context.Pipe()
    process = context.Process(
        target=socket_holder.serve, args=(there, "127.0.0.1", beat_s), daemon=True
    )
    process.start()
    return process, here, here.recv()


def test_it_greets_answers_pings_and_closes_then_says_what_it_did() -> None:
    process, here, port = holder(pings.BEAT_EVERY_S)
    try:

        async def talk() -> list[str]:
            seen = []
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/x/") as socket:
                seen.append(await socket.recv())
                for _ in range(3):
                    await socket.send(pings.PING)
                    seen.append(await socket.recv())
                await socket.send('{"type":"chat"}')  # not a ping: no answer
            return seen

        seen = asyncio.run(talk())
        assert json.loads(seen[0]) == {"type": "hello", "ping_s": 0, "silent_s": 120}
        assert seen[1:] == [pings.PONG] * 3
        here.send("stop")
        said = here.recv()
        assert said["open"] == 0 and said["pings"] == 3
    finally:
        process.kill()
        process.join()


def test_it_beats_a_socket_that_sends_nothing() -> None:
    process, here, port = holder(0.2)
    try:

        async def listen() -> list[str]:
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/x/") as socket:
                return [await asyncio.wait_for(socket.recv(), 30) for _ in range(4)]

        seen = asyncio.run(listen())
        assert json.loads(seen[0])["ping_s"] == 0 and seen[1:] == [pings.BEAT] * 3
        here.send("stop")
        assert here.recv()["beats"] >= 3
    finally:
        process.kill()
        process.join()
