"""Pairing and scoring for tournaments (docs/tournaments.md): pure, the standard library only,
but for py4swiss's FIDE Dutch engine, which pairs Swiss fields of up to ``DUTCH_LIMIT`` players
at 2 a table (``tournaments.pairing.dutch``, imported when first needed).

The services (tournaments/services.py) turn stored rows into these inputs and store the
answers. Everything is deterministic: the same inputs and seed give the same round.

>>> placement_points([1, 2, 3, 4], 4)
[3.0, 2.0, 1.0, 0.0]
>>> placement_points([1, 1, 3, 4], 4)
[2.5, 2.5, 1.0, 0.0]
>>> table_sizes(13, 4)
[4, 3, 3, 3]
>>> table_sizes(10, 4)
[4, 3, 3]
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

DEFAULT_POINTS: dict[int, tuple[float, ...]] = {
    2: (1.0, 0.0),
    3: (2.0, 1.0, 0.0),
    4: (3.0, 2.0, 1.0, 0.0),
}
# The largest Swiss field at 2 a table that py4swiss's Dutch engine pairs: its slowest round took
# 0.11-0.32 s at 64 players on the shared 2-core machine, 0.52-0.88 s at 128 (docs/tournaments.md
# "Swiss, 2 per table"). Larger fields, and rounds the engine cannot pair, go to ``_pairs``.
DUTCH_LIMIT = 64
# How far down the standings a 2-per-table pairing looks for a partner before it widens the
# search to everyone (docs/tournaments.md "Swiss, 2 per table").
WINDOW = 48
REPEAT = 1000.0  # the cost of one repeat meeting, against 1 per point of score spread
SWAP_PASSES = 6


@dataclass(frozen=True)
class Entrant:
    key: int
    rating: float
    points: float = 0.0
    met: frozenset[int] = frozenset()
    firsts: tuple[bool, ...] = ()
    byes: int = 0


@dataclass(frozen=True)
class Round:
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class ArenaWaiter:
    key: int
    points: float
    rating: float
    last_opponents: frozenset[int] = frozenset()
    waiting_since: float = 0.0


@dataclass(frozen=True)
class GameRecord:
    """One scored table: its players in seat order, their places, match totals and points.
    ``played`` is false for an aborted game (docs/tournaments.md "Aborted games"): its points
    count, but in the tiebreaks it is a bye, with no opponent met and no match total.
    ``absent`` holds the keys of the seats whose person never came (a stand-in played them):
    in the tiebreaks nobody meets them and they meet nobody, so a seat whose every opponent was
    absent (a forfeit) has it as a bye too."""

    keys: tuple[int, ...]
    places: tuple[int, ...]
    totals: tuple[int, ...]
    points: tuple[float, ...]
    played: bool = True
    absent: frozenset[int] = frozenset()

    def met(self, key: int) -> tuple[int, ...]:
        """The seats ``key`` met in this game, for the tiebreaks: every other seat that came,
        none in an aborted game or from an absent seat.

        >>> game = GameRecord((1, 2, 3), (1, 2, 3), (9, 0, -9), (2, 1, 0), absent=frozenset({3}))
        >>> game.met(1), game.met(3)
        ((2,), ())
        """
        if not self.played or key in self.absent:
            return ()
        return tuple(k for k in self.keys if k != key and k not in self.absent)


@dataclass(frozen=True)
class Standing:
    rank: int
    key: int
    points: float
    tiebreaks: dict[str, float] = field(default_factory=dict)


def placement_points(
    places: Sequence[int], table_size: int, scheme: Sequence[float] | None = None
) -> list[float]:
    """Points by place; seats sharing a place share the points of the places they span."""
    points = list(scheme or DEFAULT_POINTS[table_size])
    points += [0.0] * (len(places) - len(points))
    shared = []
    for place in places:
        same = sum(1 for other in places if other == place)
        span = points[place - 1 : place - 1 + same]
        shared.append(sum(span) / len(span))
    return shared


def table_sizes(count: int, table_size: int) -> list[int]:
    """Tables for ``count`` players: all of ``table_size`` where it divides; at 4 a table,
    tables of 3 for the rest; at 3, tables of 4. Never a table of 2 when the size is 3 or 4.
    Players that fit no table (5 at tables of 4, 1 or 2 at any) are left for byes."""
    if table_size == 2:
        return [2] * (count // 2)
    other = 3 if table_size == 4 else 4
    for big in range(count // table_size, -1, -1):
        rest = count - big * table_size
        if rest % other == 0:
            return [table_size] * big + [other] * (rest // other)
    return table_sizes(count - 1, table_size)


def _order(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.points, -e.rating, e.key))


def _byes(order: list[Entrant], seated: int) -> tuple[list[Entrant], list[int]]:
    """Byes to the lowest-ranked players with the fewest byes, until the rest fit tables."""
    playing = list(order)
    byes: list[int] = []
    while len(playing) > seated:
        fewest = min(e.byes for e in playing)
        lowest = next(e for e in reversed(playing) if e.byes == fewest)
        playing.remove(lowest)
        byes.append(lowest.key)
    return playing, byes


def swiss(entrants: Sequence[Entrant], table_size: int, round_number: int, seed: bytes) -> Round:
    """One Swiss round: 2 a table by the FIDE Dutch system up to ``DUTCH_LIMIT`` players, by
    score groups (top half against bottom half, no repeat) above it or where the Dutch rules
    allow no pairing; 3-4 a table by score bracket, repeats and spread kept low
    (docs/tournaments.md)."""
    order = _order(entrants)
    seated = sum(table_sizes(len(order), table_size))
    playing, byes = _byes(order, seated)
    if table_size == 2:
        if len(order) <= DUTCH_LIMIT:
            paired = dutch.swiss_round(order, round_number, byes[0] if byes else None)
            if paired is not None:
                return paired
        return Round(tuple(_pairs(playing, round_number)), tuple(byes))
    rng = random.Random(seed)
    if round_number == 1:
        # Round one: the field is cut by rating into as many bands as a table has seats, and
        # each table takes one player of each band (so the strongest do not meet at once).
        tables = _banded(playing, table_sizes(len(playing), table_size), rng)
    else:
        tables = _brackets(playing, table_sizes(len(playing), table_size))
    return Round(tuple(_seat_order(t) for t in tables), tuple(byes))


def _pairs(playing: list[Entrant], round_number: int) -> list[tuple[int, ...]]:
    """Pair down the standings: each unpaired player meets, among those not met before, the
    one closest to the Dutch partner (half their score group further down), by backtracking."""
    groups: dict[float, list[int]] = {}
    for i, e in enumerate(playing):
        groups.setdefault(e.points, []).append(i)
    ideal: dict[int, int] = {}
    for members in groups.values():
        half = len(members) // 2 or 1
        for j, i in enumerate(members):
            ideal[i] = members[j + half] if j + half < len(members) else members[-1]
    free = [True] * len(playing)
    pairs: list[tuple[int, int]] = []

    def candidates(i: int, wide: bool) -> list[int]:
        a = playing[i]
        end = len(playing) if wide else min(len(playing), i + 1 + WINDOW)
        found = [j for j in range(i + 1, end) if free[j] and playing[j].key not in a.met]
        target = ideal.get(i, i + 1)
        return sorted(found, key=lambda j: (playing[j].points != a.points, abs(j - target), j))

    def solve(start: int, budget: list[int]) -> bool:
        i = next((k for k in range(start, len(playing)) if free[k]), None)
        if i is None:
            return True
        free[i] = False
        for wide in (False, True):
            for j in candidates(i, wide):
                budget[0] -= 1
                if budget[0] < 0:
                    break
                free[j] = False
                pairs.append((i, j))
                if solve(i + 1, budget):
                    return True
                pairs.pop()
                free[j] = True
            if budget[0] < 0:
                break
        free[i] = True
        return False

    depth = sys.getrecursionlimit()
    sys.setrecursionlimit(max(depth, len(playing) + 200))
    try:
        if not solve(0, [200_000]):
            # No pairing avoids every repeat within the budget: pair straight down instead.
            pairs = [(k, k + 1) for k in range(0, len(playing) - 1, 2)]
    finally:
        sys.setrecursionlimit(depth)
    return [_seat_order((playing[i], playing[j])) for i, j in pairs]


def _seat_order(table: Sequence[Entrant]) -> tuple[int, ...]:
    """Who moves first: the player who has been first least often, then the one who was not
    first last game, then the higher ranked (the "colour" of a two-player table)."""
    ranked = {e.key: n for n, e in enumerate(table)}

    def key(e: Entrant) -> tuple[int, int, int]:
        last = 1 if e.firsts and e.firsts[-1] else 0
        return (sum(e.firsts), last, ranked[e.key])

    return tuple(e.key for e in sorted(table, key=key))


def _banded(playing: list[Entrant], sizes: list[int], rng: random.Random) -> list[list[Entrant]]:
    tables: list[list[Entrant]] = [[] for _ in sizes]
    pool = list(playing)
    seat = 0
    while pool:
        open_tables = [t for t, size in zip(tables, sizes, strict=True) if len(t) == seat]
        if not open_tables:
            seat += 1
            continue
        band, pool = pool[: len(open_tables)], pool[len(open_tables) :]
        rng.shuffle(band)
        for table, player in zip(open_tables, band, strict=False):
            table.append(player)
        if len(band) < len(open_tables):
            break
        seat += 1
        tables_full = all(len(t) == s for t, s in zip(tables, sizes, strict=True))
        if tables_full:
            break
    return tables


def _cost(table: Sequence[Entrant]) -> float:
    repeats = sum(1 for a in table for b in table if a.key < b.key and b.key in a.met)
    points = [e.points for e in table]
    return REPEAT * repeats + (max(points) - min(points))


def _brackets(playing: list[Entrant], sizes: list[int]) -> list[list[Entrant]]:
    """Cut the standings into tables, leaders first; then swap players between nearby tables
    while it lowers repeats (first) and score spread (then)."""
    tables: list[list[Entrant]] = []
    at = 0
    for size in sizes:
        tables.append(playing[at : at + size])
        at += size
    for _ in range(SWAP_PASSES):
        better = False
        for t in range(len(tables)):
            if _cost(tables[t]) == 0:
                continue
            for u in range(max(0, t - 2), min(len(tables), t + 3)):
                if u == t:
                    continue
                for i in range(len(tables[t])):
                    for j in range(len(tables[u])):
                        a, b = tables[t][i], tables[u][j]
                        before = _cost(tables[t]) + _cost(tables[u])
                        tables[t][i], tables[u][j] = b, a
                        if _cost(tables[t]) + _cost(tables[u]) < before:
                            better = True
                        else:
                            tables[t][i], tables[u][j] = a, b
        if not better:
            break
    return tables


def round_robin(keys: Sequence[int], table_size: int) -> list[Round]:
    """The whole schedule. At 2 a table, Berger's: n-1 rounds (n rounded up to even, the
    extra seat a bye) in which everyone meets everyone once. At 3-4 a table, rounds are built
    greedily, each table filled with the players who have met its members least, until every
    pair has met (docs/tournaments.md "Round robin")."""
    players = list(keys)
    if table_size == 2:
        return _berger(players)
    met: dict[int, dict[int, int]] = {k: {} for k in players}
    rounds: list[Round] = []
    unmet = {(a, b) for a in players for b in players if a < b}
    byes_had: dict[int, int] = dict.fromkeys(players, 0)
    while unmet and len(rounds) < 2 * len(players):
        sizes = table_sizes(len(players), table_size)
        seated = sum(sizes)
        order = sorted(players, key=lambda k: (-byes_had[k], k))
        sitting = sorted(players, key=lambda k: (byes_had[k], -players.index(k)))
        byes = sitting[: len(players) - seated] if seated < len(players) else []
        for k in byes:
            byes_had[k] += 1
        free = [k for k in order if k not in byes]
        free.sort(key=lambda k: -sum(1 for o in players if (min(k, o), max(k, o)) in unmet))
        tables: list[tuple[int, ...]] = []
        for size in sizes:
            table = [free.pop(0)]
            while len(table) < size:
                best = min(
                    free,
                    key=lambda k: (sum(met[k].get(m, 0) for m in table), free.index(k)),
                )
                free.remove(best)
                table.append(best)
            tables.append(tuple(table))
            for a in table:
                for b in table:
                    if a != b:
                        met[a][b] = met[a].get(b, 0) + 1
                unmet -= {(min(a, b), max(a, b)) for a in table for b in table if a != b}
        rounds.append(Round(tuple(tables), tuple(byes)))
    return rounds


def _berger(players: list[int]) -> list[Round]:
    """The circle method: one seat fixed, the others turning a place a round. Who moves
    first goes to whoever has moved first less often so far, then to who did not last time."""
    seats: list[int | None] = [*players]
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    firsts = dict.fromkeys(players, 0)
    last_first = dict.fromkeys(players, False)
    rounds = []
    for _ in range(n - 1):
        pairs = [(seats[i], seats[n - 1 - i]) for i in range(n // 2)]
        tables = []
        for a, b in pairs:
            if a is None or b is None:
                continue
            first, second = sorted((a, b), key=lambda k: (firsts[k], last_first[k], k))
            firsts[first] += 1
            last_first[first], last_first[second] = True, False
            tables.append((first, second))
        byes = tuple(k for pair in pairs if None in pair for k in pair if k is not None)
        rounds.append(Round(tuple(tables), byes))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def arena_tables(
    waiting: Sequence[ArenaWaiter], table_size: int
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Tables to seat now from the waiting players, by points then rating, each swapped with
    a neighbouring table's player where that keeps someone from their last opponents; those
    that make no full table keep waiting (docs/tournaments.md "Arena")."""
    order = sorted(waiting, key=lambda w: (-w.points, -w.rating, w.waiting_since, w.key))
    count = len(order) - len(order) % table_size
    tables = [list(order[i : i + table_size]) for i in range(0, count, table_size)]

    def clashes(table: list[ArenaWaiter]) -> int:
        return sum(1 for a in table for b in table if b.key in a.last_opponents)

    for t in range(len(tables)):
        if not clashes(tables[t]):
            continue
        for u in (t + 1, t - 1, t + 2, t - 2):
            if not 0 <= u < len(tables):
                continue
            for i in range(table_size):
                for j in range(table_size):
                    before = clashes(tables[t]) + clashes(tables[u])
                    tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
                    if clashes(tables[t]) + clashes(tables[u]) >= before:
                        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
    left = [w.key for w in order[count:]]
    return [tuple(w.key for w in table) for table in tables], left


def arena_points(history: Sequence[int], base: float) -> float:
    """A game's arena points: its placement points, doubled while on a streak, that is when
    the player's two previous games were both first places (lila's "fire")."""
    streak = len(history) >= 2 and history[-1] == 1 and history[-2] == 1
    return base * 2 if streak else base


def duplicate_points(
    groups: Sequence[Sequence[tuple[int, int]]], table_size: int
) -> dict[int, float]:
    """Each player of a group (everyone who held one seat's tiles) against the rest of it:
    one matchpoint per player outscored, half per tie, scaled to the first place's points so a
    duplicate round is worth what an ordinary one is."""
    top = DEFAULT_POINTS[table_size][0]
    earned: dict[int, float] = {}
    for group in groups:
        for key, score in group:
            others = [s for k, s in group if k != key]
            if not others:
                earned[key] = top / 2
                continue
            beaten = sum(1.0 if score > s else 0.5 if score == s else 0.0 for s in others)
            earned[key] = top * beaten / len(others)
    return earned


def standings(
    keys: Sequence[int],
    records: Sequence[GameRecord],
    byes: dict[int, float],
    ratings: dict[int, float],
) -> list[Standing]:
    """Points (tables and byes), then the tiebreaks: ``score`` (the sum of match totals),
    ``buchholz`` (the final points of every opponent met) and ``sonneborn_berger`` (the final
    points of each opponent placed below, half for a shared place), an aborted game's record
    (``played`` false) counting in the points only, as does a seat's game with no opponent
    met (its own absence, or every opponent's: ``GameRecord.met``). Equal on all three, the
    higher rating ranks first, then the earlier entry."""
    points = {k: byes.get(k, 0.0) for k in keys}
    score = dict.fromkeys(keys, 0)
    for record in records:
        for k, p, total in zip(record.keys, record.points, record.totals, strict=True):
            points[k] = points.get(k, 0.0) + p
            score[k] = score.get(k, 0) + (total if record.met(k) else 0)
    buchholz = dict.fromkeys(keys, 0.0)
    sb = dict.fromkeys(keys, 0.0)
    for record in records:
        place_of = dict(zip(record.keys, record.places, strict=True))
        for k, place in place_of.items():
            for other in record.met(k):  # an aborted game or an absence: as a bye
                other_place = place_of[other]
                buchholz[k] += points.get(other, 0.0)
                if place < other_place:
                    sb[k] += points.get(other, 0.0)
                elif place == other_place:
                    sb[k] += points.get(other, 0.0) / 2
    order = sorted(
        keys,
        key=lambda k: (-points[k], -score[k], -buchholz[k], -sb[k], -ratings.get(k, 0.0), k),
    )
    return [
        Standing(
            rank,
            k,
            points[k],
            {"score": score[k], "buchholz": buchholz[k], "sonneborn_berger": sb[k]},
        )
        for rank, k in enumerate(order, start=1)
    ]


# The FIDE Dutch wrapper reads this module's types, so it is imported once they exist.
from . import dutch  # noqa: E402
