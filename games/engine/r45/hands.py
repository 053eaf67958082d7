"""Playing on the board: the combinations 14 tiles make (docs/rules-45.md "Playing on the board").

:func:`best_combination` names the best combination of a hand of 14 tiles, or ``None``:

>>> best_combination(parse_tiles("R1 R1 K2 K2 B5 B5 Y9 Y9 R13 R13 K7 K7 J J".split()))
('doubles', 800)
>>> best_combination(parse_tiles("R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K5".split()))
(None, 0)

Every combination but mozaic and doubles splits the 14 tiles into melds: *minors* are melds whose
tiles are all worth 5 in display values (a 1 before 2, 2-9), *majors* melds whose tiles are all
worth 10 (10-13, a 1 after 13 or in a set of 1s), *monocolor* runs of one colour, *bicolor* runs
of two colours, *normal* any melds (75 points when a joker is among them). A joker may stand in
any of them, and it may pair as a double; in a mozaic it may stand only in the middle six.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache

from ..tiles import COLOURS, JOKER, Tile, parse_tiles
from .melds import HIGH_ONE, Reading, readings, run_tile

__all__ = ["COMBINATIONS", "HAND", "best_combination", "combinations_of", "parse_tiles"]

HAND = 14
COMBINATIONS: dict[str, int] = {
    "doubles": 800,
    "monocolor": 650,
    "majors": 500,
    "bicolor": 400,
    "mozaic": 300,
    "minors": 200,
    "normal": 100,
}
NORMAL_WITH_JOKER = 75
MOZAIC_ENDS = 4

Kinds = tuple[tuple[str, int, int], ...]  # (colour, number, count) of the real tiles left
MeldTest = Callable[[Reading], bool]


def _key(tile: Tile) -> tuple[str, int]:
    return (tile.colour or "", tile.number)


def _melds_with(first: Tile, left: Counter[Tile], jokers: int) -> list[tuple[list[Tile], int]]:
    """Every meld holding ``first`` and tiles of ``left`` (without ``first``): (tiles, jokers)."""
    found: list[tuple[list[Tile], int]] = []
    colour = first.colour
    assert colour is not None
    others = [Tile(c, first.number) for c in COLOURS if c != colour and left[Tile(c, first.number)]]
    for size in range(0, len(others) + 1):
        for chosen in itertools.combinations(others, size):
            for used in range(0, jokers + 1):
                if 3 <= 1 + size + used <= 4:
                    found.append(([first, *chosen] + [JOKER] * used, used))
    ranks = [first.number] + ([HIGH_ONE] if first.number == 1 else [])
    for rank in ranks:
        for start in range(max(1, rank - HIGH_ONE + 1), rank + 1):
            for end in range(max(start + 2, rank), HIGH_ONE + 1):
                fillings = _run_fillings(colour, start, end, rank, left, jokers)
                if fillings is None:  # too few jokers for the gaps; longer runs have more
                    break
                found.extend(fillings)
    return found


def _run_fillings(
    colour: str, start: int, end: int, rank: int, left: Counter[Tile], jokers: int
) -> list[tuple[list[Tile], int]] | None:
    """The ways to fill the run ``start..end`` of ``colour`` around ``rank``, jokers included;
    ``None`` when its gaps need more jokers than there are."""
    needed = [run_tile(colour, r) for r in range(start, end + 1)]
    place = rank - start
    others = [i for i in range(len(needed)) if i != place]
    want = Counter(needed[i] for i in others)
    if sum(max(0, n - left[t]) for t, n in want.items()) > jokers:
        return None
    fillings = []
    for used in range(0, jokers + 1):
        for swapped in itertools.combinations(others, used):
            real = Counter(needed[i] for i in others if i not in swapped)
            if all(left[t] >= n for t, n in real.items()):
                tiles = [JOKER if i in swapped else t for i, t in enumerate(needed)]
                fillings.append((tiles, used))
    return fillings


def splits_into(tiles: Sequence[Tile], test: MeldTest) -> bool:
    """Whether ``tiles`` split wholly into melds that each pass ``test`` (some reading of it)."""
    jokers = sum(1 for t in tiles if t.is_joker)
    counts = Counter(t for t in tiles if not t.is_joker)
    return _splits(_freeze(counts), jokers, test)


def _freeze(counts: Counter[Tile]) -> Kinds:
    return tuple(sorted((t.colour or "", t.number, n) for t, n in counts.items() if n > 0))


@lru_cache(maxsize=65536)
def _splits(kinds: Kinds, jokers: int, test: MeldTest) -> bool:
    if not kinds:
        return jokers == 0
    left = Counter({Tile(c, number): n for c, number, n in kinds})
    colour, number, _ = kinds[0]
    first = Tile(colour, number)
    left[first] -= 1
    for meld, used in _melds_with(first, left, jokers):
        if not any(test(r) for r in readings(meld)):
            continue
        others = list(meld)
        others.remove(first)
        rest = left.copy()
        rest.subtract(t for t in others if not t.is_joker)
        if _splits(_freeze(rest), jokers - used, test):
            return True
    return False


def _any(_: Reading) -> bool:
    return True


def _minor(r: Reading) -> bool:
    return all(v == 5 for v in r.values)


def _major(r: Reading) -> bool:
    return all(v == 10 for v in r.values)


def _run(r: Reading) -> bool:
    return r.kind == "run"


def is_doubles(tiles: Sequence[Tile]) -> bool:
    """Seven pairs of identical tiles (a joker pairs with any tile, two jokers with each other)."""
    if len(tiles) != HAND:
        return False
    jokers = sum(1 for t in tiles if t.is_joker)
    odd = sum(n % 2 for t, n in Counter(t for t in tiles if not t.is_joker).items())
    return odd <= jokers and (jokers - odd) % 2 == 0


def is_mozaic(tiles: Sequence[Tile]) -> bool:
    """One run 1, 2, ..., 13, 1 of 14 tiles, each colour unlike its neighbours', the first four and
    the last four of four colours, the two 1s unlike, no joker among the first or last four."""
    if len(tiles) != HAND:
        return False
    jokers = [t for t in tiles if t.is_joker]
    real = sorted((t for t in tiles if not t.is_joker), key=lambda t: t.number)
    numbers = Counter(t.number for t in real)
    if numbers[1] != 2 or any(n > 1 for k, n in numbers.items() if k != 1):
        return False
    middle = set(range(MOZAIC_ENDS + 1, HIGH_ONE - MOZAIC_ENDS + 1))  # ranks 5-10
    if len(real) + len(jokers) != HAND or not set(range(2, 14)) - set(numbers) <= middle:
        return False
    ones = [t for t in real if t.number == 1]
    for low, high in ((ones[0], ones[1]), (ones[1], ones[0])):
        placed: dict[int, str | None] = {1: low.colour, HIGH_ONE: high.colour}
        placed.update({t.number: t.colour for t in real if t.number != 1})
        if _mozaic_colours(placed):
            return True
    return False


def _mozaic_colours(placed: dict[int, str | None]) -> bool:
    line = [placed.get(rank) for rank in range(1, HIGH_ONE + 1)]
    if line[0] == line[-1]:
        return False
    if len(set(line[:MOZAIC_ENDS])) != MOZAIC_ENDS or len(set(line[-MOZAIC_ENDS:])) != MOZAIC_ENDS:
        return False
    return all(a is None or b is None or a != b for a, b in itertools.pairwise(line))


def combinations_of(tiles: Sequence[Tile]) -> dict[str, int]:
    """Every combination a hand of 14 tiles makes, with its points."""
    if len(tiles) != HAND:
        return {}
    found: dict[str, int] = {}
    if is_doubles(tiles):
        found["doubles"] = COMBINATIONS["doubles"]
    colours = {t.colour for t in tiles if not t.is_joker}
    if len(colours) <= 2 and splits_into(tiles, _run):
        kind = "monocolor" if len(colours) == 1 else "bicolor"
        found[kind] = COMBINATIONS[kind]
        if kind == "monocolor":
            found["bicolor"] = COMBINATIONS["bicolor"]
    if splits_into(tiles, _major):
        found["majors"] = COMBINATIONS["majors"]
    if is_mozaic(tiles):
        found["mozaic"] = COMBINATIONS["mozaic"]
    if splits_into(tiles, _minor):
        found["minors"] = COMBINATIONS["minors"]
    if splits_into(tiles, _any):
        joker = any(t.is_joker for t in tiles)
        found["normal"] = NORMAL_WITH_JOKER if joker else COMBINATIONS["normal"]
    return found


def best_combination(tiles: Sequence[Tile]) -> tuple[str | None, int]:
    """The best combination of a 14-tile hand and its points, or ``(None, 0)``."""
    found = combinations_of(tiles)
    if not found:
        return None, 0
    name = max(found, key=lambda k: found[k])
    return name, found[name]
