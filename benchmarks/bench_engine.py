"""Engine throughput: meld checks/s, turn checks/s, game actions/s and replay speed."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from games.engine.melds import meld_error
from games.engine.rules import RULES
from games.engine.state import Draw, GameConfig, apply, new_game, replay
from games.engine.tiles import parse_tiles
from games.engine.turn import check_turn

MELDS = [
    "R7 K7 Y7",
    "R7 K7 Y7 B7",
    "B4 B5 B6 B7 B8",
    "R5 R6 J",
    "J K9 Y9",
    "R3 B4 R5",
    "R12 R13 R1",
    "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13",
]


def rate(fn: Callable[[], object], seconds: float = 1.0) -> float:
    """Calls per second of ``fn``, measured over about ``seconds`` (best of 3 runs)."""
    best = 0.0
    for _ in range(3):
        count, started = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds / 3:
            for _ in range(100):
                fn()
            count += 100
        best = max(best, count / elapsed)
    return best


def bench_melds() -> float:
    melds = [parse_tiles(m.split()) for m in MELDS]
    index = iter(range(10**12))
    return rate(lambda: meld_error(melds[next(index) % len(melds)]))


def bench_turns() -> float:
    """A realistic mid-game turn: a 40-tile table, one joker freed, a rack of 12."""
    rules = RULES["classic"]
    kinds = list(
        parse_tiles(
            "R4 R5 R6 J K9 B9 Y9 R9 B1 B2 B3 B4 B5 Y10 Y11 Y12 Y13 K3 K4 K5 R1 R2 R3 K11 B11 R11 "
            "K6 K7 K8 B6 B7 B8 Y1 Y2 Y3 Y4 B12 R12 K12 R7 K1 K2 Y7 Y8 R13 B13 K13 R8".split()
        )
    )
    before = [
        list(range(0, 4)),
        list(range(4, 8)),
        list(range(8, 13)),
        list(range(13, 17)),
        list(range(17, 20)),
        list(range(20, 23)),
        list(range(23, 26)),
        list(range(26, 29)),
        list(range(29, 32)),
        list(range(32, 36)),
        list(range(36, 39)),
    ]
    rack = list(range(39, len(kinds)))
    after = [list(m) for m in before]
    after[0] = [0, 1, 2, 39]  # R7 replaces the joker
    after.append([40, 41, 3])  # K1 K2 + the freed joker as K3
    return rate(lambda: check_turn(rules, kinds, before, rack, after, True))


def bench_games() -> dict[str, float]:
    """Whole 4-player games of draws (plays are measured by the turn checks), then replays."""
    config = GameConfig(RULES["classic"], 4)
    seeds = [bytes([n]) * 32 for n in range(20)]
    actions = 0
    logs = []
    started = time.perf_counter()
    for seed in seeds:
        state, log = new_game(config, seed)
        while not state.finished:
            state, events = apply(state, Draw(state.turn), seed)
            log += events
            actions += 1
        logs.append(log)
    elapsed = time.perf_counter() - started
    events = sum(len(log) for log in logs)
    started = time.perf_counter()
    for log in logs:
        replay(log)
    replay_elapsed = time.perf_counter() - started
    return {
        "actions_per_s": round(actions / elapsed),
        "replayed_events_per_s": round(events / replay_elapsed),
        "games": len(seeds),
        "events": events,
    }


def main() -> dict[str, Any]:
    results = {
        "meld_checks_per_s": round(bench_melds()),
        "turn_checks_per_s": round(bench_turns()),
        **bench_games(),
    }
    for key, value in results.items():
        print(f"{key:>24}: {value:,}")
    return results
