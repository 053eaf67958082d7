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
- ``RUMMI_BENCH_LIVE_ECHO`` (``1``; ``0`` leaves it out): after the site, the bare echo app
  (benchmarks/echo_asgi.py) with the same games and processes, paced up to
  ``RUMMI_BENCH_LIVE_ECHO_FASTER``; the summary gives the site's ceiling as a fraction of its
- ``RUMMI_BENCH_LIVE_BASELINE``: a commit (``1d4f887``, the 2026-12-01 code) measured in the
  same run, right after the site at each process count: a detached ``git worktree`` of it under
  ``var/bench/baseline-<commit>`` with a bench database of its own (the bench database's name
  plus ``_baseline``), driven by this harness; the summary compares their server CPU a move
  (``RUMMI_BENCH_LIVE_BASELINE_FIRST=1`` runs it before the site instead)
- ``RUMMI_BENCH_LIVE_PAIRED_ROUNDS`` (0): with a baseline, that many more runs of both trees,
  their order alternating, so the summary's ``paired_<count>`` pools the server CPU a move
  over every pair at each pace (the ratio of the sums, and each pair's ratio)
- ``RUMMI_BENCH_LIVE_R45`` (off; ``1`` turns it on): at each process count, right after the
  site's Rummikub run, the same site on Rummy 45 tables (``benchsetup --mode r45``:
  the same number of 4-player games, each through its setup; a move is the seat's next draw from
  the stock or discard, see benchmarks/live_harness.py) at the same paces; its results are
  ``r45_<count>``, and the summary's ``daphne_<count>`` gives ``r45_vs_rummikub``: the server
  CPU a move of both at each pace both kept and its ratio (Rummy 45 over Rummikub; the target
  is within 10%). The baseline has no Rummy 45 run.
- ``RUMMI_BENCH_LIVE_R45_ROUNDS`` (0): with ``RUMMI_BENCH_LIVE_R45``, that many more runs of both
  families, their order alternating (Rummy 45 first in the second round), so the Rummy 45 run
  no longer always comes second; the summary's ``r45_vs_rummikub_paired`` pools the server CPU a
  move over every pair at each pace (the ratio of the sums, with each pair's ratio)
- ``RUMMI_BENCH_LIVE_GAMES`` (250), ``RUMMI_BENCH_LIVE_SECONDS`` (20 s a pace step),
  ``RUMMI_BENCH_LIVE_PACE`` (200 moves/s), ``RUMMI_BENCH_LIVE_FASTER`` (``300,400,500,600,800``),
  ``RUMMI_BENCH_LIVE_SLOWER`` (``150,100,75,50,30,20,10``; the slower paces run only when
  the first fails; either list set empty runs none of it),
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
from collections.abc import Callable, Iterator
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


def paces(name: str, default: str) -> list[float]:
    """The paces (moves/s, comma-separated) in ``name``, else ``default``; set but empty, none
    (tests/test_it_reads_the_live_benchs_paces.py)."""
    text = os.environ.get(name, default)
    try:
        values = [float(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise SystemExit(f"{name}={text!r}: give paces in moves/s, such as 300,400") from None
    if any(not 0 < v < 100_000 for v in values):
        raise SystemExit(f"{name}={text!r}: a pace is a number of moves/s, above 0 and under 1e5")
    return values


def rounds(name: str) -> int:
    """A count of extra paired rounds in ``name`` (0 when unset or empty); anything but a whole
    number from 0 to 20 stops the bench with one line."""
    text = os.environ.get(name, "").strip() or "0"
    if not text.isdigit() or int(text) > 20:
        raise SystemExit(f"{name}={text!r}: give a whole number of rounds from 0 to 20")
    return int(text)


FASTER = paces("RUMMI_BENCH_LIVE_FASTER", "300,400,500,600,800")
SLOWER = paces("RUMMI_BENCH_LIVE_SLOWER", "150,100,75,50,30,20,10")
SERVERS = [int(n) for n in setting("RUMMI_BENCH_LIVE_SERVERS", "1,2").split(",")]
# To measure a variant without touching the site: another settings module or ASGI application.
SETTINGS = setting("RUMMI_BENCH_LIVE_SETTINGS", "rummi_site.settings")
ASGI_APP = setting("RUMMI_BENCH_LIVE_ASGI", "rummi_site.asgi:application")
# The bare baseline (benchmarks/echo_asgi.py: one row and one group send a move), run with the
# same games, sockets and daphne processes after the site; "0" leaves it out.
ECHO = setting("RUMMI_BENCH_LIVE_ECHO", "1") != "0"
ECHO_APP = "benchmarks.echo_asgi:application"
BASELINE = setting("RUMMI_BENCH_LIVE_BASELINE", "")
# "1": the baseline runs before the site at each process count (a shared machine's load drifts
# within a run: measure both orders and compare).
BASELINE_FIRST = setting("RUMMI_BENCH_LIVE_BASELINE_FIRST", "0") != "0"
# With a baseline, this many more runs of each tree after the first pair, in alternating order
# (site, baseline; baseline, site; ...): the machine's drift over a run and the advantage of
# running first weigh on both alike. The summary pools the server CPU a move over every pair.
PAIRED_ROUNDS = rounds("RUMMI_BENCH_LIVE_PAIRED_ROUNDS")
# The same site on Rummy 45 tables after its Rummikub run, at each process count.
R45 = setting("RUMMI_BENCH_LIVE_R45", "0") != "0"
R45_MODE = "r45"
# With R45, this many more runs of each family after the first pair, in alternating order (Rummy
# 45 first, then Rummikub first, ...): one run of each, always Rummikub first, compared a fresh
# machine's figures with a tired one's. The summary pools the server CPU a move over every pair.
R45_ROUNDS = rounds("RUMMI_BENCH_LIVE_R45_ROUNDS")
# Profile each web process with yappi, every thread on the CPU clock (benchmarks/profile_web.py):
# var/bench/profile-<site|baseline|echo|r45>-<n>.pstats and .threads.json. It slows them down.
PROFILE = setting("RUMMI_BENCH_LIVE_PROFILE", "0") != "0"
# Record the event loop's long callbacks in each web process (benchmarks/stalls_web.py):
# var/bench/stalls-<site|baseline|echo|r45>-<n>.json.
STALLS = setting("RUMMI_BENCH_LIVE_STALLS", "0") != "0"
# Stamp each socket move's stages in each web process (benchmarks/stages_web.py):
# var/bench/stages-<label>-<n>.json; the sockets bench splits the moves' time by stage.
STAGES = setting("RUMMI_BENCH_LIVE_STAGES", "0") != "0"
# Rummy 45's server CPU a move against Rummikub's: within this fraction is on target.
R45_CPU_TOLERANCE = 0.10
ECHO_FASTER = paces("RUMMI_BENCH_LIVE_ECHO_FASTER", "300,400,500,600,800,1000,1200,1500")


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


def ensure_database(url: str = DATABASE_URL) -> None:
    import psycopg
    from psycopg import sql

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(admin_url(url), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            log(f"  created database {name}")


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def site_env(secret: str, database_url: str = DATABASE_URL) -> dict[str, str]:
    """The production settings, on the bench database and Redis."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": SETTINGS,
        "DATABASE_URL": database_url,
        "REDIS_URL": REDIS_URL,
        "RUMMI_DEBUG": "0",
        "RUMMI_HTTPS": "1",  # behind the TLS proxy: the harness's requests say they came by it
        "SECRET_KEY": secret,
        "PYTHONUNBUFFERED": "1",
    }


def manage(env: dict[str, str], *args: str, root: Path = ROOT) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=root,
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
def daphnes(
    count: int, env: dict[str, str], app: str = ASGI_APP, root: Path = ROOT, label: str = "site"
) -> Iterator[list[tuple[int, int]]]:
    """Start ``count`` daphne processes; yield [(port, pid)]; stop them whatever happens."""
    procs: list[tuple[int, subprocess.Popen[bytes]]] = []
    try:
        for _ in range(count):
            port = free_port()
            logfile = (OUT / f"live-daphne-{len(procs)}.log").open("wb")
            # The site's web process (rummi_site/web.py: daphne with its chores sliced), or
            # plain daphne for a tree without it (the 2026-12-01 baseline).
            web = "rummi_site.web" if (root / "rummi_site" / "web.py").exists() else "daphne"
            command = [sys.executable, "-m", web, "-b", "127.0.0.1", "-p", str(port)]
            if PROFILE:
                out = OUT / f"profile-{label}-{len(procs)}.pstats"
                command[1:2] = [str(ROOT / "benchmarks" / "profile_web.py"), str(out)]
            elif STALLS:
                out = OUT / f"stalls-{label}-{len(procs)}.json"
                command[1:2] = [str(ROOT / "benchmarks" / "stalls_web.py"), str(out)]
            elif STAGES:
                out = OUT / f"stages-{label}-{len(procs)}.json"
                command[1:2] = [str(ROOT / "benchmarks" / "stages_web.py"), str(out)]
            # -v 0: no access log line per request (a proxy in front keeps that log);
            # --proxy-headers: trust X-Forwarded-Proto as from a TLS-terminating proxy.
            command += ["-v", "0", "--proxy-headers", app]
            # The code is the one under ``root``: ``python -m`` puts the working folder first
            # on the import path (a baseline's worktree shadows this checkout).
            proc = subprocess.Popen(command, cwd=root, env=env, stdout=logfile, stderr=logfile)
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


def run_servers(
    count: int,
    secret: str,
    app: str = ASGI_APP,
    faster: list[float] = FASTER,
    root: Path = ROOT,
    database_url: str = DATABASE_URL,
    mode: str = "parlor",
) -> dict[str, Any]:
    """One run: seat the games (``mode``: parlor, or r45 for Rummy 45 tables), start ``count``
    daphne processes and drive the paces."""
    env = site_env(secret, database_url)
    flush_redis()
    started = time.perf_counter()
    games_file = OUT / "live-games.json"
    # The default (Parlor) keeps the command line a baseline's benchsetup knows.
    choose = ("--mode", mode) if mode != "parlor" else ()
    manage(
        env,
        *("benchsetup", "--reset", "--games", str(GAMES), "--output", str(games_file), *choose),
        root=root,
    )
    games = json.loads(games_file.read_text())["games"]
    log(f"  {len(games)} games seated in {time.perf_counter() - started:.1f} s")
    label = "baseline" if root != ROOT else "echo" if app == ECHO_APP else mode
    with daphnes(count, env, app, root, label) as servers:
        ports = [port for port, _ in servers]
        pids = [pid for _, pid in servers]
        rss_idle = {str(pid): round(rss_kb(pid) / 1024, 1) for pid in pids}
        result = asyncio.run(
            run_load(
                games,
                ports,
                pids,
                PACE,
                faster,
                SLOWER,
                STEP_SECONDS,
                TARGET_P99_MS,
                log=log,
                mode=mode,
                profiled=PROFILE,
            )
        )
    result["rss_idle_mb"] = rss_idle
    steps = result["steps"]
    passing = [s for s in steps if passes(s, TARGET_P99_MS)]
    first = steps[0]
    result["summary"] = {
        "servers": count,
        "mode": mode,
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
    keep_run(label, count, result)
    return result


# Every run's result as it ends, in order (var/bench/live-runs.json): a run of paired rounds takes
# most of an hour, and a failure while the summary is made must not lose what was measured.
RUNS_FILE = OUT / "live-runs.json"
_RUNS: list[dict[str, Any]] = []


def keep_run(label: str, count: int, result: dict[str, Any]) -> None:
    """Add one run's result to the runs file, rewritten whole (a new bench starts it anew)."""
    _RUNS.append({"label": label, "servers": count, **result})
    RUNS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RUNS_FILE.write_text(json.dumps(_RUNS, indent=1))


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


def baseline_tree(commit: str) -> tuple[Path, str]:
    """A detached worktree of ``commit`` (made once, kept for the next run) and its bench
    database, migrated, its static files collected."""
    sha = subprocess.run(
        ["git", "rev-parse", "--short", f"{commit}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    tree = OUT / f"baseline-{sha}"
    if not (tree / "manage.py").exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--force", str(tree), sha],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
    parts = urlsplit(DATABASE_URL)
    url = urlunsplit(parts._replace(path=parts.path.rstrip("/") + "_baseline"))
    ensure_database(url)
    env = site_env(secrets.token_urlsafe(50), url)
    manage(env, "migrate", "--no-input", "-v", "0", root=tree)
    manage(env, "collectstatic", "--no-input", "-v", "0", root=tree)
    return tree, url


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
    # The game page the harness opens names the hashed static files (rummi_site/staticfiles.py).
    manage(site_env(secret), "collectstatic", "--no-input", "-v", "0")
    results: dict[str, Any] = {
        "games": GAMES,
        "sockets": GAMES * 4,
        "step_seconds": STEP_SECONDS,
        "target": {"p99_ms": TARGET_P99_MS, "lost_frames": 0, "rss_mb": TARGET_RSS_MB},
        "cpus": os.cpu_count(),
    }
    baseline = baseline_tree(BASELINE) if BASELINE else None
    if baseline is not None:
        results["baseline"] = {"commit": BASELINE, "tree": str(baseline[0])}
    results["r45"] = R45
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
            if baseline is not None and BASELINE_FIRST:
                log(f"  the baseline {BASELINE} on {count} daphne process{plural}, first:")
                results[f"baseline_{count}"] = run_servers(
                    count, secret, root=baseline[0], database_url=baseline[1]
                )
            results[f"daphne_{count}"] = run_servers(count, secret)
            results[f"daphne_{count}"]["machine_busy_before_percent"] = busy
            results[f"daphne_{count}"]["machine_speed_loop_ms"] = speed
            if R45:
                log(f"  the site on Rummy 45 tables on {count} daphne process{plural}:")
                results[f"r45_{count}"] = run_servers(count, secret, mode=R45_MODE)
                if R45_ROUNDS:
                    results[f"paired_r45_{count}"] = r45_rounds(
                        count, secret, results[f"daphne_{count}"], results[f"r45_{count}"]
                    )
            if baseline is not None and not BASELINE_FIRST:
                log(f"  the baseline {BASELINE} on {count} daphne process{plural}:")
                results[f"baseline_{count}"] = run_servers(
                    count, secret, root=baseline[0], database_url=baseline[1]
                )
            if baseline is not None and PAIRED_ROUNDS:
                site, base = results[f"daphne_{count}"], results[f"baseline_{count}"]
                results[f"paired_{count}"] = paired_rounds(count, secret, baseline, site, base)
            if ECHO:
                log(f"  the bare echo app on {count} daphne process{plural}:")
                results[f"echo_{count}"] = run_servers(count, secret, ECHO_APP, ECHO_FASTER)
    finally:
        flush_redis()
    kept = ("daphne_", "echo_", "baseline_", "r45_")
    results["summary"] = {k: v["summary"] for k, v in results.items() if k.startswith(kept)}
    for count in SERVERS:
        if f"paired_{count}" in results:
            results["summary"][f"paired_{count}"] = results[f"paired_{count}"]["by_pace"]
    for count in SERVERS:
        site, echo = results.get(f"daphne_{count}"), results.get(f"echo_{count}")
        if site and echo:
            results["summary"][f"daphne_{count}"]["ceiling_vs_echo"] = vs_echo(
                site["summary"], echo["summary"]
            )
        base = results.get(f"baseline_{count}")
        if site and base:
            results["summary"][f"daphne_{count}"]["vs_baseline"] = vs_baseline(
                site["steps"], base["steps"]
            )
        r45 = results.get(f"r45_{count}")
        if site and r45:
            results["summary"][f"daphne_{count}"]["r45_vs_rummikub"] = r45_vs_rummikub(site, r45)
        if f"paired_r45_{count}" in results:
            results["summary"][f"daphne_{count}"]["r45_vs_rummikub_paired"] = results[
                f"paired_r45_{count}"
            ]["by_pace"]
    return results


def r45_rounds(
    count: int, secret: str, site: dict[str, Any], r45: dict[str, Any]
) -> dict[str, Any]:
    """The first pair (``site`` on Rummikub tables, then ``r45``, already run) and
    ``R45_ROUNDS`` more, the order alternating: each pair's server CPU a move at each pace both
    kept, and over all the pairs the ratio of the sums (Rummy 45 over Rummikub) with each pair's
    ratio."""
    pairs = [r45_vs_rummikub(site, r45)["by_pace"]]
    pairs += alternating_pairs(
        "Rummy 45 paired round",
        R45_ROUNDS,
        (R45_MODE, "parlor"),
        lambda mode: run_servers(count, secret, mode=mode),
        lambda runs: r45_vs_rummikub(runs["parlor"], runs[R45_MODE])["by_pace"],
    )
    return {"by_pace": pooled(pairs, "r45_cpu_ms", "rummikub_cpu_ms"), "pairs": pairs}


def alternating_pairs(
    title: str,
    rounds: int,
    sides: tuple[str, str],
    run: Callable[[str], dict[str, Any]],
    compare: Callable[[dict[str, dict[str, Any]]], dict[str, Any]],
) -> list[dict[str, Any]]:
    """``rounds`` more pairs of runs after a first pair already run: ``sides[0]`` runs first in
    the first of them (the side that ran second before), then the order alternates, so that the
    machine's drift and the advantage of running first weigh on both alike. Each pair's runs
    (by side) are compared by ``compare``.

    >>> order = []
    >>> alternating_pairs("round", 3, ("b", "a"), lambda side: order.append(side) or {},
    ...                   lambda runs: sorted(runs))
      round 2 of 4 (b first):
      round 3 of 4 (a first):
      round 4 of 4 (b first):
    [['a', 'b'], ['a', 'b'], ['a', 'b']]
    >>> order
    ['b', 'a', 'a', 'b', 'b', 'a']
    """
    found = []
    for n in range(rounds):
        order = sides if n % 2 == 0 else sides[::-1]
        log(f"  {title} {n + 2} of {rounds + 1} ({order[0]} first):")
        runs = {side: run(side) for side in order}
        found.append(compare(runs))
    return found


def pooled(pairs: list[dict[str, Any]], numerator: str, denominator: str) -> dict[str, Any]:
    """Over every pair, at each pace: the pairs found, the mean of each side's server CPU a move
    and the ratio of their sums, with each pair's ratio.

    >>> pooled([{"150": {"a": 3.0, "b": 2.0, "ratio": 1.5}}, {"150": {"a": 1.0, "b": 2.0,
    ...     "ratio": 0.5}, "300": {"a": 2.0, "b": 2.0, "ratio": 1.0}}], "a", "b")["150"]
    {'pairs': 2, 'a_mean': 2.0, 'b_mean': 2.0, 'ratio': 1.0, 'ratios': [1.5, 0.5]}
    """
    by_pace: dict[str, Any] = {}
    for pace in sorted({p for pair in pairs for p in pair}, key=float):
        found = [pair[pace] for pair in pairs if pace in pair]
        top = sum(f[numerator] for f in found)
        bottom = sum(f[denominator] for f in found)
        by_pace[pace] = {
            "pairs": len(found),
            f"{numerator}_mean": round(top / len(found), 2),
            f"{denominator}_mean": round(bottom / len(found), 2),
            "ratio": round(top / bottom, 3),
            "ratios": [f["ratio"] for f in found],
        }
    return by_pace


def r45_vs_rummikub(site: dict[str, Any], r45: dict[str, Any]) -> dict[str, Any]:
    """Server CPU a move on Rummy 45 tables against Rummikub's, at each pace both kept, and
    over all the paces each kept; each ratio is Rummy 45's over Rummikub's."""
    kept = {
        s["pace"]: s
        for s in site["steps"]
        if s["server_cpu_ms_per_move"] and not s["stopped_overloaded"]
    }
    paces = {}
    for step in r45["steps"]:
        other = kept.get(step["pace"])
        now = step["server_cpu_ms_per_move"]
        if other and now and not step["stopped_overloaded"]:
            ratio = round(now / other["server_cpu_ms_per_move"], 2)
            paces[str(step["pace"])] = {
                "r45_cpu_ms": now,
                "rummikub_cpu_ms": other["server_cpu_ms_per_move"],
                "ratio": ratio,
                "within_target": abs(ratio - 1) <= R45_CPU_TOLERANCE,
                "r45_p99_ms": step["latency_ms"]["p99"],
                "rummikub_p99_ms": other["latency_ms"]["p99"],
            }
    cpu, rummikub_cpu = (
        r45["summary"]["server_cpu_ms_per_move"],
        site["summary"]["server_cpu_ms_per_move"],
    )
    overall = round(cpu / rummikub_cpu, 2) if cpu and rummikub_cpu else None
    return {
        "target_ratio": [round(1 - R45_CPU_TOLERANCE, 2), round(1 + R45_CPU_TOLERANCE, 2)],
        "by_pace": paces,
        "r45_cpu_ms_per_move": cpu,
        "rummikub_cpu_ms_per_move": rummikub_cpu,
        "ratio": overall,
        "within_target": overall is not None and abs(overall - 1) <= R45_CPU_TOLERANCE,
        "r45_ceiling_moves_per_s": r45["summary"]["ceiling_moves_per_s"],
        "rummikub_ceiling_moves_per_s": site["summary"]["ceiling_moves_per_s"],
    }


def paired_rounds(
    count: int,
    secret: str,
    baseline: tuple[Path, str],
    site: dict[str, Any],
    base: dict[str, Any],
) -> dict[str, Any]:
    """The first pair (``site`` and ``base``, already run) and ``PAIRED_ROUNDS`` more, the order
    alternating from the first pair's: each pair's server CPU a move at each pace both kept,
    and over all pairs the ratio of the sums (site over baseline) with the pairs' range."""
    pairs = [vs_baseline(site["steps"], base["steps"])["by_pace"]]

    def run(tree: str) -> dict[str, Any]:
        if tree == "site":
            return run_servers(count, secret)
        return run_servers(count, secret, root=baseline[0], database_url=baseline[1])

    pairs += alternating_pairs(
        "paired round",
        PAIRED_ROUNDS,
        ("site", "baseline") if BASELINE_FIRST else ("baseline", "site"),
        run,
        lambda runs: vs_baseline(runs["site"]["steps"], runs["baseline"]["steps"])["by_pace"],
    )
    by_pace = pooled(pairs, "site_cpu_ms", "baseline_cpu_ms")
    for figures in by_pace.values():
        figures["at_or_below_baseline"] = figures["ratio"] <= 1
    return {"commit": BASELINE, "first_order": "baseline first" if BASELINE_FIRST else "site first",
            "by_pace": by_pace, "pairs": pairs}  # fmt: skip


def vs_baseline(site: list[dict[str, Any]], base: list[dict[str, Any]]) -> dict[str, Any]:
    """Server CPU a move, the site's against the baseline's, at each pace both kept."""
    kept = {
        s["pace"]: s["server_cpu_ms_per_move"]
        for s in base
        if s["server_cpu_ms_per_move"] and not s["stopped_overloaded"]
    }
    paces = {}
    for step in site:
        old = kept.get(step["pace"])
        now = step["server_cpu_ms_per_move"]
        if old and now and not step["stopped_overloaded"]:
            paces[str(step["pace"])] = {
                "site_cpu_ms": now,
                "baseline_cpu_ms": old,
                "ratio": round(now / old, 2),
                "site_p99_ms": step["latency_ms"]["p99"],
            }
    return {"commit": BASELINE, "by_pace": paces}


def vs_echo(site: dict[str, Any], echo: dict[str, Any]) -> dict[str, Any]:
    """The site against the bare echo of the same run: ceilings and server CPU a move."""
    ceiling, bare = site["ceiling_moves_per_s"], echo["ceiling_moves_per_s"]
    cpu, bare_cpu = site["server_cpu_ms_per_move"], echo["server_cpu_ms_per_move"]
    return {
        "site_ceiling": ceiling,
        "echo_ceiling": bare,
        # The echo's ceiling may be the harness's own (it shares the cores): then the fraction
        # is an upper bound.
        "fraction": round(ceiling / bare, 2) if ceiling and bare else None,
        "site_cpu_ms_per_move": cpu,
        "echo_cpu_ms_per_move": bare_cpu,
    }
