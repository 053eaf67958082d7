"""Run a web process (daphne, or ``rummi_site.web``) and record every callback of its event loop
that holds the loop for long: what the moves waiting behind it wait for.

Used by bench_live.py (and so bench_sockets.py) when ``RUMMI_BENCH_LIVE_STALLS`` is set. Each
``asyncio`` callback (twisted's reactor runs on asyncio here: its timers, socket reads and the
consumers' tasks are all such callbacks) is timed; one that takes ``STALL_MS`` or more is kept
with its wall-clock start, its duration and a name (a task's coroutine, a timer's function);
so is each garbage collection that long, on any thread (a callback it ran in is kept too).
The time includes waits for the GIL held by the threads running synchronous code (a move's
database work), which delay the loop as much as its own work does.

Usage: python benchmarks/stalls_web.py OUT MODULE [ARGS ...]

The module runs as ``python -m MODULE ARGS`` would. At exit (daphne stops on SIGTERM) the
stalls are written to ``OUT`` as JSON: ``{"stall_ms": ..., "callbacks": n, "stalls": [[start,
ms, name], ...]}``, ``start`` in seconds since the epoch, so a bench can match them to its steps.
"""

from __future__ import annotations

import asyncio.events
import gc
import os
import threading
import time
from typing import Any

try:  # imported as part of the package (tests), or run as a script beside profile_web.py
    from benchmarks.profile_web import run_module, save_json_at_exit
except ImportError:  # pragma: no cover - a script's folder is first on the import path
    from profile_web import run_module, save_json_at_exit  # type: ignore[no-redef]

STALL_MS = float(os.environ.get("RUMMI_BENCH_STALL_MS", "3"))
_stalls: list[tuple[float, float, str]] = []
_count = 0


def _name(callback: Any) -> str:
    """A readable name for what a handle ran: a task's coroutine, else the callback's."""
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        if code is not None:
            return f"task {code.co_qualname} ({os.path.basename(code.co_filename)})"
    inner = getattr(callback, "func", callback)  # functools.partial
    module = getattr(inner, "__module__", "") or ""
    qualname = getattr(inner, "__qualname__", None) or type(inner).__name__
    return f"{module}.{qualname}"


def _timed(run: Any) -> Any:
    threshold = STALL_MS / 1000

    def wrapper(self: asyncio.events.Handle) -> None:
        global _count
        _count += 1
        callback = self._callback  # type: ignore[attr-defined]
        started = time.perf_counter()
        try:
            run(self)
        finally:
            spent = time.perf_counter() - started
            if spent >= threshold:
                _stalls.append((time.time() - spent, round(spent * 1000, 2), _name(callback)))

    return wrapper


_gc_started: dict[int, float] = {}


def _gc(phase: str, info: dict[str, int]) -> None:
    """Garbage collections that take ``STALL_MS`` or more, on whichever thread ran them (one
    on a pool thread holds the GIL, so the loop waits too)."""
    thread = threading.get_ident()
    if phase == "start":
        _gc_started[thread] = time.perf_counter()
        return
    spent = time.perf_counter() - _gc_started.pop(thread, time.perf_counter())
    if spent * 1000 >= STALL_MS:
        where = threading.current_thread().name
        name = f"gc generation {info['generation']} ({where})"
        _stalls.append((time.time() - spent, round(spent * 1000, 2), name))


def install(out: str) -> None:
    """Time the loop's callbacks and the collections from now on; write the stalls to ``out``
    at exit."""
    asyncio.events.Handle._run = _timed(asyncio.events.Handle._run)  # type: ignore[method-assign]
    gc.callbacks.append(_gc)

    save_json_at_exit(out, lambda: {"stall_ms": STALL_MS, "callbacks": _count, "stalls": _stalls})


def main() -> None:
    run_module("stalls_web.py", install)


if __name__ == "__main__":
    main()
