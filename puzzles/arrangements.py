"""Ways to arrange tiles into melds, and what a rearrangement costs: the verifier's tools.

Pure functions on engine types (no Django). Tiles are engine :class:`Tile` kinds; a meld is a
tuple of them in written order (runs lowest first, jokers in place). Everything here is
deterministic: candidate melds come in a fixed order (or the order of a seeded ``random.Random``),
and no set of tiles is ever iterated, so results do not depend on ``PYTHONHASHSEED``.

>>> from games.engine.tiles import parse_tiles
>>> table = [tuple(parse_tiles("R3 R4 R5 R6 R7 R8".split()))]
>>> rack = parse_tiles(["R6"])
>>> placeable_without_rearranging(table, rack)
False
>>> count = count_solutions(table, rack)
>>> count.solutions, [" ".join(map(str, m)) for m in count.easiest]
(1, ['R3 R4 R5 R6', 'R6 R7 R8'])
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product

from games.engine.errors import IllegalMove
from games.engine.melds import readings
from games.engine.rules import RULES, Rules
from games.engine.tiles import COLOURS, JOKER, Tile
from games.engine.turn import check_turn, check_turn_codes

Meld = tuple[Tile, ...]
Table = Sequence[Meld]

CLASSIC: Rules = RULES["classic"]
NUMBERS = CLASSIC.max_number
SOLUTION_CAP = 10
SEARCH_BUDGET = 60_000


def tile_order(tile: Tile) -> tuple[int, int]:
    """Numbers first, then colours in the order K B R Y; jokers last."""
    if tile.colour is None:
        return (99, 9)
    return (tile.number, COLOURS.index(tile.colour))


def codes(melds: Table) -> list[list[str]]:
    return [[str(tile) for tile in meld] for meld in melds]


def meld_key(meld: Meld) -> tuple[str, ...]:
    """A meld as the tiles it groups, whatever their order (``R5 R6 R7 J`` = ``J R5 R6 R7``)."""
    return tuple(sorted(str(tile) for tile in meld))


def table_key(melds: Table) -> tuple[tuple[str, ...], ...]:
    """An arrangement as which tiles go together: the identity of a distinct solution."""
    return tuple(sorted(meld_key(meld) for meld in melds))


def real_key(melds: Table) -> tuple[tuple[str, ...], ...]:
    """An arrangement as which real tiles go together, wherever the jokers are."""
    return tuple(sorted(meld_key(tuple(t for t in meld if not t.is_joker)) for meld in melds))


def is_meld(meld: Sequence[Tile]) -> bool:
    return bool(readings(list(meld), NUMBERS))


# ---------------------------------------------------------------------------------------------
# Arranging a multiset of tiles into melds


class BudgetExceeded(Exception):
    """The search looked at more candidate melds than it was allowed to."""


# Inside the search a tile is an int: ``(number - 1) * 4 + colour`` (so ints sort like
# :func:`tile_order`), a joker is ``JOKER_ID``. Counting in a list of 52 is much faster than
# hashing tiles.
COLOUR_COUNT = len(COLOURS)
JOKER_ID = NUMBERS * COLOUR_COUNT
IntMeld = tuple[int, ...]


def _tile_id(tile: Tile) -> int:
    if tile.colour is None:
        return JOKER_ID
    return (tile.number - 1) * COLOUR_COUNT + COLOURS.index(tile.colour)


def _tile_of(tile_id: int) -> Tile:
    if tile_id == JOKER_ID:
        return JOKER
    return Tile(COLOURS[tile_id % COLOUR_COUNT], tile_id // COLOUR_COUNT + 1)


@dataclass
class _Search:
    counts: list[int]
    jokers: int
    rng: random.Random | None
    budget: int

    def spend(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise BudgetExceeded

    def take(self, meld: IntMeld) -> None:
        for tile in meld:
            if tile == JOKER_ID:
                self.jokers -= 1
            else:
                self.counts[tile] -= 1

    def give(self, meld: IntMeld) -> None:
        for tile in meld:
            if tile == JOKER_ID:
                self.jokers += 1
            else:
                self.counts[tile] += 1

    def stranded(self, start: int, meld: IntMeld | None) -> bool:
        """Whether some tile left can be in no meld at all (the branch is dead).

        Taking ``meld`` can only strand its neighbours (or anything, if it took a joker).
        """
        counts, jokers = self.counts, self.jokers
        if meld is None or JOKER_ID in meld:
            near: Iterable[int] = range(start, JOKER_ID)
        else:
            near = {n for tile in meld for n in NEIGHBOURS[tile] if n >= start}
        return any(counts[t] and not _could_meld(counts, jokers, t) for t in near)


def _neighbours(tile: int) -> tuple[int, ...]:
    number, colour = divmod(tile, COLOUR_COUNT)
    same_number = [number * 4 + c for c in range(COLOUR_COUNT)]
    same_colour = [n * 4 + colour for n in range(max(0, number - 2), min(NUMBERS, number + 3))]
    return tuple(sorted(set(same_number + same_colour)))


def _group_mates(tile: int) -> tuple[int, ...]:
    number, colour = divmod(tile, COLOUR_COUNT)
    return tuple(number * 4 + c for c in range(COLOUR_COUNT) if c != colour)


def _run_windows(tile: int) -> tuple[tuple[int, int], ...]:
    """The other two cells of each three-long run through ``tile``."""
    number, colour = divmod(tile, COLOUR_COUNT)
    windows = []
    for first in range(max(0, number - 2), min(number, NUMBERS - 3) + 1):
        a, b = (n * 4 + colour for n in range(first, first + 3) if n != number)
        windows.append((a, b))
    return tuple(windows)


NEIGHBOURS = tuple(_neighbours(tile) for tile in range(JOKER_ID))
GROUP_MATES = tuple(_group_mates(tile) for tile in range(JOKER_ID))
RUN_WINDOWS = tuple(_run_windows(tile) for tile in range(JOKER_ID))


def _could_meld(counts: list[int], jokers: int, tile: int) -> bool:
    """Whether ``tile`` could still be in some three-tile meld (a cheap necessary test)."""
    if jokers >= 2:
        return True
    mates = sum(1 for m in GROUP_MATES[tile] if counts[m])
    if mates + jokers >= 2:
        return True
    return any((not counts[a]) + (not counts[b]) <= jokers for a, b in RUN_WINDOWS[tile])


def melds_with(lowest: Tile, counts: Counter[Tile], jokers: int) -> list[Meld]:
    """Every meld holding ``lowest`` as its lowest real tile, from ``counts`` and ``jokers``.

    Real tiles may be stood in for by jokers (the real one then goes elsewhere), and jokers may
    lead or trail a run, so together with :func:`arrangements` this reaches every arrangement.
    """
    table = [0] * JOKER_ID
    for tile, count in counts.items():
        if not tile.is_joker:
            table[_tile_id(tile)] = count
    found = _melds_with(_tile_id(lowest), table, jokers)
    return [tuple(_tile_of(t) for t in meld) for meld in found]


def _melds_with(lowest: int, counts: list[int], jokers: int) -> list[IntMeld]:
    number, colour = divmod(lowest, COLOUR_COUNT)
    found: list[IntMeld] = []
    others = [number * 4 + c for c in range(colour + 1, COLOUR_COUNT) if counts[number * 4 + c]]
    for size in range(len(others) + 1):
        for chosen in combinations(others, size):
            for wild in range(min(jokers, 2) + 1):
                if 3 <= 1 + size + wild <= 4:
                    found.append((lowest, *chosen, *(JOKER_ID,) * wild))

    def extend(meld: list[int], nxt: int, wild: int) -> None:
        if len(meld) >= 3:
            found.append(tuple(meld))
        if nxt >= NUMBERS:
            return
        tile = nxt * 4 + colour
        if counts[tile] > 0:
            meld.append(tile)
            extend(meld, nxt + 1, wild)
            meld.pop()
        if wild > 0:
            meld.append(JOKER_ID)
            extend(meld, nxt + 1, wild - 1)
            meld.pop()

    for lead in range(min(jokers, number) + 1):
        extend([JOKER_ID] * lead + [lowest], number + 1, jokers - lead)
    return found


def arrangements(
    tiles: Sequence[Tile], rng: random.Random | None = None, budget: int = SEARCH_BUDGET
) -> Iterator[list[Meld]]:
    """Every way to arrange all of ``tiles`` into valid melds (as ordered melds).

    Each grouping of tile kinds comes once, up to where jokers sit (a joker leading or trailing
    a run, or standing in for a real tile elsewhere, is another arrangement); compare with
    :func:`table_key`. With ``rng`` the candidates are tried in a shuffled order, so the first
    arrangement is a random one. Raises :class:`BudgetExceeded` after ``budget`` candidate
    melds.
    """
    counts = [0] * JOKER_ID
    jokers = 0
    for tile in tiles:
        if tile.is_joker:
            jokers += 1
        else:
            counts[_tile_id(tile)] += 1
    search = _Search(counts, jokers, rng, budget)
    for found in _arrange(search, 0, None):
        yield [tuple(_tile_of(t) for t in meld) for meld in found]


def _arrange(search: _Search, start: int, previous: IntMeld | None) -> Iterator[list[IntMeld]]:
    counts = search.counts
    lowest = next((t for t in range(start, JOKER_ID) if counts[t]), None)
    if lowest is None:
        if search.jokers == 0:
            yield []
        return
    if search.stranded(lowest, previous):
        return
    options = _melds_with(lowest, counts, search.jokers)
    if search.rng is not None:
        search.rng.shuffle(options)
    for meld in options:
        # Two copies of the lowest tile: take their melds in one order only.
        if previous is not None and start == lowest and _sort_key(meld) < _sort_key(previous):
            continue
        search.spend()
        search.take(meld)
        for rest in _arrange(search, lowest, meld):
            yield [meld, *rest]
        search.give(meld)


def _sort_key(meld: IntMeld) -> IntMeld:
    return tuple(sorted(meld))


def random_splits(
    tiles: Sequence[Tile], rack_size: int, rng: random.Random, budget: int = 2_000
) -> Iterator[tuple[list[Meld], list[Tile]]]:
    """Random ways to set ``rack_size`` of ``tiles`` aside (the rack) and arrange the rest
    into melds (the starting table). Raises :class:`BudgetExceeded` after ``budget`` steps."""
    counts = [0] * JOKER_ID
    jokers = 0
    for tile in tiles:
        if tile.is_joker:
            jokers += 1
        else:
            counts[_tile_id(tile)] += 1
    search = _Search(counts, jokers, rng, budget)
    for melds, aside in _split(search, 0, rack_size):
        yield (
            [tuple(_tile_of(t) for t in meld) for meld in melds],
            [_tile_of(t) for t in aside],
        )


_ASIDE = (-1,)  # the option "set the lowest tile aside"


def _split(search: _Search, start: int, skips: int) -> Iterator[tuple[list[IntMeld], list[int]]]:
    counts = search.counts
    lowest = next((t for t in range(start, JOKER_ID) if counts[t]), None)
    if lowest is None:
        if search.jokers == skips:
            yield [], [JOKER_ID] * skips
        return
    stranded = sum(
        counts[t]
        for t in range(lowest, JOKER_ID)
        if counts[t] and not _could_meld(counts, search.jokers, t)
    )
    if stranded > skips:
        return
    options: list[IntMeld] = _melds_with(lowest, counts, search.jokers)
    if skips:
        options.append(_ASIDE)
    assert search.rng is not None
    search.rng.shuffle(options)
    for meld in options:
        search.spend()
        if meld is _ASIDE:
            counts[lowest] -= 1
            for melds, aside in _split(search, lowest, skips - 1):
                yield melds, [lowest, *aside]
            counts[lowest] += 1
            continue
        search.take(meld)
        for melds, aside in _split(search, lowest, skips):
            yield [meld, *melds], aside
        search.give(meld)


# ---------------------------------------------------------------------------------------------
# Legal solutions


def played_tiles(table: Table, rack: Sequence[Tile], final: Table) -> list[Tile]:
    """The rack tiles a final table puts down; raise ``IllegalMove``/``InvalidInput`` if illegal.

    The engine checks the turn (``check_turn_codes``, initial meld done). Codes do not say which
    copy of a tile is which, and the engine tries every reading of the jokers but only one of the
    real tiles; only the joker rule depends on that reading, so when it is the rule broken the
    other readings of duplicate tiles are tried too (:func:`_legal_reading`).
    """
    try:
        return check_turn_codes(
            CLASSIC, codes(table), [str(t) for t in rack], codes(final), initial_meld_done=True
        )
    except IllegalMove as error:
        if error.code != "joker_not_replaced":
            raise
        played = _legal_reading(table, rack, final)
        if played is None:
            raise
        return played


def _legal_reading(table: Table, rack: Sequence[Tile], final: Table) -> list[Tile] | None:
    """Try each way to tell duplicate tiles apart; the rack tiles played by the first legal one.

    Only the identities the joker rule looks at matter: which joker is which, and which copy of
    a table joker's meld-mate is which. Every other tile takes its copies in a fixed order, table
    copies first (every table tile must stay on the table).
    """
    kinds = [tile for meld in table for tile in meld] + list(rack)
    before: list[list[int]] = []
    for meld in table:
        start = sum(len(m) for m in before)
        before.append(list(range(start, start + len(meld))))
    rack_ids = list(range(len(kinds) - len(rack), len(kinds)))
    relevant = {JOKER}
    for meld in table:
        if any(t.is_joker for t in meld):
            relevant.update(meld)
    ids_of: dict[Tile, list[int]] = {}
    for i, tile in enumerate(kinds):
        ids_of.setdefault(tile, []).append(i)
    slots: dict[Tile, list[tuple[int, int]]] = {}
    for m, meld in enumerate(final):
        for p, tile in enumerate(meld):
            slots.setdefault(tile, []).append((m, p))
    choices = []
    for tile, places in slots.items():
        ids = ids_of.get(tile, [])
        if len(ids) < len(places):
            return None
        if tile in relevant:
            picks = list(permutations(ids, len(places)))
        else:
            picks = [tuple(ids[: len(places)])]
        choices.append([(places, pick) for pick in picks])
    for combo in product(*choices):
        after = [[0] * len(meld) for meld in final]
        for places, pick in combo:
            for (m, p), tile_id in zip(places, pick, strict=True):
                after[m][p] = tile_id
        try:
            result = check_turn(CLASSIC, kinds, before, rack_ids, after, True)
        except (IllegalMove, ValueError):
            continue
        return [kinds[i] for i in result.played]
    return None


def is_legal_solution(table: Table, rack: Sequence[Tile], final: Table) -> bool:
    """Whether ``final`` is a legal turn from ``table`` that puts down every rack tile."""
    if not _jokers_may_be_kept(table, final):
        return False
    try:
        return len(played_tiles(table, rack, final)) == len(rack)
    except (IllegalMove, ValueError):
        return False


def _jokers_may_be_kept(table: Table, final: Table) -> bool:
    """A quick necessary condition for the joker rule, by tile kinds alone: every table joker
    could still stand for a tile it stood for, or a real tile of such a kind could meet one of
    its old meld-mates' kinds. (Most arrangements a search meets fail this cheaply.)"""
    held_roles: set[Tile] = set()
    for meld in final:
        if any(t.is_joker for t in meld):
            for reading in readings(list(meld), NUMBERS):
                for pos, tile in enumerate(meld):
                    if tile.is_joker:
                        held_roles.update(reading.roles[pos])
    for meld in table:
        if not any(t.is_joker for t in meld):
            continue
        found = readings(list(meld), NUMBERS)
        mates = {t for t in meld if not t.is_joker}
        for pos, tile in enumerate(meld):
            if not tile.is_joker:
                continue
            roles = frozenset().union(*(r.roles[pos] for r in found))
            if roles & held_roles:
                continue
            if not any(roles & set(m) and mates & set(m) for m in final):
                return False
    return True


@dataclass(frozen=True)
class SolutionCount:
    """How many distinct legal arrangements put down the whole rack (``capped`` at the cap)."""

    solutions: int
    capped: bool
    easiest: tuple[Meld, ...] | None  # the one that moves the fewest table tiles


def count_solutions(
    table: Table, rack: Sequence[Tile], cap: int = SOLUTION_CAP, budget: int = SEARCH_BUDGET
) -> SolutionCount:
    """Count distinct legal final tables that put down every rack tile, up to ``cap``.

    Two solutions are the same when they group the same real tiles together: where a joker
    goes is not another idea, but which tiles meet is. ``easiest`` is the one moving the fewest
    table tiles (its jokers where the search met them first). A search that runs out of budget
    counts as capped: the position has too many ways to be a good puzzle.
    """
    everything = [tile for meld in table for tile in meld] + list(rack)
    seen: set[tuple[tuple[str, ...], ...]] = set()
    counted: set[tuple[tuple[str, ...], ...]] = set()
    legal: list[tuple[Meld, ...]] = []
    capped = False
    try:
        for final in arrangements(everything, budget=budget):
            key = table_key(final)
            real = real_key(final)
            if key in seen or real in counted:
                continue
            seen.add(key)
            if is_legal_solution(table, rack, final):
                counted.add(real)
                legal.append(tuple(final))
                if len(legal) >= cap:
                    capped = True
                    break
    except BudgetExceeded:
        capped = True
    if not legal:
        return SolutionCount(0, capped, None)
    easiest = min(legal, key=lambda f: (rearrangement(table, rack, f).cost, table_key(f)))
    return SolutionCount(len(legal), capped, easiest)


# ---------------------------------------------------------------------------------------------
# Trivial placements: extending melds without touching what is there


def extensions(meld: Meld, rack: Counter[Tile], jokers: int) -> Iterator[tuple[Meld, Meld]]:
    """Ways to add rack tiles to ``meld`` leaving its tiles where they are: (added, new meld).

    A run grows at its ends, a group by missing colours; a joker already in the meld keeps
    standing for what it stood for.
    """
    for reading in readings(list(meld), NUMBERS):
        if reading.kind == "run":
            yield from _run_extensions(meld, reading.roles, rack, jokers)
        else:
            yield from _group_extensions(meld, rack, jokers)


def _run_extensions(
    meld: Meld, roles: Sequence[frozenset[Tile]], rack: Counter[Tile], jokers: int
) -> Iterator[tuple[Meld, Meld]]:
    first = min(roles[0], key=tile_order)
    last = min(roles[-1], key=tile_order)
    colour = first.colour
    assert colour is not None

    def side(numbers: Sequence[int], wild: int) -> Iterator[tuple[list[Tile], int]]:
        """Fill ``numbers`` in order, each with a real rack tile or a joker."""
        if not numbers:
            yield [], wild
            return
        tile = Tile(colour, numbers[0])
        for rest, left in side(numbers[1:], wild):
            if rack[tile] - rest.count(tile) > 0:
                yield [tile, *rest], left
            if left > 0:
                yield [JOKER, *rest], left - 1

    room_low = first.number - 1
    room_high = NUMBERS - last.number
    for low in range(room_low + 1):
        for high in range(room_high + 1):
            if low + high == 0 or low + high > sum(rack.values()) + jokers:
                continue
            below = list(range(first.number - low, first.number))
            above = list(range(last.number + 1, last.number + high + 1))
            for low_tiles, left in side(below, jokers):
                for high_tiles, _ in side(above, left):
                    added = tuple(low_tiles + high_tiles)
                    if _fits(added, rack):
                        yield added, (*low_tiles, *meld, *high_tiles)


def _group_extensions(meld: Meld, rack: Counter[Tile], jokers: int) -> Iterator[tuple[Meld, Meld]]:
    real = [t for t in meld if not t.is_joker]
    number = real[0].number
    have = {t.colour for t in real}
    missing = [Tile(c, number) for c in COLOURS if c not in have and rack[Tile(c, number)] > 0]
    room = 4 - len(meld)
    for size in range(1, room + 1):
        for real_count in range(min(size, len(missing)) + 1):
            wild = size - real_count
            if wild > jokers:
                continue
            for chosen in combinations(missing, real_count):
                added = (*chosen, *[JOKER] * wild)
                grown = (*meld, *added)
                if is_meld(grown):
                    yield added, grown


def _fits(tiles: Sequence[Tile], rack: Counter[Tile]) -> bool:
    need = Counter(t for t in tiles if not t.is_joker)
    return all(rack[t] >= n for t, n in need.items())


def extends_alone(table: Table, tile: Tile) -> bool:
    """Whether ``tile`` alone can join a table meld without moving anything (a trivial move)."""
    single = Counter([tile]) if not tile.is_joker else Counter[Tile]()
    jokers = 1 if tile.is_joker else 0
    return any(any(True for _ in extensions(meld, single, jokers)) for meld in table)


def placeable_without_rearranging(table: Table, rack: Sequence[Tile]) -> bool:
    """Whether every rack tile can go down by extending table melds and making new melds
    from rack tiles alone, with no table tile moving: then the puzzle teaches nothing."""
    real = Counter(t for t in rack if not t.is_joker)
    jokers = sum(1 for t in rack if t.is_joker)
    return _place_trivially(list(table), real, jokers)


def _place_trivially(melds: list[Meld], rack: Counter[Tile], jokers: int) -> bool:
    if not melds:
        rest = [t for t, n in rack.items() for _ in range(n)] + [JOKER] * jokers
        if not rest:
            return True
        try:
            return next(arrangements(rest, budget=2_000), None) is not None
        except BudgetExceeded:
            return False
    meld, others = melds[0], melds[1:]
    if _place_trivially(others, rack, jokers):
        return True
    for added, _ in extensions(meld, rack, jokers):
        used = Counter(t for t in added if not t.is_joker)
        wild = sum(1 for t in added if t.is_joker)
        if _place_trivially(others, rack - used, jokers - wild):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# What a solution rearranges


@dataclass(frozen=True)
class Rearrangement:
    """How a final table changes the starting one.

    Each final meld may continue one starting meld (its *home*: the one it shares most tiles
    with). ``moved`` counts table tiles that end up outside their meld's continuation,
    ``disturbed`` the starting melds that lose at least one tile, ``chain`` the most starting
    melds tied together by moved tiles, ``from_rack[i]`` whether final meld ``i`` takes rack
    tiles.
    """

    moved: int
    disturbed: int
    chain: int
    from_rack: tuple[bool, ...]

    @property
    def cost(self) -> tuple[int, int, int]:
        return (self.moved, self.disturbed, self.chain)


def rearrangement(table: Table, rack: Sequence[Tile], final: Table) -> Rearrangement:
    homes = _homes(table, final)
    stay = {s: Counter(table[s]) & Counter(final[f]) for f, s in homes.items()}
    leaving: list[tuple[Tile, int]] = []  # (tile, starting meld) of tiles that move
    for s, meld in enumerate(table):
        left = Counter(meld) - stay.get(s, Counter())
        leaving += [(tile, s) for tile in sorted(left.elements(), key=tile_order)]
    rack_left = Counter(rack)
    parent = list(range(len(table)))

    def root(s: int) -> int:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    from_rack = []
    for f, meld in enumerate(final):
        home = homes.get(f)
        incoming = Counter(meld) - (stay[home] if home is not None else Counter())
        sources = [] if home is None else [home]
        took_rack = False
        for tile in sorted(incoming.elements(), key=tile_order):
            match = next((i for i, (t, _) in enumerate(leaving) if t == tile), None)
            if match is not None:
                sources.append(leaving.pop(match)[1])
            elif rack_left[tile] > 0:
                rack_left[tile] -= 1
                took_rack = True
        from_rack.append(took_rack)
        for s in sources[1:]:
            parent[root(s)] = root(sources[0])
    home_of = {s: f for f, s in homes.items()}
    left = [
        len(meld)
        - sum(stay.get(s, Counter()).values())
        + _freed_in_place(meld, stay.get(s, Counter()), final[home_of[s]] if s in home_of else ())
        for s, meld in enumerate(table)
    ]
    moved_from = [s for s in range(len(table)) if left[s]]
    sizes = Counter(root(s) for s in range(len(table)))
    chain = max((sizes[root(s)] for s in moved_from), default=0)
    return Rearrangement(sum(left), len(moved_from), chain, tuple(from_rack))


def _freed_in_place(start: Meld, stay: Counter[Tile], home: Meld) -> int:
    """Jokers that stay in their meld but were replaced there by the real tile (and so stand
    for something else now): they count as moved."""
    if not stay[JOKER]:
        return 0
    found = readings(list(start), NUMBERS)
    roles: set[Tile] = set()
    for pos, tile in enumerate(start):
        if tile.is_joker:
            for reading in found:
                roles.update(reading.roles[pos])
    return min(stay[JOKER], sum(1 for tile in home if tile in roles))


def _homes(table: Table, final: Table) -> dict[int, int]:
    """final meld -> the starting meld it continues (largest overlaps first, one each)."""
    pairs = []
    for s, start in enumerate(table):
        for f, end in enumerate(final):
            overlap = sum((Counter(start) & Counter(end)).values())
            if overlap:
                pairs.append((-overlap, s, f))
    homes: dict[int, int] = {}
    taken: set[int] = set()
    for _, s, f in sorted(pairs):
        if s not in taken and f not in homes:
            homes[f] = s
            taken.add(s)
    return homes
