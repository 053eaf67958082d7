"""Rummy 45 bots against each other: 200 seeded two-player games, ``hard`` against ``easy``.

Each deal is played twice with the seats swapped, so each strength is dealer (and starter)
exactly half the time and both get the same tiles. The games are played with the engine's own
``new_game``/``apply``, each bot seeing only ``view_for`` its seat, and every tile is checked to
be in exactly one zone after every move. A game is won by whoever goes out; a game whose tiles
run out (or that passes ``MAX_ACTIONS``) has no winner. The stronger must win at least 60% of
all the games (docs/rules-45.md "Bots"); the seconds each bot move took are reported too.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from games.engine.r45.bots import BOT_STRENGTHS, choose_action
from games.engine.r45.state import apply, new_game, to_act
from games.engine.r45.views import view_for

GAMES = 200
MAX_ACTIONS = 4000
REQUIRED = 0.6


@dataclass(frozen=True)
class Outcome:
    winner: str | None
    reason: str
    turns: int
    scores: dict[str, int]
    move_seconds: list[float]


def play_game(strengths: tuple[str, str], seed: int) -> Outcome:
    """One game between two strengths (seat 0 plays ``strengths[0]``)."""
    secret = seed.to_bytes(8, "big") * 4
    state, _ = new_game(2, secret)
    rngs = [random.Random(f"r45-{seed}-{seat}") for seat in range(2)]
    seconds: list[float] = []
    actions = 0
    while not state.finished and actions < MAX_ACTIONS:
        seat = to_act(state)[0]
        started = time.perf_counter()
        action = choose_action(view_for(state, seat), rngs[seat], strengths[seat])
        seconds.append(time.perf_counter() - started)
        state, _ = apply(state, action, secret)
        zones = state.zones()
        if len(zones) != 106 or len(set(zones)) != 106:
            raise AssertionError(f"tiles not conserved in game {seed} after {action}")
        actions += 1
    winner = strengths[state.winner] if state.finished and state.winner >= 0 else None
    scores = {strengths[s]: state.scores[s] for s in range(2)} if state.finished else {}
    return Outcome(winner, state.reason or "unfinished", state.turn_number, scores, seconds)


def match_up(weaker: str, stronger: str, games: int, first_seed: int) -> dict[str, Any]:
    wins = {weaker: 0, stronger: 0}
    reasons: dict[str, int] = {}
    points = {weaker: 0, stronger: 0}
    turns = 0
    moves: list[float] = []
    for n in range(games):
        pair = (weaker, stronger) if n % 2 == 0 else (stronger, weaker)
        outcome = play_game(pair, first_seed + n // 2)
        if outcome.winner is not None:
            wins[outcome.winner] += 1
        reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
        for name, score in outcome.scores.items():
            points[name] += score
        turns += outcome.turns
        moves += outcome.move_seconds
    rate = wins[stronger] / games
    return {
        "games": games,
        "wins": wins,
        "stronger_win_rate": round(rate, 3),
        "required": REQUIRED,
        "passes": rate >= REQUIRED,
        "endings": reasons,
        "mean_points": {k: round(v / games, 1) for k, v in points.items()},
        "mean_turns": round(turns / games, 1),
        "move_seconds_mean": round(sum(moves) / max(1, len(moves)), 4),
        "move_seconds_max": round(max(moves, default=0.0), 3),
    }


def main(games: int = GAMES) -> dict[str, Any]:
    weaker, stronger = BOT_STRENGTHS[0], BOT_STRENGTHS[-1]
    result = match_up(weaker, stronger, games, first_seed=45_000)
    print(
        f"r45 {stronger} vs {weaker}: {games} games, {stronger} won "
        f"{result['stronger_win_rate']:.1%} (needs {REQUIRED:.0%}); endings {result['endings']}; "
        f"move s mean {result['move_seconds_mean']} max {result['move_seconds_max']}",
        flush=True,
    )
    return {f"{weaker}-{stronger}": result}


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)
