"""Socket density: 10,000 idle sockets on 2 daphne processes beside the live bench's games
(issue: live performance, "socket density").

The live bench's 250 four-seat tables (1,000 sockets, moves by socket) run a step at 100 moves/s;
then 10,000 idle sockets open (spectators of other seated games that do not move: what watchers and
players waiting on other tables hold; each keeps its socket alive as its hello says, as an open
board does: a watcher's (``ping_s`` 0) sends nothing and hears the web process's beat every 55 s
(rummi_site/pings.py); a hello with a ``ping_s`` has it send the board's ping that often, the
first no later than ``ping_s`` after its hello, and read its pong, the pings spread evenly over
the interval, see ``board_pings``;
they live in a process of their own, apart from the harness that times the moves), and the same step
runs twice; then the idle sockets close. That cycle runs ``RUMMI_BENCH_SOCKETS_CYCLES`` times (3),
and a last step without them ends the run (without, with, with, without, with, with, ..., without:
the machine's drift weighs on both sides; on this shared 2-core machine one step's p99 differs from
the next by up to a quarter with nothing changed, so one cycle decides little). Reports the servers'
RSS before and after the idle sockets, the memory a socket costs, and the moves' p99 with and
without them (the mean of each side's steps), with each cycle's growth, the cycles' mean growth
and its standard error, and the growth of the median step. Targets: all 10,000 in at
most 1 GB RSS over both processes, and the p99 within 10% of the steps without them.

Also measures the servers' CPU over ``RUMMI_BENCH_SOCKETS_QUIET`` seconds (10) with no move
made, before and with the idle sockets: what holding them costs by itself.

Needs PostgreSQL and Redis (as benchmarks/bench_live.py, whose database, settings and daphne
processes it uses). ``RUMMI_BENCH_SOCKETS_IDLE`` (10000), ``RUMMI_BENCH_SOCKETS_PACE`` (100),
``RUMMI_BENCH_SOCKETS_BOARD_PING`` (seconds between an idle socket's pings instead of its
hello's ``ping_s``; 0: silent), ``RUMMI_BENCH_SOCKETS_CROWD`` (``idle``: the idle sockets'
process runs under SCHED_IDLE once they are open, see ``CROWD_POLICY``; ``normal``),
``RUMMI_BENCH_SOCKETS_HOLDER`` (``site``; ``bare``: the control, the idle sockets held by 2 bare
processes of their own instead of the site's; ``both``: the two by turns, cycle by cycle, and
compared; see ``HOLDER``), ``RUMMI_BENCH_LIVE_SECONDS`` (20 s a step).
"""

from __future__ import annotations

import asyncio
import base64
import heapq
import json
import multiprocessing
import os
import resource
import secrets
import statistics
import time
from multiprocessing.connection import Connection
from typing import Any

from rummi_site import pings

from . import bench_live as live
from . import socket_holder
from .live_harness import CLOCK_TICK, HOST, Harness, cpu_ticks, percentile, rss_kb

IDLE = int(live.setting("RUMMI_BENCH_SOCKETS_IDLE", "10000"))
PACE = float(live.setting("RUMMI_BENCH_SOCKETS_PACE", "100"))
PER_GAME = 20  # idle sockets on each idle game
# As the board does (static/kit/client.js), each idle socket sends {"type":"ping"} as often as
# its hello says (``ping_s``; a watcher's says 0: it sends nothing and hears the beat) and reads
# its pong. A number of seconds here pings that often instead; 0 leaves them silent.
BOARD_PING = live.setting("RUMMI_BENCH_SOCKETS_BOARD_PING", "hello")
CONNECTING = 25  # idle sockets connecting at once
# The crowd (the idle sockets' process) stands for 10,000 browsers on other machines. Here it
# shares the 2 cores with the servers, the database and the harness, and every ping it sends
# takes a core from them for a moment: a cost of this machine, not of the servers. With "idle"
# (the default) the crowd runs under Linux's SCHED_IDLE policy once its sockets are open, on
# CPU nobody else wants, so that what is measured is what holding the sockets costs the
# servers; "normal" leaves it as any process (the old figures).
CROWD_POLICY = live.setting("RUMMI_BENCH_SOCKETS_CROWD", "idle")
if CROWD_POLICY not in ("idle", "normal"):
    raise SystemExit(f"RUMMI_BENCH_SOCKETS_CROWD={CROWD_POLICY!r}: use idle or normal")
# Who holds the idle sockets: the site's 2 daphne processes ("site"), or, as a control, 2 bare
# processes of their own (benchmarks/socket_holder.py, "bare"): the site then holds none while
# the crowd and the kernel still work for them on the same cores, so the growth such a run shows
# is the machine's, not the site's. "both" takes turns, cycle by cycle (site first), and also
# compares the steps with the site holding them against the steps with the bare holders.
HOLDER = live.setting("RUMMI_BENCH_SOCKETS_HOLDER", "site")
if HOLDER not in ("site", "bare", "both"):
    raise SystemExit(f"RUMMI_BENCH_SOCKETS_HOLDER={HOLDER!r}: use site, bare or both")
# Cycles of steps without and with the idle sockets (CYCLES); each opens them anew.
_CYCLES = live.setting("RUMMI_BENCH_SOCKETS_CYCLES", "3")
if not _CYCLES.isdigit() or int(_CYCLES) < 1:
    raise SystemExit(f"RUMMI_BENCH_SOCKETS_CYCLES={_CYCLES!r}: use a whole number, 1 or more")
CYCLES = int(_CYCLES)
TARGET_MB = 1024.0
TARGET_P99_GROWTH = 0.10
# Steps with less of the machine stolen by the hypervisor than this (percent) make the
# low-steal figure.
STEAL_LIMIT = 1.0


def ping_every(hello: dict[str, Any]) -> float:
    """How often an idle socket pings: as its hello says, unless the bench is told otherwise."""
    return float(hello["ping_s"]) if BOARD_PING == "hello" else float(BOARD_PING)


class IdleBoard(asyncio.Protocol):
    """One idle board's socket as a browser holds it, with no websocket library: the handshake,
    the hello (for its ``ping_s``), then only its pings written and the frames that come back
    read. The crowd stands for 10,000 browsers on other machines but shares this one's 2 cores
    with the servers it measures: through the ``websockets`` client each ping and its pong cost
    the crowd about 0.28 ms of CPU (56 ms a second for 200 pings a second), here a few
    microseconds, so that what the bench measures is the servers' cost of the sockets."""

    def __init__(self, host: str, port: int, path: str) -> None:
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}"
            f"\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{host}:{port}\r\n\r\n"
        ).encode()
        self.hello: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.closed = asyncio.get_running_loop().create_future()
        self.buffer = b""
        self.upgraded = False
        self.transport: asyncio.Transport | None = None
        self.pongs = 0
        self.server_pings = 0  # protocol pings (daphne's, before the beat), answered
        self.beats = 0  # the web process's beats (rummi_site/pings.py)
        self.ping_s = 0.0  # from its hello
        self.hello_at = 0.0  # the loop's time when its hello came

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.upgraded:
            head, found, rest = self.buffer.partition(b"\r\n\r\n")
            if not found:
                return
            if not head.startswith(b"HTTP/1.1 101"):
                status = head.split(b"\r\n", 1)[0]
                self._fail(f"handshake refused: {status!r}")
                return
            self.upgraded, self.buffer = True, rest
        for opcode, payload in self._frames():
            if opcode == 0x1 and not self.hello.done():
                self.hello_at = asyncio.get_running_loop().time()
                self.hello.set_result(json.loads(payload))
            elif opcode == 0x1 and payload == PONG:
                self.pongs += 1
            elif opcode == 0x1 and payload == BEAT:
                self.beats += 1
            elif opcode == 0x9:  # the server's protocol ping: a browser answers it
                self.server_pings += 1
                self.send(0xA, payload)
            elif opcode == 0x8 and self.transport is not None:
                self.transport.close()

    def _frames(self) -> list[tuple[int, bytes]]:
        """The whole frames in the buffer (a server's frames are unmasked), taken out of it."""
        frames, buffer = [], self.buffer
        while len(buffer) >= 2:
            size, start = buffer[1] & 0x7F, 2
            if size == 126:
                size, start = int.from_bytes(buffer[2:4], "big"), 4
            elif size == 127:
                size, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + size:
                break
            frames.append((buffer[0] & 0x0F, buffer[start : start + size]))
            buffer = buffer[start + size :]
        self.buffer = buffer
        return frames

    def send(self, opcode: int, payload: bytes) -> None:
        """A final frame, masked as a browser's are (payloads under 126 bytes)."""
        if self.transport is None or self.transport.is_closing():
            return
        mask = os.urandom(4)
        key = int.from_bytes((mask * (len(payload) // 4 + 1))[: len(payload)], "big")
        masked = (int.from_bytes(payload, "big") ^ key).to_bytes(len(payload), "big")
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def _fail(self, why: str) -> None:
        if not self.hello.done():
            self.hello.set_exception(ConnectionError(why))
        if self.transport is not None:
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail("closed before its hello")
        if not self.closed.done():
            self.closed.set_result(None)

    @property
    def open(self) -> bool:
        return self.transport is not None and not self.transport.is_closing()


# The board's ping and its answer, as the site defines them.
PING = pings.PING.encode()
PONG = pings.PONG.encode()
BEAT = pings.BEAT.encode()


async def open_idle(gids: list[str], ports: list[int], count: int) -> tuple[list[IdleBoard], int]:
    """``count`` spectator sockets, ``PER_GAME`` to a game, alternating servers; each is kept
    open (its hello read) and otherwise left alone. Also how many connects were refused and
    tried again (a connect storm's refusals)."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(CONNECTING)
    sockets: list[IdleBoard] = []
    refused: list[str] = []

    async def one(n: int) -> None:
        gid, port = gids[n // PER_GAME], ports[n % len(ports)]
        async with gate:
            for attempt in range(5):  # as a browser does, it tries again after a refusal
                board = None
                try:
                    _, board = await loop.create_connection(
                        lambda: IdleBoard(HOST, port, f"/ws/games/{gid}/"), HOST, port
                    )
                    hello = await asyncio.wait_for(board.hello, 120)
                except (OSError, TimeoutError) as error:
                    if board is not None and board.transport is not None:
                        board.transport.abort()  # no hello in time: not left open
                    refused.append(f"{type(error).__name__}: {error}")
                    await asyncio.sleep(0.5 * 2**attempt)
                    continue
                if hello.get("type") != "hello":
                    raise RuntimeError(f"idle socket got {hello.get('type')!r} first")
                board.ping_s = ping_every(hello)
                sockets.append(board)
                return
            raise RuntimeError(f"an idle socket was refused 5 times: {refused[-5:]}")

    await asyncio.gather(*(one(n) for n in range(count)))
    return sockets, len(refused)


# Seconds from the last idle socket's connect to the measures with them open.
SETTLE_S = 12.0
# Seconds without moves over which the servers' own CPU is measured.
QUIET_S = float(live.setting("RUMMI_BENCH_SOCKETS_QUIET", "10"))


async def quiet_cpu_ms_per_s(pids: list[int]) -> float:
    """The servers' CPU, ms a second over both, while no move is made: what holding the open
    sockets costs by itself."""
    before = {p: cpu_ticks(p) for p in pids}
    await asyncio.sleep(QUIET_S)
    spent = sum(cpu_ticks(p) - before[p] for p in pids) / CLOCK_TICK
    return round(1000 * spent / QUIET_S, 1)


def rss_mb(pids: list[int]) -> dict[str, float]:
    return {str(p): round(rss_kb(p) / 1024, 1) for p in pids}


def pooled(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Steps at the same pace taken as one: the mean of their p50, p99 and server CPU a move
    (each step's own figures are kept beside)."""

    def mean(values: list[float | None]) -> float | None:
        known = [v for v in values if v is not None]
        return round(sum(known) / len(known), 2) if len(known) == len(values) else None

    return {
        "p50_ms": mean([s["latency_ms"]["p50"] for s in steps]),
        "p99_ms": mean([s["latency_ms"]["p99"] for s in steps]),
        "done_per_s": mean([s["moves_per_s"] for s in steps]),
        "server_cpu_ms_per_move": mean([s["server_cpu_ms_per_move"] for s in steps]),
        # Who waited for a core, and how long (ms a second; benchmarks/live_harness.py).
        "run_queue_wait_ms_per_s": {
            name: mean([s["run_queue_wait_ms_per_s"][name] for s in steps])
            for name in (steps[0]["run_queue_wait_ms_per_s"] if steps else {})
        },
        "steps": [
            {
                "p50_ms": s["latency_ms"]["p50"],
                "p99_ms": s["latency_ms"]["p99"],
                "server_cpu_ms_per_move": s["server_cpu_ms_per_move"],
                "max_ms": s["latency_ms"]["max"],
                "harness_gc": s["harness_gc"],
                "machine_cpu_busy_percent": s["machine_cpu_busy_percent"],
                "machine_steal_percent": s["machine_steal_percent"],
                "harness_cpu_percent": s["harness_cpu_percent"],
                "run_queue_wait_ms_per_s": s["run_queue_wait_ms_per_s"],
                "post_answer_ms": s["post_answer_ms"],
                "slot_to_last_frame_p99_ms": s["slot_to_last_frame_p99_ms"],
                "window": s["window"],
                **({"move_records": s["move_records"]} if "move_records" in s else {}),
            }
            for s in steps
        ],
    }


async def board_pings(idle: list[IdleBoard], every: float, sent: list[int]) -> None:
    """Each idle socket's board ping every ``every`` seconds, spread evenly over the interval
    from now, as the pings of boards opened at different moments are, and each first one no
    later than the board's own (static/kit/client.js pings ``every`` after the hello); the web
    process beats a socket only before its first ping (the crowd counts the beats it gets). The
    interval's even slots go to the sockets in the order of their hellos. The bench opens its
    sockets in some 20 s, not over minutes as watchers come: pinging each ``every`` after its
    hello, as a board does, would send them in the bursts they opened in (25 at a time), which
    cost the servers a seventh of as many pings apart (each one on its own is a wake of the
    event loop). ``sent``: [pings sent, pongs read] (the pongs counted as they come, by each
    socket).
    """
    if not every or not idle:
        return
    loop = asyncio.get_running_loop()
    start = loop.time()
    by_hello = sorted(range(len(idle)), key=lambda n: idle[n].hello_at)
    due = [
        (min(start + every * k / len(idle), idle[n].hello_at + every), n)
        for k, n in enumerate(by_hello)
    ]
    heapq.heapify(due)
    while True:
        when, n = heapq.heappop(due)
        delay = when - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        board = idle[n]
        if board.open:
            board.send(0x1, PING)
            sent[0] += 1
        heapq.heappush(due, (when + every, n))


def crowd(conn: Connection, gids: list[str], ports: list[int], count: int) -> None:
    """The idle sockets' own process: open them, ping as boards do until told to close, close
    them. Apart from the harness, so that their connects, pings and pongs do not delay the
    moving tables' frames in the harness's event loop, as they would not in 10,000 browsers."""

    async def run() -> None:
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        try:
            idle, refused = await open_idle(gids, ports, count)
        except Exception as error:  # told to the parent, which stops the bench with it
            conn.send({"error": f"{type(error).__name__}: {error}"})
            return
        opened_s = round(time.perf_counter() - started, 1)
        intervals = sorted({board.ping_s for board in idle})
        if CROWD_POLICY == "idle":
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        conn.send({"open": len(idle), "refused": refused, "seconds": opened_s, "ping_s": intervals})
        sent = [0, 0]  # pings sent, pongs read
        pingers = [
            asyncio.create_task(board_pings([b for b in idle if b.ping_s == every], every, sent))
            for every in intervals
        ]
        cpu, wall = time.process_time(), time.perf_counter()
        await loop.run_in_executor(None, conn.recv)  # "close"
        for pinger in pingers:
            pinger.cancel()
        cpu_ms_per_s = 1000 * (time.process_time() - cpu) / (time.perf_counter() - wall)
        still_open = sum(1 for board in idle if board.open)
        sent[1] = sum(board.pongs for board in idle)
        for board in idle:  # the close a browser sends when its page goes: 1000, normal
            board.send(0x8, (1000).to_bytes(2, "big"))
        await asyncio.wait([board.closed for board in idle], timeout=30)
        closed = {
            "still_open": still_open,
            "pings": sent,
            "server_pings": sum(board.server_pings for board in idle),
            "beats": sum(board.beats for board in idle),
            "cpu_ms_per_s": round(cpu_ms_per_s, 1),
        }
        conn.send(closed)

    asyncio.run(run())


async def open_crowd(
    idle_gids: list[str], ports: list[int]
) -> tuple[multiprocessing.process.BaseProcess, Connection, dict[str, Any]]:
    """A crowd process with its ``IDLE`` sockets open, its pipe, and what it said of them."""
    loop = asyncio.get_running_loop()
    context = multiprocessing.get_context("spawn")
    here, there = context.Pipe()
    process = context.Process(target=crowd, args=(there, idle_gids, ports, IDLE), daemon=True)
    process.start()
    opened = await loop.run_in_executor(None, here.recv)
    if "error" in opened:
        raise RuntimeError(f"the idle sockets failed to open: {opened['error']}")
    live.log(f"  {opened['open']} idle sockets open in {opened['seconds']} s (their own process)")
    return process, here, opened


def start_holders() -> list[tuple[multiprocessing.process.BaseProcess, Connection, int]]:
    """The control's 2 bare holders of the idle sockets (benchmarks/socket_holder.py), each
    with its pipe and its port."""
    context = multiprocessing.get_context("spawn")
    holders: list[tuple[multiprocessing.process.BaseProcess, Connection, int]] = []
    for _ in range(2):
        here, there = context.Pipe()
        process = context.Process(target=socket_holder.serve, args=(there, HOST), daemon=True)
        process.start()
        holders.append((process, here, here.recv()))
    return holders


def stop_holder(process: multiprocessing.process.BaseProcess, here: Connection) -> dict[str, Any]:
    """What a bare holder answered and spent, once it has stopped."""
    here.send("stop")
    said: dict[str, Any] = here.recv()
    process.join()
    return said


async def measure(
    games: list[dict[str, Any]], idle_gids: list[str], servers: list[tuple[int, int]]
) -> dict[str, Any]:
    """``CYCLES`` cycles of steps without, with, with the idle sockets (opened before the first
    step with them, closed after the second), then a last step without: a drift in the shared
    machine's load over the run weighs on both sides alike, and each side's p99 is the mean of
    its steps'. Memory and the quiet CPU are measured in the first cycle."""
    ports = [port for port, _ in servers]
    pids = [pid for _, pid in servers]
    harness = Harness(games, ports, pids)
    loop = asyncio.get_running_loop()
    holders = start_holders() if HOLDER != "site" else []
    bare_ports = [port for _, _, port in holders]
    # Who holds the idle sockets in each cycle.
    held_by = [
        "site" if HOLDER == "site" or (HOLDER == "both" and n % 2 == 0) else "bare"
        for n in range(CYCLES)
    ]
    crowds: list[tuple[multiprocessing.process.BaseProcess, Connection]] = []
    without: list[dict[str, Any]] = []
    with_idle: list[dict[str, Any]] = []
    cycles: list[dict[str, Any]] = []
    # Each step's latencies (seconds), beside its figures: pooled over a side below.
    moves_without: list[list[float]] = []
    moves_with: list[list[float]] = []

    async def step(side: list[dict[str, Any]], moves: list[list[float]]) -> None:
        side.append(await harness.run_step(PACE, live.STEP_SECONDS))
        moves.append(list(harness.step.latencies))

    try:
        await harness.connect_all()
        await harness.run_step(20.0, 5.0)  # warm up
        for cycle in range(CYCLES):
            await step(without, moves_without)
            if cycle == 0:
                quiet_before = await quiet_cpu_ms_per_s(pids)
                rss_before = rss_mb(pids)
            idle_ports = ports if held_by[cycle] == "site" else bare_ports
            process, here, opened = await open_crowd(idle_gids, idle_ports)
            crowds.append((process, here))
            # Let the servers settle what the connects made: each makes its full collection
            # once a timeout period (5 s) opens next to no socket (rummi_site/web.py
            # settle_after_burst), a pause of about half a second that is the burst's, not
            # what holding the sockets costs.
            await asyncio.sleep(SETTLE_S)
            if cycle == 0:
                first_open, rss_after = opened, rss_mb(pids)
                quiet_after = await quiet_cpu_ms_per_s(pids)
            for _ in range(2):
                await step(with_idle, moves_with)
            here.send("close")
            closed = await loop.run_in_executor(None, here.recv)
            process.join()
            await asyncio.sleep(5)  # the servers' disconnects (each leaves its group)
            cycles.append({"opened": opened, "closed": closed})
        await step(without, moves_without)
        held = [stop_holder(process, here) for process, here, _ in holders]
    finally:
        for process, _ in crowds:
            if process.is_alive():
                process.terminate()
            process.join()
        for process, _, _ in holders:
            if process.is_alive():
                process.terminate()
            process.join()
        await harness.close()
    total_before, total_after = sum(rss_before.values()), sum(rss_after.values())
    before, after = pooled(without), pooled(with_idle)
    p99_before, p99_after = before["p99_ms"], after["p99_ms"]
    # Each cycle's steps with the sockets against the steps without on either side of them.
    growth = [
        round(
            (with_idle[2 * n]["latency_ms"]["p99"] + with_idle[2 * n + 1]["latency_ms"]["p99"])
            / (without[n]["latency_ms"]["p99"] + without[n + 1]["latency_ms"]["p99"])
            - 1,
            3,
        )
        for n in range(CYCLES)
    ]
    return {
        "idle_sockets": IDLE,
        # "bare": the control, the site held none of them (its memory and quiet CPU below are
        # then without them), and what the bare holders answered and spent.
        "holder": HOLDER,
        **({"bare_holders": held} if holders else {}),
        **(
            by_holder(held_by, without, moves_without, with_idle, moves_with)
            if HOLDER == "both"
            else {}
        ),
        "cycles": CYCLES,
        "idle_open_at_end": [c["closed"]["still_open"] for c in cycles],
        # The idle sockets' board pings while they were open, and the pongs read.
        "board_ping_s": first_open["ping_s"],
        "board_pings_sent_and_answered": [
            sum(c["closed"]["pings"][i] for c in cycles) for i in range(2)
        ],
        # Protocol pings the idle sockets got (each answered; daphne's, before the beat), and
        # the beats: a socket that sends nothing (the hello's ping_s 0) gets one every 55 s.
        "protocol_pings_received": sum(c["closed"]["server_pings"] for c in cycles),
        "beats_received": sum(c["closed"]["beats"] for c in cycles),
        # The idle sockets' own process while they were open and pinging (the browsers' side).
        "crowd_cpu_ms_per_s": [c["closed"]["cpu_ms_per_s"] for c in cycles],
        "crowd_policy": CROWD_POLICY,
        "idle_open_seconds": [c["opened"]["seconds"] for c in cycles],
        "idle_connects_per_s": round(IDLE / first_open["seconds"], 1)
        if first_open["seconds"]
        else None,
        "idle_connects_refused_then_retried": sum(c["opened"]["refused"] for c in cycles),
        "rss_mb_before_idle": rss_before,
        "rss_mb_with_idle": rss_after,
        "rss_total_mb_with_idle": round(total_after, 1),
        "kb_per_idle_socket": round(1024 * (total_after - total_before) / IDLE, 1),
        # The servers' CPU with no move made, without and with the idle sockets open.
        "quiet_server_cpu_ms_per_s": {"without_idle": quiet_before, "with_idle": quiet_after},
        # Steps without, with, with, ..., without; the figures are each side's means.
        "moves": {"pace": PACE, "without_idle": before, "with_idle": after},
        "p99_growth": round(p99_after / p99_before - 1, 3) if p99_before and p99_after else None,
        "p99_growth_by_cycle": growth,
        # How far the figure can be trusted on a shared machine: the cycles' mean growth and its
        # standard error, and the growth of the median step's p99 (one slow step, from the
        # machine's other work, moves the mean of a side's steps but not its median).
        **growth_spread(growth),
        "p99_growth_median_steps": median_growth(
            [s["latency_ms"]["p99"] for s in without], [s["latency_ms"]["p99"] for s in with_idle]
        ),
        # Every move of a side as one sample (a step's p99 rests on its 30 slowest moves), and
        # the same over the steps the hypervisor stole under STEAL_LIMIT% of the machine from:
        # on this shared host a step's p99 follows the steal (docs/deploy.md, "Sockets").
        "p99_pooled": pooled_growth(moves_without, moves_with),
        "p99_low_steal": pooled_growth(
            low_steal(without, moves_without), low_steal(with_idle, moves_with)
        ),
        "meets_memory_target": total_after <= TARGET_MB,
        "meets_p99_target": bool(
            p99_before and p99_after and p99_after <= p99_before * (1 + TARGET_P99_GROWTH)
        ),
    }


def by_holder(
    held_by: list[str],
    without: list[dict[str, Any]],
    moves_without: list[list[float]],
    with_idle: list[dict[str, Any]],
    moves_with: list[list[float]],
) -> dict[str, Any]:
    """With ``HOLDER`` both: each holder's steps against the steps without (every move of a side
    pooled, and over the steps with little stolen), and the site's steps against the bare
    holders': what holding the sockets costs the site beyond what the crowd and the kernel cost
    the machine (a cycle's 2 steps with the sockets are held by ``held_by[cycle]``)."""
    steps = {h: [n for n in range(len(with_idle)) if held_by[n // 2] == h] for h in held_by}
    moves = {h: [moves_with[n] for n in ns] for h, ns in steps.items()}
    calm = {h: low_steal([with_idle[n] for n in ns], moves[h]) for h, ns in steps.items()}
    calm_without = low_steal(without, moves_without)
    return {
        "holder_by_cycle": held_by,
        "p99_pooled_by_holder": {h: pooled_growth(moves_without, m) for h, m in moves.items()},
        "p99_low_steal_by_holder": {h: pooled_growth(calm_without, m) for h, m in calm.items()},
        "p99_pooled_site_over_bare": pooled_growth(moves.get("bare", []), moves.get("site", [])),
        "p99_low_steal_site_over_bare": pooled_growth(calm.get("bare", []), calm.get("site", [])),
    }


def low_steal(steps: list[dict[str, Any]], moves: list[list[float]]) -> list[list[float]]:
    """The latencies of the steps with under ``STEAL_LIMIT``% of the machine stolen."""
    pairs = zip(steps, moves, strict=True)
    return [m for s, m in pairs if s["machine_steal_percent"] < STEAL_LIMIT]


def pooled_growth(without: list[list[float]], with_idle: list[list[float]]) -> dict[str, Any]:
    """Each side's moves pooled over its steps: how many steps and moves, their p99 (ms) and
    the growth with the idle sockets (None when a side has no step).

    >>> pooled_growth([[0.010] * 99 + [0.020]], [[0.011] * 99 + [0.030], [0.011] * 100])
    {'steps': [1, 2], 'moves': [100, 200], 'p99_ms': [10.0, 11.0], 'growth': 0.1}
    """
    p99 = [percentile([x for step in side for x in step], 99) for side in (without, with_idle)]
    ms = [round(1000 * v, 2) if v is not None else None for v in p99]
    return {
        "steps": [len(without), len(with_idle)],
        "moves": [sum(map(len, without)), sum(map(len, with_idle))],
        "p99_ms": ms,
        "growth": round(ms[1] / ms[0] - 1, 3) if ms[0] and ms[1] else None,
    }


def growth_spread(growth: list[float]) -> dict[str, float | None]:
    """The cycles' mean growth and its standard error (None from a single cycle).

    >>> growth_spread([0.1, 0.3])
    {'p99_growth_cycle_mean': 0.2, 'p99_growth_cycle_standard_error': 0.1}
    """
    error = statistics.stdev(growth) / len(growth) ** 0.5 if len(growth) > 1 else None
    return {
        "p99_growth_cycle_mean": round(statistics.mean(growth), 3),
        "p99_growth_cycle_standard_error": round(error, 3) if error is not None else None,
    }


def median_growth(without: list[float | None], with_idle: list[float | None]) -> float | None:
    """The growth of the median step's p99 with the idle sockets (None if a step had none).

    >>> median_growth([10.0, 11.0, 30.0], [12.0, 12.0, 13.0, 13.0])
    0.136
    """
    before = [v for v in without if v is not None]
    after = [v for v in with_idle if v is not None]
    if not before or not after or len(before) < len(without) or len(after) < len(with_idle):
        return None
    return round(statistics.median(after) / statistics.median(before) - 1, 3)


def stalls_by_step(result: dict[str, Any], files: list[Any]) -> None:
    """Add to each step what held the servers' event loops (benchmarks/stalls_web.py): the
    long callbacks in its window, their total and the names that took most."""
    stalls = []
    for path in files:
        stalls += json.loads(path.read_text())["stalls"]
    for side in ("without_idle", "with_idle"):
        for step in result["moves"][side]["steps"]:
            start, end = step["window"]
            inside = [s for s in stalls if start <= s[0] <= end]
            by_name: dict[str, list[float]] = {}
            for _, spent, name in inside:
                by_name.setdefault(name, []).append(spent)
            top = sorted(by_name.items(), key=lambda item: -sum(item[1]))[:6]
            step["stalls"] = {
                "count": len(inside),
                "total_ms": round(sum(s[1] for s in inside), 1),
                "max_ms": max((s[1] for s in inside), default=0.0),
                "top": [
                    {"name": n, "count": len(v), "total_ms": round(sum(v), 1), "max_ms": max(v)}
                    for n, v in top
                ],
            }


# A socket move's stages, in order: they add up to its latency (sent -> last frame read).
STAGES = ("to_server", "to_consumer", "to_thread", "service", "to_frames", "frame_read")


def move_stages(
    record: list[Any], stamps: list[Any], written: float | None
) -> dict[str, float] | None:
    """A move's time by stage (ms), from the harness's record (key, gid, seq, sent, answer
    read, last frame read), the server's stamps (gid, frame read, consumer, service start and
    end, answer written; benchmarks/stages_web.py) and when its last frame was written; None if
    a stamp is missing.

    >>> stamps = ["g", 0.001, 0.002, 0.003, 0.006, 0.008]
    >>> list(move_stages(["k", "g", 3, 0.0, 0.009, 0.010], stamps, 0.0085).values())
    [1.0, 1.0, 1.0, 3.0, 2.5, 1.5]
    """
    sent, arrived = record[3], record[5]
    if written is None or any(s is None for s in stamps):
        return None
    points = [sent, stamps[1], stamps[2], stamps[3], stamps[4], written, arrived]
    return {name: round((points[i + 1] - points[i]) * 1000, 3) for i, name in enumerate(STAGES)}


def stage_summary(split: list[dict[str, float]]) -> dict[str, Any]:
    """Moves split by stage: each stage's p50 and p99, and its mean over the slowest 1% of the
    moves (what makes up their p99)."""
    totals = [sum(s.values()) for s in split]
    cut = percentile(totals, 99) or 0.0
    tail = [s for s, total in zip(split, totals, strict=True) if total >= cut]
    return {
        "moves": len(split),
        "latency_p99_ms": round(cut, 2),
        "p50_ms": {n: round(percentile([s[n] for s in split], 50) or 0.0, 3) for n in STAGES},
        "p99_ms": {n: round(percentile([s[n] for s in split], 99) or 0.0, 3) for n in STAGES},
        "slowest_1pct_mean_ms": {n: round(statistics.mean(s[n] for s in tail), 3) for n in STAGES},
    }


def stages_by_side(result: dict[str, Any], files: list[Any], out: Any) -> None:
    """Split the moves by stage (benchmarks/stages_web.py), step by step and over each side,
    with and without the idle sockets (``stage_summary``). The steps' own records leave the
    report; every move's stages go to ``out`` with its step's window, for a closer look."""
    moves: dict[str, list[Any]] = {}
    written: dict[tuple[str, int], float] = {}
    for path in files:
        record = json.loads(path.read_text())
        moves.update(record["moves"])
        for gid, seq, _, last in record["frames"]:
            written[(gid, seq)] = max(written.get((gid, seq), 0.0), last)
    report: dict[str, Any] = {}
    rows: dict[str, list[Any]] = {}
    for side in ("without_idle", "with_idle"):
        pooled_split: list[dict[str, float]] = []
        for step in result["moves"][side]["steps"]:
            split = []
            for record in step.pop("move_records", []):
                stamps = moves.get(record[0])
                if stamps is None:
                    continue
                stages = move_stages(record, stamps, written.get((record[1], record[2])))
                if stages is not None:
                    split.append(stages)
            if split:
                step["stages"] = stage_summary(split)
                pooled_split += split
            rows.setdefault(side, []).append(
                {"window": step["window"], "moves": [list(s.values()) for s in split]}
            )
        if pooled_split:
            report[side] = stage_summary(pooled_split)
    result["stages"] = report
    out.write_text(json.dumps({"stages": STAGES, "steps": rows}))


def main() -> dict[str, Any]:
    reason = live.unreachable()
    if reason:
        live.log(f"bench sockets skipped: {reason}")
        return {"skipped": reason}
    live.OUT.mkdir(parents=True, exist_ok=True)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # The harness holds every socket's client end; each daphne half of the server ends.
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < IDLE + 4 * live.GAMES + 1000:
        return {"skipped": f"the open-file limit ({hard}) is too low for {IDLE} idle sockets"}
    live.ensure_database()
    secret = secrets.token_urlsafe(50)
    env = live.site_env(secret)
    live.manage(env, "migrate", "--no-input", "-v", "0")
    live.manage(env, "collectstatic", "--no-input", "-v", "0")
    live.flush_redis()
    idle_games = -(-IDLE // PER_GAME)
    games_file = live.OUT / "sockets-games.json"
    live.manage(
        env, "benchsetup", "--reset", "--games", str(live.GAMES + idle_games),
        "--output", str(games_file),
    )  # fmt: skip
    seated = json.loads(games_file.read_text())["games"]
    moving, idle_gids = seated[: live.GAMES], [g["gid"] for g in seated[live.GAMES :]]
    try:
        with live.daphnes(2, env) as servers:
            live.log(f"  {live.GAMES} moving tables and {IDLE} idle sockets on 2 daphne processes")
            result = asyncio.run(measure(moving, idle_gids, servers))
    finally:
        live.flush_redis()
    if live.STALLS:
        stalls_by_step(result, [live.OUT / f"stalls-site-{n}.json" for n in range(2)])
    if live.STAGES:
        files = [live.OUT / f"stages-site-{n}.json" for n in range(2)]
        stages_by_side(result, files, live.OUT / "sockets-stages.json")
    live.log(
        f"  {result['rss_total_mb_with_idle']} MB with the idle sockets "
        f"({result['kb_per_idle_socket']} KB each); p99 at {PACE:.0f} moves/s "
        f"{result['moves']['without_idle']['p99_ms']} -> "
        f"{result['moves']['with_idle']['p99_ms']} ms; all moves pooled "
        f"{result['p99_pooled']['growth']}, steps under {STEAL_LIMIT}% stolen "
        f"{result['p99_low_steal']['growth']} ({result['p99_low_steal']['steps']} steps)"
    )
    return result
