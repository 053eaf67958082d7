"""Bot strengths played against each other: two-player single-round games, seeded.

For each pair of neighbouring strengths, ``GAMES`` games are played with the engine's own
``new_game``/``apply``, the bots seeing only ``view_for`` their seat. Every deal is played twice
with the seats swapped, so each strength starts exactly half the games and both get the same
tiles. A game is won by whoever goes out, or by the blocked round's winner; a shared win counts
half. The seconds each move of the stronger bot took are reported too (mean and max), since bots
play live games and should answer within a second or two.

``RUMMI_BENCH_WORKERS`` (an environment variable) caps the worker processes; by default there is
one per core. On a shared machine, ``RUMMI_BENCH_WORKERS=1`` keeps the bench to one core.
"""

from __future__ import annotations

import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from games.engine.bots import BOT_STRENGTHS, choose_action
from games.engine.projection import view_for
from games.engine.rules import RULES
from games.engine.scoring import MatchFormat
from games.engine.state import GameConfig, GameState, apply, new_game

GAMES = 200
MAX_TURNS = 400


@dataclass(frozen=True)
class Outcome:
    winners: tuple[str, ...]
    turns: int
    move_seconds: dict[str, list[float]]  # strength -> seconds each of its moves took


def play_game(strengths: tuple[str, str], seed: int) -> Outcome:
    """One single-round game between two strengths (seat 0 plays ``strengths[0]``)."""
    secret = seed.to_bytes(8, "big") * 4
    config = GameConfig(RULES["classic"], 2, MatchFormat("single"))
    state, _ = new_game(config, secret)
    rngs = [random.Random(f"{seed}-{seat}") for seat in range(2)]
    turns = 0
    move_seconds: dict[str, list[float]] = {name: [] for name in strengths}
    while not state.finished and turns < MAX_TURNS:
        seat = state.turn
        started = time.perf_counter()
        action = choose_action(view_for(state, seat), rngs[seat], strengths[seat])
        move_seconds[strengths[seat]].append(time.perf_counter() - started)
        state, _ = apply(state, action, secret)
        turns += 1
    return Outcome(tuple(strengths[s] for s in winners_of(state)), turns, move_seconds)


def winners_of(state: GameState) -> tuple[int, ...]:
    return state.winners if state.finished else ()


def _play(job: tuple[tuple[str, str], int]) -> Outcome:
    return play_game(*job)


def workers() -> int:
    """Worker processes: ``RUMMI_BENCH_WORKERS`` if set, else one per core."""
    wanted = os.environ.get("RUMMI_BENCH_WORKERS", "").strip()
    if not wanted:
        return os.cpu_count() or 1
    if not wanted.isdigit() or int(wanted) < 1:
        raise SystemExit(
            f"bench bots: RUMMI_BENCH_WORKERS must be a whole number >= 1, not {wanted!r}"
        )
    return int(wanted)


def match_up(weaker: str, stronger: str, games: int, first_seed: int) -> dict[str, Any]:
    """Play ``games`` games (each deal twice, seats swapped) on ``workers()`` processes."""
    wins = {weaker: 0.0, stronger: 0.0}
    unfinished = 0
    turns = 0
    started = time.perf_counter()
    jobs = [
        ((weaker, stronger) if n % 2 == 0 else (stronger, weaker), first_seed + n // 2)
        for n in range(games)
    ]
    with ProcessPoolExecutor(max_workers=workers()) as pool:
        outcomes = list(pool.map(_play, jobs, chunksize=4))
    stronger_moves: list[float] = []
    for outcome in outcomes:
        turns += outcome.turns
        stronger_moves += outcome.move_seconds[stronger]
        if not outcome.winners:
            unfinished += 1
        for name in outcome.winners:
            wins[name] += 1 / len(outcome.winners)
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "wins": wins,
        "stronger_win_rate": round(wins[stronger] / games, 3),
        "unfinished": unfinished,
        "mean_turns": round(turns / games, 1),
        "seconds": round(seconds, 1),
        "stronger_move_seconds_mean": round(sum(stronger_moves) / max(1, len(stronger_moves)), 3),
        "stronger_move_seconds_max": round(max(stronger_moves, default=0.0), 2),
    }


def main(games: int = GAMES) -> dict[str, Any]:
    results: dict[str, Any] = {}
    print(
        f"{'pair':<22}{'games':>6}{'stronger wins':>15}{'unfinished':>12}{'seconds':>9}"
        f"{'move s mean':>13}{'move s max':>12}"
    )
    for n, (weaker, stronger) in enumerate(zip(BOT_STRENGTHS, BOT_STRENGTHS[1:], strict=False)):
        result = match_up(weaker, stronger, games, first_seed=10_000 * (n + 1))
        results[f"{weaker}-{stronger}"] = result
        print(
            f"{weaker + ' vs ' + stronger:<22}{games:>6}{result['stronger_win_rate']:>15.1%}"
            f"{result['unfinished']:>12}{result['seconds']:>9}"
            f"{result['stronger_move_seconds_mean']:>13}{result['stronger_move_seconds_max']:>12}",
            flush=True,
        )
    return results


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)
