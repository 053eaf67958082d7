"""benchmarks/stalls_web.py keeps each event-loop callback that held the loop for its threshold
or more, with a name that says what ran: the figures docs/deploy.md ("Sockets") cites."""

from __future__ import annotations

import asyncio
import time

import pytest

from benchmarks import stalls_web


def test_a_long_callback_and_a_long_task_step_are_kept_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stalls_web, "_stalls", [])
    monkeypatch.setattr(stalls_web, "STALL_MS", 5.0)
    monkeypatch.setattr(
        asyncio.events.Handle, "_run", stalls_web._timed(asyncio.events.Handle._run)
    )

    def hold() -> None:
        time.sleep(0.02)

    async def busy_task() -> None:
        time.sleep(0.02)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.call_soon(hold)
        loop.call_soon(lambda: None)  # quick: not kept
        await asyncio.create_task(busy_task())
        await asyncio.sleep(0.01)

    started = time.time()
    asyncio.run(main())
    names = [name for _, _, name in stalls_web._stalls]
    assert (
        f"{__name__}.test_a_long_callback_and_a_long_task_step_are_kept_by_name.<locals>.hold"
        in names
    )
    assert any(name.startswith("task test_a_long") and "busy_task" in name for name in names)
    assert all(ms >= 5.0 and started - 1 <= at <= time.time() for at, ms, _ in stalls_web._stalls)
    assert len(names) == 2
