"""Rummy 45 bots measured on duplicate deals, the rules each strength uses, and game lengths
(docs/rules-45.md "Bots", "Later turns").

* **Duplicate deals.** Each deal (one seed) is played once with every rotation of the seats, so
  every strength sits in every seat over the same tiles and the luck of the deal cancels out.
  A game's winner takes 1; a game with no winner gives each seat ``1 / players`` (a half at 2
  players). A strength's win share is its points over its games, with a Wilson 95% interval.
  Pairings: ``hard`` against ``easy`` and ``expert`` against ``hard`` at 2 players; one
  ``expert`` against three ``hard`` at 4 players. Targets: expert >= 60% against hard at 2
  players with the interval's lower bound above 55%; expert >= 35% at 4 players.
* **Rules used.** Over every bot game played above, how many games each strength broke the
  train, borrowed a joker, played on the board (announced it, took the trump or went out on
  it), exchanged doubles, stitched a 1 that was taken back, took the whole train with 3 tiles or
  fewer: every strength but ``easy`` must use each.
* **Lengths.** 1,000 bot games (2-4 players, strengths drawn at random) and 1,000 games of
  random legal actions: actions and stock renewals (percentiles), and how many ended by the
  house rule's renewal limit (under 1% of bot games must).

Every game is played with the engine's own ``new_game``/``apply``, each bot seeing only
``view_for`` its seat; the 106 tiles are checked to be in exactly one zone after every move.
Games run in at most 2 processes (``PROCESSES``; the environment variable
``R45_BENCH_PROCESSES`` sets another count, 1 on a shared machine).

Usage: python -m benchmarks.bench_r45_bots [DEALS_2P [DEALS_4P [LENGTH_GAMES [PAIRINGS]]]]
(PAIRINGS: comma-separated names, e.g. expert-hard-2p; a count of 0 skips that part)
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.r45.bots import BOT_STRENGTHS, best_display, candidate_melds, choose_action
from games.engine.r45.events import (
    DiscardTaken,
    DoublesExchanged,
    Event,
    JokerBorrowed,
    Stitched,
    TrainBroken,
    TrumpTaken,
    WentOutOnBoard,
)
from games.engine.r45.state import (
    TILES,
    Action,
    BreakTrain,
    Discard,
    Display,
    Draw,
    R45State,
    Ready,
    Stitch,
    TakeDiscard,
    apply,
    new_game,
    to_act,
)
from games.engine.r45.views import view_for

DEALS_2P = 1000
DEALS_4P = 1000
LENGTH_GAMES = 1000
PROCESSES = int(os.environ.get("R45_BENCH_PROCESSES", "2"))
MAX_ACTIONS = 20_000  # far past any game the renewal limit allows; a safety net only
Z95 = 1.959963984540054
TARGET_2P, TARGET_2P_LOW, TARGET_4P = 0.60, 0.55, 0.35
RULES = ("break_train", "borrow", "on_board", "doubles_exchange", "stitched_one", "whole_train")


@dataclass
class Played:
    """One game: who sat where, who won, how long it ran, which rules each seat used."""

    strengths: tuple[str, ...]
    winner: int
    reason: str
    actions: int
    renewals: int
    rules: list[set[str]] = field(default_factory=list)


def wilson(points: float, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion ``points / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = points / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return (round(centre - half, 4), round(centre + half, 4))


def _rules_of(events: Sequence[Event], state: R45State) -> dict[int, set[str]]:
    used: dict[int, set[str]] = {}
    for event in events:
        seat = getattr(event, "seat", None)
        if not isinstance(seat, int):
            continue
        mine = used.setdefault(seat, set())
        if isinstance(event, TrainBroken):
            mine.add("break_train")
            if state.few[seat] and event.start == 1:
                mine.add("whole_train")
        elif isinstance(event, JokerBorrowed):
            mine.add("borrow")
        elif isinstance(event, TrumpTaken | WentOutOnBoard) or (
            isinstance(event, DiscardTaken) and event.on_board
        ):
            mine.add("on_board")
        elif isinstance(event, DoublesExchanged):
            mine.add("doubles_exchange")
            used.setdefault(event.offerer, set()).add("doubles_exchange")
        elif isinstance(event, Stitched) and event.taken_back:
            mine.add("stitched_one")
    return used


def play_bots(strengths: Sequence[str], seed: int) -> Played:
    """A game of bots, seat ``s`` playing ``strengths[s]``, from the deal of ``seed``."""
    secret = seed.to_bytes(8, "big") * 4
    players = len(strengths)
    state, _ = new_game(players, secret)
    rng = random.Random(f"r45-{seed}-{'-'.join(strengths)}")
    rules: list[set[str]] = [set() for _ in range(players)]
    actions = 0
    while not state.finished and actions < MAX_ACTIONS:
        seat = to_act(state)[0]
        action = choose_action(view_for(state, seat), rng, strengths[seat])
        before = state
        state, events = apply(state, action, secret)
        _check(state, seed, action)
        for s, used in _rules_of(events, before).items():
            rules[s] |= used
        actions += 1
    return Played(
        tuple(strengths), state.winner, state.reason or "unfinished", actions, state.renewals, rules
    )


def _check(state: R45State, seed: int, action: Action) -> None:
    zones = state.zones()
    if len(zones) != len(TILES) or len(set(zones)) != len(TILES):
        raise AssertionError(f"tiles not conserved in game {seed} after {action}")


def _rotations(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    return [lineup[r:] + lineup[:r] for r in range(len(lineup))]


def _play_deal(job: tuple[tuple[str, ...], int]) -> list[Played]:
    lineup, seed = job
    return [play_bots(seats, seed) for seats in _rotations(lineup)]


def duplicate(
    lineup: tuple[str, ...], deals: int, first_seed: int
) -> tuple[dict[str, Any], list[Played]]:
    """Every deal played with every rotation of ``lineup``: each strength's win share."""
    jobs = [(lineup, first_seed + n) for n in range(deals)]
    with Pool(PROCESSES) as pool:
        games = [g for deal in pool.imap(_play_deal, jobs, chunksize=4) for g in deal]
    players = len(lineup)
    points: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    for game in games:
        for seat, strength in enumerate(game.strengths):
            seats[strength] += 1
            if game.winner == seat:
                points[strength] += 1
            elif game.winner < 0:
                points[strength] += 1 / players
    shares = {}
    for strength in dict.fromkeys(lineup):
        n = seats[strength]
        # Each game counts once per seat a strength held: its points over its seats.
        shares[strength] = {
            "seats": n,
            "share": round(points[strength] / n, 4),
            "wilson95": wilson(points[strength], n),
        }
    endings = Counter(g.reason for g in games)
    result = {
        "players": players,
        "deals": deals,
        "games": len(games),
        "shares": shares,
        "endings": dict(endings),
        "mean_actions": round(statistics.mean(g.actions for g in games), 1),
    }
    return result, games


def rules_used(games: Sequence[Played]) -> dict[str, Any]:
    """For each strength: its games, and in how many of them it used each rule."""
    table: dict[str, Counter[str]] = {s: Counter() for s in BOT_STRENGTHS}
    for game in games:
        for seat, strength in enumerate(game.strengths):
            table[strength]["games"] += 1
            for rule in game.rules[seat]:
                table[strength][rule] += 1
    return {s: {k: c[k] for k in ("games", *RULES)} for s, c in table.items() if c["games"]}


# ---------------------------------------------------------------------------------------------
# Random legal actions


def random_action(state: R45State, seat: int, rng: random.Random) -> Action:
    """A legal action picked at random among what a seat may do (the engine is asked)."""
    rack = list(state.racks[seat])
    if state.phase == "setup":
        return Ready(seat)
    options: list[Action] = []
    if not state.taken:
        options.append(Draw(seat))
        if len(state.train) > 1 and rng.random() < 0.3:
            tile = state.train[-1]
            melds, _ = best_display(rack + [tile], state.opened[seat] < 0, must=tile)
            options += [TakeDiscard(seat, melds), TakeDiscard(seat, on_board=True)]
    else:
        tile = rng.choice(rack)
        options.append(Discard(seat, tile))
        if rng.random() < 0.3:
            melds = candidate_melds(rack)
            if melds:
                options.append(Display(seat, (rng.choice(melds),)))
            for index in rng.sample(range(len(state.melds)), min(3, len(state.melds))):
                options.append(Stitch(seat, rng.choice(rack), index, rng.choice(["low", "high"])))
            if len(state.train) > 1:
                start = rng.randrange(1, len(state.train))
                found, _ = best_display(rack + list(state.train[start:]), False, state.train[start])
                if found:
                    options.append(BreakTrain(seat, start, found))
    rng.shuffle(options)
    for action in options:
        try:
            apply(state, action, state_seed(state))
        except (IllegalMove, InvalidInput):
            continue
        return action
    return Draw(seat) if not state.taken else Discard(seat, rack[0])


_SEEDS: dict[str, bytes] = {}


def state_seed(state: R45State) -> bytes:
    return _SEEDS[state.commitment]


def play_random(job: tuple[int, int]) -> Played:
    seed, players = job
    secret = (seed + 7_000_000).to_bytes(8, "big") * 4
    state, _ = new_game(players, secret)
    _SEEDS[state.commitment] = secret
    rng = random.Random(seed)
    actions = 0
    while not state.finished and actions < MAX_ACTIONS:
        seat = to_act(state)[0]
        action = random_action(state, seat, rng)
        state, _ = apply(state, action, secret)
        _check(state, seed, action)
        actions += 1
    del _SEEDS[state.commitment]
    return Played(
        ("random",) * players, state.winner, state.reason or "unfinished", actions, state.renewals
    )


def _play_mixed(seed: int) -> Played:
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    return play_bots([rng.choice(BOT_STRENGTHS) for _ in range(players)], 9_000_000 + seed)


def lengths(games: Sequence[Played]) -> dict[str, Any]:
    def spread(values: list[int]) -> dict[str, float]:
        values = sorted(values)
        at = lambda q: values[min(len(values) - 1, int(q * len(values)))]  # noqa: E731
        return {"median": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": values[-1]}

    limit = sum(1 for g in games if g.reason == "renewal_limit")
    return {
        "games": len(games),
        "actions": spread([g.actions for g in games]),
        "renewals": spread([g.renewals for g in games]),
        "renewal_histogram": dict(sorted(Counter(g.renewals for g in games).items())),
        "endings": dict(Counter(g.reason for g in games)),
        "ended_by_limit": limit,
        "ended_by_limit_share": round(limit / max(1, len(games)), 4),
    }


def main(
    deals_2p: int = DEALS_2P,
    deals_4p: int = DEALS_4P,
    length_games: int = LENGTH_GAMES,
    only: str = "",
) -> dict[str, Any]:
    """Every measure above; ``only`` names the pairings to play (comma-separated), all if empty."""
    started = time.perf_counter()
    results: dict[str, Any] = {}
    every: list[Played] = []
    for name, lineup, deals, seed in (
        ("hard-easy-2p", ("hard", "easy"), deals_2p, 45_000),
        ("expert-hard-2p", ("expert", "hard"), deals_2p, 46_000),
        ("expert-hard-4p", ("expert", "hard", "hard", "hard"), deals_4p, 47_000),
    ):
        if deals <= 0 or (only and name not in only.split(",")):
            continue
        result, games = duplicate(lineup, deals, seed)
        every += games
        results[name] = result
        print(f"r45 {name}: {result}", flush=True)
    two = results.get("expert-hard-2p", {}).get("shares", {}).get("expert")
    four = results.get("expert-hard-4p", {}).get("shares", {}).get("expert")
    results["targets"] = {
        "expert_2p": two and two["share"] >= TARGET_2P and two["wilson95"][0] > TARGET_2P_LOW,
        "expert_4p": four and four["share"] >= TARGET_4P,
    }
    results["rules_used"] = rules_used(every)
    print(f"r45 rules used: {results['rules_used']}", flush=True)
    if length_games > 0:
        with Pool(PROCESSES) as pool:
            bots = pool.map(_play_mixed, range(length_games), chunksize=8)
            randoms = pool.map(
                play_random, [(n, 2 + n % 3) for n in range(length_games)], chunksize=8
            )
        results["lengths"] = {"bots": lengths(bots), "random": lengths(randoms)}
        print(f"r45 lengths: {results['lengths']}", flush=True)
    results["seconds"] = round(time.perf_counter() - started, 1)
    return results


if __name__ == "__main__":
    numbers = [int(a) for a in sys.argv[1:4]]
    main(*numbers, only=sys.argv[4] if len(sys.argv) > 4 else "")  # type: ignore[misc]
