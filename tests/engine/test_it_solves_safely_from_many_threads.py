"""The solver from many threads at once (issue 17): web requests solve on concurrent threads,
and the solver's shared caches are trimmed between solves. 8 threads x many solves, the trim
forced before every solve: the same answers as one thread, and no exception."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from games.engine.errors import InvalidInput, SolverBusy
from games.engine.events import TilesPlayed, event_from_dict
from games.engine.solver import entry, solve_ids
from games.engine.state import GameState, evolve, replay

# Rummikub's records (Rummy 45's, named r45-*, start with R45Started and replay elsewhere).
RECORDS = sorted(
    p
    for p in (Path(__file__).parent.parent / "fixtures" / "records").glob("*.json")
    if not p.stem.startswith("r45-")
)
Position = tuple[GameState, int]


def positions() -> list[Position]:
    """The position before every play of the fixture games: real tables and racks."""
    found = []
    for path in RECORDS:
        events = [event_from_dict(e) for e in json.loads(path.read_text())["events"]]
        state = replay(events[:1])
        for event in events[1:]:
            if isinstance(event, TilesPlayed):
                found.append((state, event.seat))
            state = evolve(state, event)
    return found


def answer(position: Position) -> object:
    state, seat = position
    return solve_ids(state.rules, state.kinds, state.table, state.racks[seat], state.opened[seat])


def test_eight_threads_solving_with_the_trim_forced_agree_with_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chosen = positions()[::2]
    assert len(chosen) >= 40
    alone = [answer(p) for p in chosen]
    monkeypatch.setattr(entry, "CACHE_LIMIT", 0)  # every solve trims the shared caches first
    work = chosen * 4

    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(answer, work))

    assert together == alone * 4


def test_a_caller_that_will_not_wait_hears_the_solver_is_busy() -> None:
    state, seat = positions()[0]
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with entry._SOLVING:
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        with pytest.raises(SolverBusy, match="try again"):
            solve_ids(
                state.rules,
                state.kinds,
                state.table,
                state.racks[seat],
                state.opened[seat],
                wait=0.05,
            )
    finally:
        release.set()
        holder.join(10)
    assert solve_ids(
        state.rules, state.kinds, state.table, state.racks[seat], state.opened[seat], wait=1
    ) == answer((state, seat))


@pytest.mark.parametrize("wait", [-1, "1", True, float("nan")])
def test_a_bad_wait_is_refused(wait: object) -> None:
    state, seat = positions()[0]
    with pytest.raises(InvalidInput, match="wait"):
        solve_ids(
            state.rules, state.kinds, state.table, state.racks[seat], state.opened[seat], wait=wait
        )
