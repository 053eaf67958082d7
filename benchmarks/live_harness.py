"""A websocket load harness for the live game service (used by bench_live.py).

It plays 4-seat games the way browsers do: every seat holds a socket on ``/ws/games/<gid>/`` with
its session cookie, and the seat whose turn it is POSTs ``/api/games/<gid>/draw`` with the
expected seq, a fresh idempotency key and the CSRF token. Moves are fired by a timer at a fixed
total pace, round-robin over the games (an open loop: a slow server does not slow the offered
load down; a game whose previous move is still in flight queues the next one and that wait is
counted). For each move it measures the time from sending the POST to the moment the last of the
game's sockets has the frame with the new seq, and it checks every frame's seq follows the last.

On Rummy 45 tables (``mode="r45"``, games seated by ``benchsetup --mode r45``) a move is the
next action of the seat to act, sent the same way (the ``r45`` action, ``{"move": {...}}``): it
draws from the stock when it has not taken a tile this turn (the view's ``taken``), else it
discards the highest-numbered tile of its rack (a joker only if it holds nothing else). The seat
knows its rack from the frames' view on its own socket (and from its own answers, when its frames
are late). A draw and a discard each count as one move, as a Rummikub draw does.

The HTTP client is a few lines of HTTP/1.1 with keep-alive over asyncio streams, so that the
harness needs nothing beyond ``websockets``.
"""

from __future__ import annotations

import asyncio
import gc
import json
import math
import os
import re
import signal
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

HOST = "127.0.0.1"
# The servers sit where a TLS-terminating proxy would forward to: daphne runs with
# --proxy-headers and the production settings (RUMMI_HTTPS=1), and every request says it came
# over HTTPS, as the proxy would.
PROXY_HEADERS = "X-Forwarded-Proto: https\r\nX-Forwarded-For: 127.0.0.1\r\n"
FRAME_TIMEOUT_S = 5.0  # a move whose frames take longer is counted late, at this value
OVERLOAD_BACKLOG_S = 3.0  # a step stops when this many seconds of moves are in flight
COOL_DOWN_S = 5.0  # after a step that stopped, for the server to finish what it was sent
CLOCK_TICK = os.sysconf("SC_CLK_TCK")
# How moves are sent: "socket" (an "act" message on the mover's own socket, as the board does
# while its socket is open) or "http" (POST /api/games/<gid>/<action>, the board's fallback).
SUBMIT = os.environ.get("RUMMI_BENCH_LIVE_SUBMIT", "socket")
# Keep each socket move's own times (Step.records) for the servers' stage stamps
# (benchmarks/stages_web.py); a step's report then holds them as "move_records".
STAGES = (os.environ.get("RUMMI_BENCH_LIVE_STAGES") or "0") != "0"
R45 = "r45"  # the Rummy 45 mode, and its one action's name (POST /api/games/<gid>/r45)
JOKER_CODE = "J"


# HTTP/1.1 with keep-alive


class HttpError(Exception):
    pass


class HttpClient:
    """Keep-alive connections to one server, at most ``size`` requests in flight."""

    def __init__(self, port: int, size: int = 64) -> None:
        self.port = port
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.slots = asyncio.Semaphore(size)
        self.opened = 0

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n{PROXY_HEADERS}"
        head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        if body or method == "POST":
            head += f"Content-Length: {len(body)}\r\n"
        raw = head.encode() + b"\r\n" + body
        async with self.slots:
            # A kept-alive connection the server has closed fails before any answer: try once
            # more on a new one. Safe for our POSTs: they carry idempotency keys.
            # A kept-alive connection the server has closed fails before any answer: try the
            # next one, then a new one. Safe for our POSTs: they carry idempotency keys.
            while True:
                reused = bool(self.idle)
                conn = self.idle.pop() if reused else await self._open()
                try:
                    status, answer_headers, data = await self._exchange(conn, raw)
                except (ConnectionError, asyncio.IncompleteReadError):
                    conn[1].close()
                    if reused:
                        continue
                    raise
                if answer_headers.get("connection", "").lower() == "close":
                    conn[1].close()
                else:
                    self.idle.append(conn)
                return status, answer_headers, data

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        self.opened += 1
        return await asyncio.open_connection(HOST, self.port)

    @staticmethod
    async def _exchange(
        conn: tuple[asyncio.StreamReader, asyncio.StreamWriter], raw: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        reader, writer = conn
        writer.write(raw)
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        cookies: list[str] = []
        for line in lines[1:]:
            if ":" in line:
                name, _, value = line.partition(":")
                name = name.strip().lower()
                if name == "set-cookie":
                    cookies.append(value.strip())
                headers[name] = value.strip()
        headers["set-cookie"] = "\n".join(cookies)
        if "content-length" in headers:
            data = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                parts.append(await reader.readexactly(size + 2))
                if size == 0:
                    break
            data = b"".join(p[:-2] for p in parts)
        else:
            raise HttpError(f"answer without a length: {lines[0]}")
        return status, headers, data

    async def close(self) -> None:
        for _, writer in self.idle:
            writer.close()
        self.idle.clear()


# Games, seats and their sockets


@dataclass
class Seat:
    session: str
    port: int
    csrf: str = ""
    ws: ClientConnection | None = None
    last_seq: int = -1
    last_time: float = 0.0
    closed: bool = False
    # Rummy 45: the seat's rack (tile ids, with their codes) as its own view last showed it.
    rack: list[int] = field(default_factory=list)
    rack_codes: list[str] = field(default_factory=list)

    def cookie(self) -> str:
        return f"sessionid={self.session}; csrftoken={self.csrf}"


@dataclass
class Table:
    gid: str
    seats: list[Seat]
    port: int  # where its moves are POSTed
    seq: int = 0
    turn: int = 0
    finished: bool = False
    taken: bool = False  # Rummy 45: whether the seat to act has taken a tile this turn
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    waiting_seq: int = -1
    waiter: asyncio.Future[None] | None = None

    def caught_up(self, seq: int) -> bool:
        return all(s.last_seq >= seq for s in self.seats)


@dataclass
class Step:
    """What one pace step saw."""

    pace: float
    latencies: list[float] = field(default_factory=list)  # POST sent -> last socket's frame
    answers: list[float] = field(default_factory=list)  # POST sent -> its answer
    delays: list[float] = field(default_factory=list)  # timer slot -> last socket's frame
    errors: Counter[str] = field(default_factory=Counter)
    sent: int = 0
    done: int = 0
    queued: int = 0
    gaps: int = 0
    missing_events: int = 0
    late_moves: int = 0
    stale: int = 0
    last_done: float = 0.0
    gap_samples: list[dict[str, Any]] = field(default_factory=list)
    duplicates: int = 0
    closed_sockets: int = 0
    frames: int = 0
    frame_bytes: int = 0
    # Per socket move: (key, gid, seq, sent, answer read, last frame read), for the servers'
    # stage stamps (benchmarks/stages_web.py, RUMMI_BENCH_LIVE_STAGES).
    records: list[tuple[str, str, int, float, float, float]] = field(default_factory=list)


class GcPauses:
    """The harness's own garbage collections between ``start`` and ``stop``: how many of each
    generation and how long they held its loop (a pause delays every frame read then, so it
    would count in the latencies as if the servers were slow). A step runs with the harness's
    collector off (``run_step``): on 2026-12-08 it still made 4-5 young collections a 30 s step,
    each holding the loop up to 8-45 ms on a busy host, in the frames' read times."""

    def __init__(self) -> None:
        self.counts = [0, 0, 0]
        self.pauses: list[float] = []
        self._started = 0.0

    def start(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def stop(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.counts[info["generation"]] += 1
            self.pauses.append(time.perf_counter() - self._started)

    def report(self) -> dict[str, Any]:
        return {
            "collections": self.counts,
            "pause_ms_total": round(1000 * sum(self.pauses), 1),
            "pause_ms_max": ms(max(self.pauses, default=0.0)),
        }


def percentile(values: Sequence[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 2)


class Harness:
    def __init__(
        self,
        games: list[dict[str, Any]],
        ports: Sequence[int],
        pids: Sequence[int],
        mode: str = "parlor",
    ):
        self.r45 = mode == R45
        self.ports = list(ports)
        self.pids = list(pids)
        self.clients = {port: HttpClient(port) for port in self.ports}
        n = len(self.ports)
        # Game i's moves go to server i mod n and its seat k's socket to server (i + k) mod n:
        # with two servers every game has sockets on both, so its frames cross Redis.
        self.tables = [
            Table(
                gid=g["gid"],
                seats=[Seat(s, self.ports[(i + k) % n]) for k, s in enumerate(g["sessions"])],
                port=self.ports[i % n],
            )
            for i, g in enumerate(games)
        ]
        self.step = Step(0)
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.readers: list[asyncio.Task[None]] = []
        self.rss_peak: dict[int, int] = dict.fromkeys(self.pids, 0)
        self.pss_peak: dict[int, int] = dict.fromkeys(self.pids, 0)

    # Setting up

    async def load_page(self, table: Table, seat: Seat) -> None:
        """GET the game's page with the session cookie, as a player does, and keep its csrftoken."""
        client = self.clients[seat.port]
        page = f"/g/{table.gid}/"
        status, headers, _ = await client.request(
            "GET", page, {"Cookie": f"sessionid={seat.session}"}
        )
        found = re.search(r"csrftoken=([^;\s]+)", headers.get("set-cookie", ""))
        if status != 200 or not found:
            raise HttpError(f"GET {page} answered {status} without a csrftoken cookie")
        seat.csrf = found.group(1)

    async def open_socket(self, table: Table, seat: Seat) -> None:
        seat.ws = await connect(
            f"ws://{HOST}:{seat.port}/ws/games/{table.gid}/",
            origin=f"http://{HOST}:{seat.port}",  # type: ignore[arg-type]
            additional_headers={"Cookie": f"sessionid={seat.session}"},
            ping_interval=None,
            max_size=2**22,
            open_timeout=60,
        )
        hello = json.loads(await seat.ws.recv())
        if hello.get("type") != "hello":
            raise HttpError(f"first frame was {hello.get('type')!r}, not hello")
        seat.last_seq = hello["seq"]
        seat.last_time = time.perf_counter()
        table.seq = max(table.seq, hello["seq"])
        table.turn = hello["view"]["turn"]
        if self.r45:
            self.learn_r45(table, seat, hello["view"], hello["seq"] >= table.seq)
        self.readers.append(asyncio.create_task(self.read(table, seat)))

    async def connect_all(self, concurrency: int = 50) -> dict[str, Any]:
        started = time.perf_counter()
        gate = asyncio.Semaphore(concurrency)

        retried = 0

        async def one(table: Table, seat: Seat) -> None:
            nonlocal retried
            async with gate:
                await self.load_page(table, seat)
                # A server too busy to accept within daphne's handshake timeout drops the
                # connect; a browser's board then tries again, and so does the harness.
                for attempt in range(5):
                    try:
                        await self.open_socket(table, seat)
                        return
                    except (OSError, InvalidHandshake) as error:
                        retried += 1
                        if attempt == 4:
                            raise HttpError(f"socket refused 5 times: {error}") from error
                        await asyncio.sleep(0.5 * 2**attempt)

        await asyncio.gather(*(one(t, s) for t in self.tables for s in t.seats))
        seconds = time.perf_counter() - started
        sample = self.tables[0].seats[0].ws
        extensions = sample.response.headers.get("Sec-WebSocket-Extensions") if sample else None
        return {
            "sockets": sum(len(t.seats) for t in self.tables),
            "seconds": round(seconds, 2),
            "connects_retried": retried,
            "compression": extensions or "none",
        }

    # Frames

    async def read(self, table: Table, seat: Seat) -> None:
        assert seat.ws is not None
        try:
            async for message in seat.ws:
                self.on_frame(table, seat, message)
        except ConnectionClosed:
            pass
        finally:
            seat.closed = True
            self.step.closed_sockets += 1

    def on_frame(self, table: Table, seat: Seat, message: str | bytes) -> None:
        now = time.perf_counter()
        frame = json.loads(message)
        if frame.get("type") == "answer":
            waiting = self.answers.pop(frame.get("key"), None)
            if waiting is not None and not waiting.done():
                frame["read_at"] = now
                waiting.set_result(frame)
            return
        if frame.get("type") != "update":
            return
        step = self.step
        step.frames += 1
        step.frame_bytes += len(message)
        seq = frame["seq"]
        if seq <= seat.last_seq:
            step.duplicates += 1
            return
        events = frame["events"]
        first = events[0]["seq"] if events else seq
        if first != seat.last_seq + 1:
            step.gaps += 1
            step.missing_events += max(0, first - seat.last_seq - 1)
            if len(step.gap_samples) < 20:
                step.gap_samples.append(
                    {"gid": table.gid, "seat": table.seats.index(seat), "had": seat.last_seq,
                     "got_first": first, "got_seq": seq}
                )  # fmt: skip
        seat.last_seq = seq
        seat.last_time = now
        if self.r45:
            self.learn_r45(table, seat, frame["view"], seq > table.seq)
            if seq > table.seq:
                table.seq = seq
        elif seq > table.seq:
            table.seq = seq
            view = frame["view"]
            table.turn = view["turn"]
            table.finished = view["finished"]
        if (
            table.waiter is not None
            and not table.waiter.done()
            and table.caught_up(table.waiting_seq)
        ):
            table.waiter.set_result(None)

    @staticmethod
    def learn_r45(table: Table, seat: Seat | None, view: dict[str, Any], newest: bool) -> None:
        """What a Rummy 45 view tells: the seat's own rack (a view is its seat's own), and, if it
        is the table's newest, whose turn it is, whether that seat has taken, whether it is over.
        """
        if seat is not None:
            seat.rack = view["rack"]
            seat.rack_codes = view["rack_codes"]
        if newest:
            table.turn = view["turn"]
            table.taken = view["taken"]
            table.finished = view["phase"] == "over"

    def resync(self, table: Table, answer: dict[str, Any]) -> None:
        """Carry on from an answer (its seq and the mover's view) when the frames are behind."""
        view = answer["view"]
        if self.r45:
            seat = view.get("seat")
            self.learn_r45(table, table.seats[seat] if isinstance(seat, int) else None, view, True)
        else:
            table.turn = view["turn"]

    def next_move(self, table: Table) -> tuple[str, dict[str, Any]]:
        """The action name and body fields of the next move: a Rummikub draw, or the Rummy 45
        turn's next step (draw from the stock, else discard its highest-numbered tile)."""
        if not self.r45:
            return "draw", {}
        if not table.taken:
            return R45, {"move": {"action": "Draw"}}
        seat = table.seats[table.turn]
        tiles = list(zip(seat.rack, seat.rack_codes, strict=True))
        plain = [(tile, code) for tile, code in tiles if code != JOKER_CODE] or tiles
        tile = max(plain, key=lambda pair: (int(pair[1][1:] or 0), pair[0]))[0]
        return R45, {"move": {"action": "Discard", "tile": tile}}

    # Moves

    async def move(self, table: Table, slot: float) -> None:
        step = self.step
        if table.lock.locked():
            step.queued += 1
        async with table.lock:
            for attempt in range(2):
                if table.finished:
                    return
                answer, sent = await self.submit(table)
                if answer is None:
                    return
                if "error" not in answer:
                    break
                if answer["error"] != "stale" or attempt:
                    step.errors[f"{answer['status']} {answer['error']}"] += 1
                    return
                # 409 stale: a move this harness gave up on (a step's end) landed meanwhile.
                # Resync from the answer, as the board does, and play again.
                step.stale += 1
                table.seq = max(table.seq, answer["seq"])
                self.resync(table, answer)
            new_seq = answer["seq"]
            if self.r45:
                # The mover's own rack changes by its own moves only: its answer has it now.
                mover = table.seats[answer["view"]["seat"]]
                if new_seq >= mover.last_seq:
                    self.learn_r45(table, mover, answer["view"], False)
            arrived: float | None = None
            if not table.caught_up(new_seq):
                table.waiting_seq = new_seq
                table.waiter = asyncio.get_running_loop().create_future()
                try:
                    await asyncio.wait_for(table.waiter, FRAME_TIMEOUT_S)
                except TimeoutError:
                    # Late (it may still come: the end of the step checks every socket caught
                    # up); counted at the timeout, so the percentiles are lower bounds.
                    step.late_moves += 1
                    arrived = sent + FRAME_TIMEOUT_S
                finally:
                    table.waiter = None
            if table.seq < new_seq:  # frames late: carry on from the answer
                table.seq = new_seq
                self.resync(table, answer)
            if arrived is None:
                arrived = max(s.last_time for s in table.seats)
            step.latencies.append(arrived - sent)
            if STAGES and "read_at" in answer:
                record = (answer["key"], table.gid, new_seq, sent, answer["read_at"], arrived)
                step.records.append(record)
            step.delays.append(arrived - slot)
            step.done += 1
            step.last_done = time.perf_counter()

    async def submit(self, table: Table) -> tuple[dict[str, Any] | None, float]:
        """Send the next move (a draw; in Rummy 45 a draw or a discard) for the seat whose turn
        it is: (the answer, or None on a failure; when)."""
        if SUBMIT == "socket":
            return await self.submit_on_socket(table)
        step = self.step
        seat = table.seats[table.turn]
        action, fields = self.next_move(table)
        body = json.dumps({**fields, "expected_seq": table.seq, "key": uuid.uuid4().hex}).encode()
        headers = {
            "Cookie": seat.cookie(),
            "X-CSRFToken": seat.csrf,
            "Origin": f"https://{HOST}:{table.port}",
            "Content-Type": "application/json",
        }
        step.sent += 1
        sent = time.perf_counter()
        try:
            status, _, data = await self.clients[table.port].request(
                "POST", f"/api/games/{table.gid}/{action}", headers, body
            )
        except (OSError, asyncio.IncompleteReadError, HttpError) as error:
            step.errors[type(error).__name__] += 1
            return None, sent
        step.answers.append(time.perf_counter() - sent)
        try:
            answer = json.loads(data)
        except ValueError:
            answer = {"error": "not_json"}
        if status != 200:
            answer = {"status": status, "error": "unknown", **answer}
        return answer, sent

    async def submit_on_socket(self, table: Table) -> tuple[dict[str, Any] | None, float]:
        """Send the move as an "act" message on the mover's socket; its answer comes back there."""
        step = self.step
        seat = table.seats[table.turn]
        key = uuid.uuid4().hex
        action, fields = self.next_move(table)
        message = {"type": "act", "action": action, **fields, "expected_seq": table.seq, "key": key}
        answered = asyncio.get_running_loop().create_future()
        self.answers[key] = answered
        step.sent += 1
        sent = time.perf_counter()
        try:
            if seat.ws is None:
                raise ConnectionError("no socket")
            await seat.ws.send(json.dumps(message))
            answer = await asyncio.wait_for(answered, FRAME_TIMEOUT_S)
        except (OSError, ConnectionClosed, TimeoutError) as error:
            self.answers.pop(key, None)
            step.errors[type(error).__name__] += 1
            return None, sent
        step.answers.append(time.perf_counter() - sent)
        return answer, sent

    async def run_step(self, pace: float, seconds: float, drain_s: float = 10.0) -> dict[str, Any]:
        """Offer ``pace`` moves/s for ``seconds``, wait for the stragglers, and report."""
        self.step = step = Step(pace)
        live = [t for t in self.tables if not t.finished]
        loop = asyncio.get_running_loop()
        # The collector waits for the step's end: the step's garbage is a few MB, and a
        # collection in it would hold the frames' reads (GcPauses). One now, before the window.
        gc.collect()
        gc.disable()
        cpu_before = self.cpu_ticks()
        database_before = database_ticks()
        system_before = system_cpu()
        waits_before = self.run_queue_waits()
        harness_before = time.process_time()
        self.rss_peak = dict.fromkeys(self.pids, 0)
        self.pss_peak = dict.fromkeys(self.pids, 0)
        sampler = asyncio.create_task(self.sample_rss())
        harness_gc = GcPauses().start()
        tasks: set[asyncio.Task[None]] = set()
        start = loop.time() + 0.05
        wall = time.perf_counter()
        started_at = time.time()
        count = int(pace * seconds)
        overloaded = False
        for i in range(count):
            slot_at = start + i / pace
            delay = slot_at - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            if len(tasks) > pace * OVERLOAD_BACKLOG_S:
                # Seconds of moves are waiting: the server cannot keep this pace, and the rest
                # of the step would only grow the queue. Stop offering; the step has failed.
                overloaded = True
                count = i
                break
            slot = time.perf_counter() + (slot_at - loop.time())
            task = asyncio.create_task(self.move(live[i % len(live)], slot))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        offered_s = time.perf_counter() - wall
        if tasks:
            await asyncio.wait(set(tasks), timeout=drain_s + FRAME_TIMEOUT_S)
        elapsed = time.perf_counter() - wall
        unfinished = len(tasks)
        for task in list(tasks):  # not to spill into the next step
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        behind = await self.settle()
        cpu_after = self.cpu_ticks()
        database_after = database_ticks()
        system_after = system_cpu()
        waits_after = self.run_queue_waits()
        harness_cpu = time.process_time() - harness_before
        harness_gc.stop()
        gc.enable()
        window = time.perf_counter() - wall
        sampler.cancel()
        if overloaded or unfinished:
            await asyncio.sleep(COOL_DOWN_S)  # let the server finish what it was sent
        server_cpu_s = {p: (cpu_after[p] - cpu_before[p]) / CLOCK_TICK for p in self.pids}
        database_cpu_s = (database_after - database_before) / CLOCK_TICK
        return {
            "pace": pace,
            # Seconds since the epoch: to match what the servers recorded to the step.
            "window": [round(started_at, 3), round(started_at + window, 3)],
            "offered_moves": count,
            "stopped_overloaded": overloaded,
            "offered_seconds": round(offered_s, 2),
            "moves_done": step.done,
            "moves_per_s": round(step.done / elapsed, 1),
            # What the server got through while it was kept busy: its throughput when saturated.
            "moves_per_s_while_busy": (
                round(step.done / (step.last_done - wall), 1) if step.done else 0.0
            ),
            "unfinished_moves": unfinished,
            "queued_behind_own_game": step.queued,
            "latency_ms": {
                "p50": ms(percentile(step.latencies, 50)),
                "p95": ms(percentile(step.latencies, 95)),
                "p99": ms(percentile(step.latencies, 99)),
                "max": ms(max(step.latencies, default=None)),
            },
            "post_answer_ms": {
                "p50": ms(percentile(step.answers, 50)),
                "p99": ms(percentile(step.answers, 99)),
            },
            "slot_to_last_frame_p99_ms": ms(percentile(step.delays, 99)),
            "lost_frames": step.gaps + behind,
            "gaps": step.gaps,
            "missing_events": step.missing_events,
            "sockets_behind_at_end": behind,
            "moves_late_over_5s": step.late_moves,
            "duplicate_frames": step.duplicates,
            "gap_samples": step.gap_samples,
            "stale_resynced": step.stale,
            "closed_sockets": step.closed_sockets,
            "errors": dict(step.errors),
            "frames": step.frames,
            "mean_frame_bytes": round(step.frame_bytes / step.frames) if step.frames else 0,
            "server_rss_peak_mb": {str(p): round(v / 1024, 1) for p, v in self.rss_peak.items()},
            "server_rss_peak_total_mb": round(sum(self.rss_peak.values()) / 1024, 1),
            "server_pss_peak_total_mb": round(sum(self.pss_peak.values()) / 1024, 1),
            "server_cpu_percent": {
                str(p): round(100 * cpu / window, 1) for p, cpu in server_cpu_s.items()
            },
            "server_cpu_ms_per_move": (
                round(1000 * sum(server_cpu_s.values()) / step.done, 1) if step.done else None
            ),
            "harness_cpu_percent": round(100 * harness_cpu / window, 1),
            "harness_gc": harness_gc.report(),
            # The whole machine's share of a move: what the harness and PostgreSQL cost beside
            # the servers (comparable across runs even when the machine's speed is not).
            "harness_cpu_ms_per_move": (
                round(1000 * harness_cpu / step.done, 2) if step.done else None
            ),
            "database_cpu_ms_per_move": (
                round(1000 * database_cpu_s / step.done, 2) if step.done else None
            ),
            "machine_cpu_busy_percent": round(
                100
                * (1 - (system_after[1] - system_before[1]) / (system_after[0] - system_before[0])),
                1,
            ),
            "machine_steal_percent": round(
                100 * (system_after[2] - system_before[2]) / (system_after[0] - system_before[0]),
                2,
            ),
            # How long each side's threads had work but waited for a core (ms a second): a
            # move's tail grows with it when other work on the same cores takes them.
            **({"move_records": step.records} if STAGES else {}),
            "run_queue_wait_ms_per_s": {
                name: round((waits_after[name] - waits_before[name]) / 1e6 / window, 1)
                for name in waits_before
            },
        }

    async def settle(self, timeout: float = FRAME_TIMEOUT_S) -> int:
        """Wait for every socket to reach its game's seq; return how many never did."""
        deadline = time.perf_counter() + timeout
        while True:
            behind = sum(1 for t in self.tables for s in t.seats if s.last_seq < t.seq)
            if not behind or time.perf_counter() > deadline:
                return behind
            await asyncio.sleep(0.1)

    # Server figures

    async def sample_rss(self) -> None:
        samples = 0
        while True:
            for pid in self.pids:
                self.rss_peak[pid] = max(self.rss_peak[pid], rss_kb(pid))
                if samples % 4 == 0:  # smaps_rollup walks the page tables: once a second
                    self.pss_peak[pid] = max(self.pss_peak[pid], pss_kb(pid))
            samples += 1
            await asyncio.sleep(0.25)

    def cpu_ticks(self) -> dict[int, int]:
        return {pid: cpu_ticks(pid) for pid in self.pids}

    def run_queue_waits(self) -> dict[str, int]:
        """Nanoseconds waited for a core so far: by the servers, this harness, Redis, the
        database's processes, and every task of the machine."""
        return {
            "servers": run_queue_wait_ns(self.pids),
            "harness": run_queue_wait_ns([os.getpid()]),
            "redis": run_queue_wait_ns(pids_named("redis-server")),
            "database": run_queue_wait_ns(pids_named("postgres")),
            "machine": machine_run_queue_wait_ns(),
        }

    async def close(self) -> None:
        for table in self.tables:
            for seat in table.seats:
                if seat.ws is not None:
                    await seat.ws.close()
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        for client in self.clients.values():
            await client.close()


def rss_kb(pid: int) -> int:
    """VmRSS of a process in kB (0 once it is gone)."""
    return _proc_kb(f"/proc/{pid}/status", "VmRSS:")


def pss_kb(pid: int) -> int:
    """Proportional set size in kB (pages shared with other processes split between them),
    the fair measure of what several server processes take together; 0 once it is gone."""
    return _proc_kb(f"/proc/{pid}/smaps_rollup", "Pss:")


def _proc_kb(path: str, field: str) -> int:
    """The kB figure on the line of ``path`` that starts with ``field`` (0 if unreadable)."""
    try:
        with open(path) as lines:
            for line in lines:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_ticks(pid: int) -> int:
    """User + system CPU time of a process, in clock ticks."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except OSError:
        return 0


def database_ticks() -> int:
    """User + system CPU time of every PostgreSQL process on this machine, in clock ticks
    (the server and its backends; connections that closed during a step are not counted)."""
    total = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/comm") as comm:
                    if comm.read().strip() != "postgres":
                        continue
            except OSError:
                continue
            total += cpu_ticks(int(entry.name))
    return total


def run_queue_wait_ns(pids: Sequence[int]) -> int:
    """Nanoseconds the threads of ``pids`` have spent ready to run but waiting for a core
    (``/proc/<pid>/task/<tid>/schedstat``, its second field; threads that ended are not
    counted)."""
    total = 0
    for pid in pids:
        try:
            tasks = list(os.scandir(f"/proc/{pid}/task"))
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"{task.path}/schedstat") as stat:
                    total += int(stat.read().split()[1])
            except (OSError, IndexError, ValueError):
                continue
    return total


def machine_run_queue_wait_ns() -> int:
    """Nanoseconds every thread of the machine has waited for a core (tasks that ended are not
    counted)."""
    return run_queue_wait_ns([int(e.name) for e in os.scandir("/proc") if e.name.isdigit()])


def pids_named(*names: str) -> list[int]:
    """The processes on this machine whose command name is one of ``names``."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/comm") as comm:
                    if comm.read().strip() in names:
                        found.append(int(entry.name))
            except OSError:
                continue
    return found


def system_cpu() -> tuple[int, int, int]:
    """(all ticks, idle + iowait ticks, steal ticks) of the whole machine. Steal is the time
    the hypervisor ran something else while this machine had work for its cores: on a shared
    host it comes in bursts, and a step that lost its cores for a moment has a tail that says
    nothing about the code."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    return sum(values), values[3] + values[4], values[7] if len(values) > 7 else 0


async def run_load(
    games: list[dict[str, Any]],
    ports: Sequence[int],
    pids: Sequence[int],
    pace: float,
    faster: Sequence[float],
    slower: Sequence[float],
    seconds: float,
    target_p99_ms: float,
    warmup: tuple[float, float] = (20.0, 5.0),
    log: Any = print,
    mode: str = "parlor",
    profiled: bool = False,
) -> dict[str, Any]:
    """Connect every seat, warm up, run ``pace``; then go faster until a step fails the target
    (p99, lost frames, errors), or, if ``pace`` failed, slower until one passes. ``mode`` is the
    games' (``r45``: Rummy 45 tables, played as the module docstring says); ``profiled``: the
    servers run under benchmarks/profile_web.py, told to start their profiles after warm-up."""
    harness = Harness(games, ports, pids, mode)
    try:
        # Profiled servers are several times slower: fewer handshakes at once, or daphne's
        # handshake timeout refuses them.
        connected = await harness.connect_all(concurrency=8 if profiled else 50)
        connected["submit"] = SUBMIT
        log(f"  {connected['sockets']} sockets open in {connected['seconds']} s; moves by {SUBMIT}")
        rss_connected = {str(p): round(rss_kb(p) / 1024, 1) for p in pids}
        await harness.run_step(*warmup)
        if profiled:
            # They start their profiles again here, so that the profiles hold the measured
            # steps only, not the connecting and warming up.
            for pid in pids:
                os.kill(pid, signal.SIGUSR1)
        steps = []

        async def step(moves_per_s: float) -> bool:
            result = await harness.run_step(moves_per_s, seconds)
            steps.append(result)
            lat = result["latency_ms"]
            log(
                f"  {moves_per_s:>5.0f} moves/s: done {result['moves_per_s']}/s, p50 {lat['p50']}"
                f" p95 {lat['p95']} p99 {lat['p99']} ms, lost {result['lost_frames']}, errors "
                f"{sum(result['errors'].values())}, rss {result['server_rss_peak_total_mb']} MB "
                f"(pss {result['server_pss_peak_total_mb']}), "
                f"cpu {result['server_cpu_percent']} (machine "
                f"{result['machine_cpu_busy_percent']}%, harness {result['harness_cpu_percent']}%);"
                f" CPU ms/move: servers {result['server_cpu_ms_per_move']}, database "
                f"{result['database_cpu_ms_per_move']}, harness {result['harness_cpu_ms_per_move']}"
                + (" [overloaded: stopped early]" if result["stopped_overloaded"] else "")
            )
            return passes(result, target_p99_ms)

        if await step(pace):
            for moves_per_s in faster:
                if not await step(moves_per_s):
                    break
        else:
            for moves_per_s in slower:
                if await step(moves_per_s):
                    break
        return {"connect": connected, "rss_after_connect_mb": rss_connected, "steps": steps}
    finally:
        await harness.close()


def passes(step: dict[str, Any], target_p99_ms: float) -> bool:
    p99 = step["latency_ms"]["p99"]
    return (
        p99 is not None
        and p99 < target_p99_ms
        and step["lost_frames"] == 0
        and not step["errors"]
        and not step["stopped_overloaded"]
        and step["moves_done"] >= 0.99 * step["offered_moves"]
    )
