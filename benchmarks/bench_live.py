"""Live games under load: 250 tables of 4 sockets on daphne, PostgreSQL and Redis (issue 4).

Creates (if missing) and migrates a bench database, seats 250 four-player games with guest
sessions (``manage.py benchsetup``), starts one and then two daphne processes with the
production settings, and runs benchmarks/live_harness.py against them: 1,000 sockets, moves
paced on a timer at 200 moves/s, then faster until the p99 from POST to the last viewer's frame
passes 100 ms (or, if 200 moves/s already fails, slower until a pace passes): the highest
passing pace is the ceiling. Also measures what a request pays for its database connection
(benchmarks/live_dbcost.py), and how busy the machine was before the run (other work on the
same cores lowers every figure).

Needs PostgreSQL and Redis; without them the result is ``{"skipped": reason}``. Environment:

- ``RUMMI_BENCH_DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/rummi_bench``)
- ``RUMMI_BENCH_REDIS_URL`` (default ``redis://127.0.0.1:6379/3``; the bench flushes that db)
- ``RUMMI_BENCH_LIVE_SETTINGS`` and ``RUMMI_BENCH_LIVE_ASGI``: measure a variant of the site
- ``RUMMI_BENCH_LIVE_GAMES`` (250), ``RUMMI_BENCH_LIVE_SECONDS`` (20 s a pace step),
  ``RUMMI_BENCH_LIVE_PACE`` (200 moves/s), ``RUMMI_BENCH_LIVE_FASTER`` (``300,400,500,600,800``),
  ``RUMMI_BENCH_LIVE_SLOWER`` (``150,100,75,50,30,20,10``),
  ``RUMMI_BENCH_LIVE_SERVERS`` (``1,2``: daphne processes per run)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .live_harness import passes, rss_kb, run_load, system_cpu

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "var" / "bench"
TARGET_P99_MS = 100.0
TARGET_RSS_MB = 250.0
DB_MODES = (
    "postgres_connect_per_request",
    "postgres_pool",
    "postgres_persistent",
    "sqlite_connect_per_request",
    "sqlite_persistent",
)


def setting(name: str, default: str) -> str:
    return os.environ.get(name) or default


DATABASE_URL = setting("RUMMI_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/rummi_bench")
REDIS_URL = setting("RUMMI_BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")
GAMES = int(setting("RUMMI_BENCH_LIVE_GAMES", "250"))
STEP_SECONDS = float(setting("RUMMI_BENCH_LIVE_SECONDS", "20"))
PACE = float(setting("RUMMI_BENCH_LIVE_PACE", "200"))
FASTER = [
    float(p) for p in setting("RUMMI_BENCH_LIVE_FASTER", "300,400,500,600,800").split(",") if p
]
SLOWER = [
    float(p) for p in setting("RUMMI_BENCH_LIVE_SLOWER", "150,100,75,50,30,20,10").split(",") if p
]
SERVERS = [int(n) for n in setting("RUMMI_BENCH_LIVE_SERVERS", "1,2").split(",")]
# To measure a variant without touching the site: another settings module or ASGI application.
SETTINGS = setting("RUMMI_BENCH_LIVE_SETTINGS", "rummi_site.settings")
ASGI_APP = setting("RUMMI_BENCH_LIVE_ASGI", "rummi_site.asgi:application")


def log(text: str) -> None:
    print(text, flush=True)


# The services


def admin_url(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/postgres"))


def unreachable() -> str | None:
    """Why the bench cannot run here, or None."""
    try:
        import psycopg

        with psycopg.connect(admin_url(DATABASE_URL), connect_timeout=3):
            pass
    except Exception as error:  # any failure means: no PostgreSQL to measure against
        return f"PostgreSQL is not reachable at {admin_url(DATABASE_URL)}: {error}".strip()
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_timeout=3, socket_connect_timeout=3).ping()
    except Exception as error:
        return f"Redis is not reachable at {REDIS_URL}: {error}".strip()
    return None


def ensure_database() -> None:
    import psycopg
    from psycopg import sql

    name = urlsplit(DATABASE_URL).path.lstrip("/")
    with psycopg.connect(admin_url(DATABASE_URL), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            log(f"  created database {name}")


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def site_env(secret: str) -> dict[str, str]:
    """The production settings, on the bench database and Redis."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": SETTINGS,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "RUMMI_DEBUG": "0",
        "SECRET_KEY": secret,
        "PYTHONUNBUFFERED": "1",
    }


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


# Daphne processes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def daphnes(count: int, env: dict[str, str]) -> Iterator[list[tuple[int, int]]]:
    """Start ``count`` daphne processes; yield [(port, pid)]; stop them whatever happens."""
    procs: list[tuple[int, subprocess.Popen[bytes]]] = []
    try:
        for _ in range(count):
            port = free_port()
            logfile = (OUT / f"live-daphne-{len(procs)}.log").open("wb")
            command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            # -v 0: no access log line per request (a proxy in front keeps that log);
            # --proxy-headers: trust X-Forwarded-Proto as from a TLS-terminating proxy.
            command += ["-v", "0", "--proxy-headers", ASGI_APP]
            proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=logfile, stderr=logfile)
            logfile.close()
            procs.append((port, proc))
        for port, proc in procs:
            wait_listening(port, proc)
        yield [(port, proc.pid) for port, proc in procs]
    finally:
        for _, proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for _, proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_listening(port: int, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"daphne on port {port} exited with {proc.returncode}; see var/bench"
            )
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"daphne on port {port} did not listen within {timeout} s")


# The measurements


def db_connection_costs() -> dict[str, Any]:
    """Per-request connection cost for each way Django can hold its database connection."""
    out: dict[str, Any] = {}
    for mode in DB_MODES:
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.live_dbcost", mode],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": DATABASE_URL},
            capture_output=True,
            text=True,
            timeout=300,
        )
        out[mode] = json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr}
    return out


def run_servers(count: int, secret: str) -> dict[str, Any]:
    env = site_env(secret)
    flush_redis()
    started = time.perf_counter()
    games_file = OUT / "live-games.json"
    manage(env, "benchsetup", "--reset", "--games", str(GAMES), "--output", str(games_file))
    games = json.loads(games_file.read_text())["games"]
    log(f"  {len(games)} games seated in {time.perf_counter() - started:.1f} s")
    with daphnes(count, env) as servers:
        ports = [port for port, _ in servers]
        pids = [pid for _, pid in servers]
        rss_idle = {str(pid): round(rss_kb(pid) / 1024, 1) for pid in pids}
        result = asyncio.run(
            run_load(games, ports, pids, PACE, FASTER, SLOWER, STEP_SECONDS, TARGET_P99_MS, log=log)
        )
    result["rss_idle_mb"] = rss_idle
    steps = result["steps"]
    passing = [s for s in steps if passes(s, TARGET_P99_MS)]
    first = steps[0]
    result["summary"] = {
        "servers": count,
        "at_target_pace": {
            "pace": first["pace"],
            "p50_ms": first["latency_ms"]["p50"],
            "p95_ms": first["latency_ms"]["p95"],
            "p99_ms": first["latency_ms"]["p99"],
            "lost_frames": first["lost_frames"],
            "errors": sum(first["errors"].values()),
            "moves_per_s_done": first["moves_per_s"],
            "server_rss_peak_total_mb": first["server_rss_peak_total_mb"],
            "server_pss_peak_total_mb": first["server_pss_peak_total_mb"],
            # The memory target is per daphne process (one process is one core's server); the
            # processes' proportional set sizes together are reported beside it.
            "meets_target": passes(first, TARGET_P99_MS)
            and max(first["server_rss_peak_mb"].values()) < TARGET_RSS_MB,
        },
        "ceiling_moves_per_s": max((s["pace"] for s in passing), default=None),
        "at_ceiling": next(
            (
                {"p50_ms": s["latency_ms"]["p50"], "p99_ms": s["latency_ms"]["p99"]}
                for s in steps
                if passing and s["pace"] == max(p["pace"] for p in passing)
            ),
            None,
        ),
        "saturated_moves_per_s": max(s["moves_per_s_while_busy"] for s in steps),
        "server_rss_peak_total_mb": max(s["server_rss_peak_total_mb"] for s in steps),
        "server_rss_peak_per_process_mb": max(max(s["server_rss_peak_mb"].values()) for s in steps),
        "server_pss_peak_total_mb": max(s["server_pss_peak_total_mb"] for s in steps),
        "server_cpu_ms_per_move": cpu_per_move(steps),
    }
    return result


def cpu_per_move(steps: list[dict[str, Any]]) -> float | None:
    """Server CPU per completed move over the steps that kept their pace."""
    kept = [s for s in steps if s["server_cpu_ms_per_move"] and not s["stopped_overloaded"]]
    if not kept:
        return None
    cpu_ms = sum(s["server_cpu_ms_per_move"] * s["moves_done"] for s in kept)
    return round(cpu_ms / sum(s["moves_done"] for s in kept), 1)


def machine_busy(seconds: float = 3.0) -> float:
    """Percent of the machine's CPU busy with other work, over a few seconds before a run."""
    before = system_cpu()
    time.sleep(seconds)
    after = system_cpu()
    return round(100 * (1 - (after[1] - before[1]) / (after[0] - before[0])), 1)


def machine_speed() -> float:
    """CPU ms of a fixed pure-Python loop (the best of five): this shared machine's speed
    changes from hour to hour, and every figure of a run moves with it."""

    def once() -> float:
        started = time.process_time()
        total = 0
        for i in range(1_000_000):
            total += i * i
        return time.process_time() - started

    return round(1000 * min(once() for _ in range(5)), 1)


def main() -> dict[str, Any]:
    reason = unreachable()
    if reason:
        log(f"bench live skipped: {reason}")
        return {"skipped": reason}
    OUT.mkdir(parents=True, exist_ok=True)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 8192:  # 1,000 sockets on each side, inherited by daphne
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(8192, hard), hard))
    ensure_database()
    secret = secrets.token_urlsafe(50)
    manage(site_env(secret), "migrate", "--no-input", "-v", "0")
    results: dict[str, Any] = {
        "games": GAMES,
        "sockets": GAMES * 4,
        "step_seconds": STEP_SECONDS,
        "target": {"p99_ms": TARGET_P99_MS, "lost_frames": 0, "rss_mb": TARGET_RSS_MB},
        "cpus": os.cpu_count(),
    }
    log("  database connection cost per request ...")
    results["db_connection"] = db_connection_costs()
    for mode, figures in results["db_connection"].items():
        log(f"  {mode:>28}: {figures.get('connection_cost_per_request_ms')} ms")
    try:
        for count in SERVERS:
            busy, speed = machine_busy(), machine_speed()
            plural = "es" if count > 1 else ""
            log(
                f"  {count} daphne process{plural} (machine {busy}% busy before,"
                f" speed loop {speed} ms):"
            )
            results[f"daphne_{count}"] = run_servers(count, secret)
            results[f"daphne_{count}"]["machine_busy_before_percent"] = busy
            results[f"daphne_{count}"]["machine_speed_loop_ms"] = speed
    finally:
        flush_redis()
    results["summary"] = {k: v["summary"] for k, v in results.items() if k.startswith("daphne_")}
    return results
