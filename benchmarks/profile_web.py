"""Run a web process (daphne, or ``rummi_site.web``) under cProfile, every thread on its own
CPU clock.

Used by bench_live.py when ``RUMMI_BENCH_LIVE_PROFILE`` is set. A move's work is split between
daphne's event loop (frames, the consumer, the channel layer) and the threads that run the
synchronous code (the move itself, the database): each thread gets its own profiler, timed by
``time.thread_time`` (so a thread's waits are left out), and the profiles are added together at
exit. (yappi, which does this itself, failed inside daphne here: "Internal Error. [15]" on every
call and the sockets' handshakes went unanswered.)

Usage: python benchmarks/profile_web.py OUT MODULE [ARGS ...]

The module runs as ``python -m MODULE ARGS`` would, from the working folder (so a baseline's
worktree measures its own code). At exit (daphne stops on SIGTERM) the profile is written to
``OUT`` in pstats format, and the threads it holds to ``OUT.threads.json``. SIGUSR1 starts
the profiles again from that moment (bench_live.py sends it once the sockets are open and warm):
the event loop's at once, each pool thread's at its next piece of work.
"""

from __future__ import annotations

import atexit
import concurrent.futures.thread
import cProfile
import json
import os
import pstats
import runpy
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

# Each thread's profile: thread id -> (name, profiler, generation).
_profiles: dict[int, tuple[str, cProfile.Profile, int]] = {}
_generation = 0
_lock = threading.Lock()


def _start(generation: int) -> None:
    """Give the calling thread a new profiler (the old one, if any, is dropped)."""
    old = _profiles.get(threading.get_ident())
    if old is not None:
        old[1].disable()
    profile = cProfile.Profile(time.thread_time)
    with _lock:
        _profiles[threading.get_ident()] = (threading.current_thread().name, profile, generation)
    profile.enable()


def _reset(signum: int, frame: Any) -> None:
    """SIGUSR1: start again from now (the bench sends it after connecting and warming up)."""
    global _generation
    _generation += 1
    _start(_generation)


def _profiled_thread(run):  # type: ignore[no-untyped-def]
    def wrapper(self):  # type: ignore[no-untyped-def]
        _start(_generation)
        try:
            run(self)
        finally:
            _profiles[threading.get_ident()][1].disable()

    return wrapper


def _profiled_work(run):  # type: ignore[no-untyped-def]
    """A pool thread lives on: it starts a new profile at its first work item after a reset."""

    def wrapper(self):  # type: ignore[no-untyped-def]
        mine = _profiles.get(threading.get_ident())
        if mine is not None and mine[2] != _generation:
            _start(_generation)
        return run(self)

    return wrapper


def run_module(tool: str, install: Callable[[str], None]) -> None:
    """``python benchmarks/<tool> OUT MODULE [ARGS ...]``: ``install(OUT)`` (what watches the
    process and writes OUT at exit), then MODULE as ``python -m MODULE ARGS`` would run it, from
    the working folder (so a baseline's worktree runs its own code). Shared with stalls_web.py."""
    if len(sys.argv) < 3:
        sys.exit(f"usage: {tool} OUT MODULE [ARGS ...]")
    out, module, *args = sys.argv[1:]
    sys.path.insert(0, os.getcwd())
    sys.argv = [module, *args]
    install(out)
    runpy.run_module(module, run_name="__main__", alter_sys=True)


def save_json_at_exit(out: str, record: Callable[[], Any]) -> None:
    """Write ``record()`` to ``out`` as JSON when the process exits (daphne stops on SIGTERM).
    Shared with stalls_web.py and stages_web.py."""

    def save() -> None:
        with open(out, "w") as fh:
            json.dump(record(), fh)

    atexit.register(save)


def install(out: str) -> None:
    """Profile every thread from now on; write the profiles to ``out`` at exit."""
    threading.Thread.run = _profiled_thread(threading.Thread.run)  # type: ignore[method-assign]
    work = concurrent.futures.thread._WorkItem
    work.run = _profiled_work(work.run)  # type: ignore[method-assign]

    def save() -> None:
        with _lock:
            done = [v for v in _profiles.values() if v[2] == _generation]
        stats = pstats.Stats(done[0][1])
        for _, profile, _ in done[1:]:
            stats.add(profile)
        stats.dump_stats(out)
        threads = [{"name": name, "generation": generation} for name, _, generation in done]
        with open(out + ".threads.json", "w") as fh:
            json.dump({"resets": _generation, "threads": threads}, fh, indent=1)

    atexit.register(save)
    signal.signal(signal.SIGUSR1, _reset)
    _start(0)


def main() -> None:
    run_module("profile_web.py", install)


if __name__ == "__main__":
    main()
