"""A bare holder of idle sockets: the sockets bench's control (benchmarks/bench_sockets.py,
``RUMMI_BENCH_SOCKETS_HOLDER=bare``).

It speaks just enough of the websocket protocol for the bench's crowd: the handshake, a hello
telling the board to send nothing and hear the beat (as the site's watchers are told,
``pings.keep_alive``), the beat every ``pings.BEAT_EVERY_S`` from a random first point, a pong
for each board ping, the close. With the crowd's 10,000 sockets held here instead of by the
site, the site's processes hold none, while the crowd's connects and pings, the kernel's work
for them and a holder's answers still take the same 2 cores: the growth of the moves' p99 in
such a run is what the idle sockets cost this machine, not the site. Each answer costs a few
microseconds here (no Twisted, no autobahn), so the holder's own CPU is a floor of what the
site's is."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import random
import time
from multiprocessing.connection import Connection

from rummi_site import pings

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
PING, PONG, BEAT = pings.PING.encode(), pings.PONG.encode(), pings.BEAT.encode()


def hello(beat_s: float) -> bytes:
    """The hello, as the site's to a watcher where the web process beats every ``beat_s``."""
    return json.dumps({"type": "hello", **pings.keep_alive(beat_s)}).encode()


def frame(opcode: int, payload: bytes) -> bytes:
    """A server's final frame (unmasked; payloads under 126 bytes).

    >>> frame(0x1, b"hi")
    b'\\x81\\x02hi'
    """
    return bytes([0x80 | opcode, len(payload)]) + payload


def accept(key: bytes) -> bytes:
    """The handshake's ``Sec-WebSocket-Accept`` for a client's key (RFC 6455, section 4.2.2).

    >>> accept(b"dGhlIHNhbXBsZSBub25jZQ==")
    b's3pPLMBiTxaQ9kYGzzhZRbK+xOo='
    """
    return base64.b64encode(hashlib.sha1(key + GUID).digest())


class Held(asyncio.Protocol):
    """One idle socket, held."""

    def __init__(self, counts: list[int], beat_s: float) -> None:
        self.buffer = b""
        self.upgraded = False
        self.counts = counts  # [open now, pings answered, beats sent]
        self.beat_s = beat_s
        self.transport: asyncio.Transport | None = None
        self.beating: asyncio.TimerHandle | None = None

    def beat(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        self.transport.write(frame(0x1, BEAT))
        self.counts[2] += 1
        self.beating = asyncio.get_running_loop().call_later(self.beat_s, self.beat)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        assert self.transport is not None
        self.buffer += data
        if not self.upgraded:
            head, found, rest = self.buffer.partition(b"\r\n\r\n")
            if not found:
                return
            key = next(
                (
                    line.split(b":", 1)[1].strip()
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"sec-websocket-key:")
                ),
                None,
            )
            if key is None:
                self.transport.write(b"HTTP/1.1 400 Bad Request\r\n\r\n")
                self.transport.close()
                return
            self.transport.write(
                b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept(key) + b"\r\n\r\n"
            )
            self.transport.write(frame(0x1, hello(self.beat_s)))
            self.upgraded, self.buffer = True, rest
            self.counts[0] += 1
            self.beating = asyncio.get_running_loop().call_later(
                random.uniform(0.0, self.beat_s), self.beat
            )
        while len(self.buffer) >= 6:  # a client's frames are masked: 2 bytes, the mask, data
            size = self.buffer[1] & 0x7F
            if size >= 126 or len(self.buffer) < 6 + size:
                break  # the crowd sends none longer than 125 bytes
            opcode, mask = self.buffer[0] & 0x0F, self.buffer[2:6]
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(self.buffer[6 : 6 + size]))
            self.buffer = self.buffer[6 + size :]
            if opcode == 0x1 and payload == PING:
                self.counts[1] += 1
                self.transport.write(frame(0x1, PONG))
            elif opcode == 0x8:
                self.transport.write(frame(0x8, payload))
                self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.beating is not None:
            self.beating.cancel()
        if self.upgraded:
            self.counts[0] -= 1


def serve(conn: Connection, host: str, beat_s: float = pings.BEAT_EVERY_S) -> None:
    """Listen on a free port of ``host``, say it through ``conn``, hold sockets until told to
    stop, then say how many were open, the pings answered, the beats sent and the CPU spent (ms
    a second)."""

    async def run() -> None:
        loop = asyncio.get_running_loop()
        counts = [0, 0, 0]
        server = await loop.create_server(lambda: Held(counts, beat_s), host, 0, backlog=4096)
        conn.send(server.sockets[0].getsockname()[1])
        cpu, wall = time.process_time(), time.perf_counter()
        await loop.run_in_executor(None, conn.recv)  # "stop"
        spent = 1000 * (time.process_time() - cpu) / (time.perf_counter() - wall)
        server.close()
        conn.send(
            {
                "open": counts[0],
                "pings": counts[1],
                "beats": counts[2],
                "cpu_ms_per_s": round(spent, 1),
            }
        )

    asyncio.run(run())
