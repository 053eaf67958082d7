"""Generate, verify and grade puzzles: pure functions on engine types, seeded, reproducible.

A puzzle is a starting table (valid melds), a rack and a goal (here always: put down every rack
tile). The generator works backwards from the answer: it builds a valid final table from a
classic set, takes some of its tiles out as the rack, and arranges what is left into a
*different* valid starting table. The verifier then proves it: the engine's solver must put
down every rack tile, the stored solution must pass ``check_turn`` (initial meld done), and a
complete search counts the distinct solutions.

Levels 1-4 are the ramp, one technique each (seed 000, "Fundamental Tactics"): extending a run,
splitting a long run, taking a tile from a four-group, freeing a joker. Levels 5-10 mix them and
are graded by what the easiest solution has to do (see :func:`grade`). From level 2 on, a
puzzle is rejected as trivial if a real rack tile can simply join a table meld, or if the whole
rack can go down without moving a table tile.

Same seed, same puzzles: each level draws from its own ``random.Random(f"{seed}-{level}")``, and
a level's puzzles are a prefix-stable stream, so ``generate(seed, 10)`` gives the first puzzle of
each level of ``generate(seed, 300)``.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from functools import partial
from multiprocessing.pool import Pool
from typing import Any

from games.engine.solver import solve
from games.engine.tiles import COLOURS, JOKER, Tile, parse_tiles

from .arrangements import (
    CLASSIC,
    NUMBERS,
    SOLUTION_CAP,
    BudgetExceeded,
    Meld,
    Table,
    codes,
    count_solutions,
    extends_alone,
    is_legal_solution,
    is_meld,
    placeable_without_rearranging,
    random_splits,
    rearrangement,
    table_key,
    tile_order,
)

GENERATOR_VERSION = 1
LEVELS = tuple(range(1, 11))
RAMP_LEVELS = (1, 2, 3, 4)
MAX_SOLUTIONS = 4  # beyond the first level, more ways than this make a vague puzzle
ATTEMPTS_PER_PUZZLE = 4_000

TECHNIQUES = {
    1: "extend",
    2: "split_run",
    3: "take_from_group",
    4: "free_joker",
}
LESSONS = {
    1: "A run takes the next tile of its colour at either end: B5 B6 B7 takes B4 or B8.",
    2: "Split a long run with a copy of a middle tile: R3-R8 and R6 make R3-R6 and R6-R8.",
    3: "A group of four can spare a tile: K9 B9 R9 Y9 lends K9 to K7 K8.",
    4: "Swap a table joker for the real tile it stands for, then use the joker elsewhere.",
    5: "Two techniques at once: look for a long run to split or a four-group to borrow from.",
    6: "Move one table tile to make room for another: every meld must stay valid.",
    7: "Several melds have to change: work out where each rack tile can end up first.",
    8: "A joker is in play: free it, or put it where a real tile is missing.",
    9: "Long chains: taking one tile forces the next move, and the next.",
    10: "Rebuild a whole corner of the table, jokers included.",
}


@dataclass(frozen=True)
class Features:
    """What makes a puzzle hard; see :class:`~puzzles.arrangements.Rearrangement`."""

    table_size: int
    melds_disturbed: int
    tiles_moved: int
    chain_depth: int
    jokers: int
    solutions: int


@dataclass(frozen=True)
class GeneratedPuzzle:
    slug: str
    level: int
    technique: str
    lesson: str
    table: tuple[Meld, ...]
    rack: tuple[Tile, ...]
    solution: tuple[Meld, ...]
    features: Features
    origin: str = ""  # "ramp" or "mixed-<table index>": where the stream found it

    def to_json(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "origin": self.origin,
            "level": self.level,
            "technique": self.technique,
            "lesson": self.lesson,
            "table": codes(self.table),
            "rack": [str(t) for t in self.rack],
            "goal": "all",
            "solution": codes(self.solution),
            "features": asdict(self.features),
        }


@dataclass(frozen=True)
class Verdict:
    """The verifier's answer for a table and rack."""

    tiles_placeable: int  # the solver's most rack tiles
    solution: tuple[Meld, ...] | None  # a legal final table putting down every rack tile
    features: Features | None
    trivial: bool  # a rack tile joins a meld alone, or nothing needs to move
    capped: bool  # too many solutions to count


# ---------------------------------------------------------------------------------------------
# Verifying


def verify(table: Table, rack: Sequence[Tile], cap: int = SOLUTION_CAP) -> Verdict:
    """Prove what a position allows: the solver's best, and if it puts down every rack tile,
    the easiest legal solution, its features (solutions counted up to ``cap``) and whether the
    position is trivial."""
    best = solve(CLASSIC, [list(m) for m in table], list(rack), True)
    trivial = is_trivial(table, rack)
    if best.tiles_played < len(rack):
        return Verdict(best.tiles_played, None, None, trivial, False)
    counted = count_solutions(table, rack, cap=cap)
    solution = counted.easiest
    if solution is None:
        # The search ran out of budget before a legal table: take the solver's own.
        solution = tuple(tuple(m) for m in best.melds)
    assert is_legal_solution(table, rack, solution)
    moves = rearrangement(table, rack, solution)
    features = Features(
        table_size=sum(len(m) for m in table),
        melds_disturbed=moves.disturbed,
        tiles_moved=moves.moved,
        chain_depth=moves.chain,
        jokers=sum(t.is_joker for m in table for t in m) + sum(t.is_joker for t in rack),
        solutions=max(1, counted.solutions),
    )
    ordered = _hint_order(solution, moves.from_rack)
    return Verdict(len(rack), ordered, features, trivial, counted.capped)


def solver_places(table: Table, rack: Sequence[Tile]) -> int:
    """How many rack tiles the engine's solver puts down; -1 if it fails on the position
    (then nothing about it can be proved, and the generator passes it by)."""
    try:
        return solve(CLASSIC, [list(m) for m in table], list(rack), True).tiles_played
    except AssertionError:
        return -1


def is_trivial(table: Table, rack: Sequence[Tile]) -> bool:
    """A real rack tile joins a table meld alone, or the rack goes down with nothing moved."""
    return any(
        extends_alone(table, tile) for tile in rack if not tile.is_joker
    ) or placeable_without_rearranging(table, rack)


def _hint_order(solution: Sequence[Meld], from_rack: Sequence[bool]) -> tuple[Meld, ...]:
    """Melds that take rack tiles first (hints reveal them in this order), then the rest."""
    order = sorted(range(len(solution)), key=lambda i: (not from_rack[i], i))
    return tuple(solution[i] for i in order)


def difficulty(features: Features, rack_size: int) -> int:
    """A score for grading the mixed levels: what the easiest solution has to do."""
    return (
        features.tiles_moved
        + 2 * features.melds_disturbed
        + 2 * features.chain_depth
        + 3 * min(features.jokers, 2)
        + rack_size
        + features.table_size // 8
        - min(features.solutions - 1, 3)
    )


# Lowest difficulty score for levels 6-10; below the first is level 5.
GRADE_FLOORS = (10, 12, 14, 17, 21)


def grade(features: Features, rack_size: int) -> int:
    """The level (5-10) of a mixed puzzle: its difficulty score against ``GRADE_FLOORS``.

    Level 8 and up must change two melds or chain two together; 9 and up need a joker.
    """
    level = 5 + sum(difficulty(features, rack_size) >= floor for floor in GRADE_FLOORS)
    if level >= 8 and features.melds_disturbed < 2 and features.chain_depth < 2:
        level = 7
    if level >= 9 and features.jokers == 0:
        level = 8
    return level


def puzzle_rating(level: int, features: Features, rack_size: int) -> float:
    """A puzzle's starting Glicko rating: its level, nudged by its difficulty score."""
    return float(500 + 150 * level + 5 * min(difficulty(features, rack_size) % 10, 9))


# ---------------------------------------------------------------------------------------------
# Building positions


class Supply:
    """The tiles of one classic set not used yet."""

    def __init__(self) -> None:
        self.left: Counter[Tile] = Counter(CLASSIC.tile_set.tiles)

    def has(self, tiles: Sequence[Tile]) -> bool:
        return all(self.left[t] >= n for t, n in Counter(tiles).items())

    def take(self, tiles: Sequence[Tile]) -> bool:
        if not self.has(tiles):
            return False
        self.left.subtract(tiles)
        return True

    def give(self, tiles: Sequence[Tile]) -> None:
        self.left.update(tiles)


def run(colour: str, start: int, length: int) -> Meld:
    return tuple(Tile(colour, n) for n in range(start, start + length))


def group(number: int, colours: Sequence[str]) -> Meld:
    return tuple(Tile(c, number) for c in colours)


def random_meld(
    rng: random.Random,
    numbers: Sequence[int] = tuple(range(1, NUMBERS + 1)),
    colours: Sequence[str] = COLOURS,
    longest: int = 5,
) -> Meld:
    """A random run or group of real tiles inside ``numbers`` (consecutive) and ``colours``."""
    if rng.random() < 0.5 and len(numbers) >= 3:
        length = rng.randint(3, min(longest, len(numbers)))
        start = rng.randint(numbers[0], numbers[-1] - length + 1)
        return run(rng.choice(list(colours)), start, length)
    size = rng.choice((3, 3, 4))
    return group(rng.choice(list(numbers)), sorted(rng.sample(COLOURS, size), key=COLOURS.index))


def distractors(rng: random.Random, supply: Supply, count: int) -> list[Meld]:
    melds: list[Meld] = []
    for _ in range(count * 20):
        if len(melds) == count:
            break
        meld = random_meld(rng)
        if supply.take(meld):
            melds.append(meld)
    return melds


Candidate = tuple[list[Meld], list[Tile]]  # starting table, rack


def _shuffled(rng: random.Random, melds: list[Meld]) -> list[Meld]:
    rng.shuffle(melds)
    return melds


def extend_candidate(rng: random.Random) -> Candidate | None:
    """Level 1: one tile that goes at the end of a run."""
    supply = Supply()
    length = rng.randint(3, 5)
    start = rng.randint(1, NUMBERS - length)
    core = run(rng.choice(COLOURS), start, length + 1)
    if rng.random() < 0.5:
        core = tuple(reversed(core))
    tile, meld = core[0], tuple(sorted(core[1:], key=tile_order))
    if not supply.take([*meld, tile]):
        return None
    return _shuffled(rng, [meld, *distractors(rng, supply, rng.randint(1, 3))]), [tile]


def split_candidate(rng: random.Random) -> Candidate | None:
    """Level 2: a copy of a middle tile splits a run of five or more."""
    supply = Supply()
    length = rng.randint(5, 7)
    start = rng.randint(1, NUMBERS - length + 1)
    long_run = run(rng.choice(COLOURS), start, length)
    tile = long_run[rng.randint(2, length - 3)]
    if not supply.take([*long_run, tile]):
        return None
    return _shuffled(rng, [long_run, *distractors(rng, supply, rng.randint(1, 3))]), [tile]


def group_candidate(rng: random.Random) -> Candidate | None:
    """Level 3: a four-group lends a tile to two rack tiles that make a run with it."""
    supply = Supply()
    number = rng.randint(1, NUMBERS)
    four = group(number, COLOURS)
    colour = rng.choice(COLOURS)
    shapes = [(-2, -1), (-1, 1), (1, 2)]
    offsets = rng.choice([s for s in shapes if number + s[0] >= 1 and number + s[1] <= NUMBERS])
    rack = [Tile(colour, number + d) for d in offsets]
    if not supply.take([*four, *rack]):
        return None
    return _shuffled(rng, [four, *distractors(rng, supply, rng.randint(1, 3))]), rack


def joker_candidate(rng: random.Random) -> Candidate | None:
    """Level 4: the real tile frees a table joker, which two rack tiles need for a meld."""
    supply = Supply()
    if rng.random() < 0.7:
        start = rng.randint(1, NUMBERS - 2)
        tiles = list(run(rng.choice(COLOURS), start, 3))
        spot = rng.randrange(3)
    else:
        tiles = list(group(rng.randint(1, NUMBERS), COLOURS))
        spot = rng.randrange(4)
    real = tiles[spot]
    tiles[spot] = JOKER
    colour = rng.choice(COLOURS)
    if rng.random() < 0.6:
        first = rng.randint(1, NUMBERS - 2)
        pair = [Tile(colour, first), Tile(colour, first + rng.choice((1, 2)))]
    else:
        number = rng.randint(1, NUMBERS)
        pair = list(group(number, sorted(rng.sample(COLOURS, 2), key=COLOURS.index)))
    rack = [real, *pair]
    if not supply.take([*tiles, *rack]):
        return None
    rng.shuffle(rack)
    return _shuffled(rng, [tuple(tiles), *distractors(rng, supply, rng.randint(1, 3))]), rack


@dataclass(frozen=True)
class MixedRecipe:
    """How a mixed level builds its final table: melds in a window of numbers and colours."""

    melds: tuple[int, int]
    rack: tuple[int, int]
    jokers: tuple[int, int]
    width: tuple[int, int]


MIXED: dict[int, MixedRecipe] = {
    5: MixedRecipe(melds=(3, 4), rack=(2, 3), jokers=(0, 0), width=(4, 6)),
    6: MixedRecipe(melds=(3, 5), rack=(2, 4), jokers=(0, 1), width=(4, 6)),
    7: MixedRecipe(melds=(4, 5), rack=(3, 4), jokers=(0, 1), width=(4, 6)),
    8: MixedRecipe(melds=(4, 6), rack=(3, 5), jokers=(1, 1), width=(4, 6)),
    9: MixedRecipe(melds=(5, 6), rack=(3, 5), jokers=(1, 2), width=(4, 6)),
    10: MixedRecipe(melds=(5, 7), rack=(4, 6), jokers=(1, 2), width=(4, 6)),
}


RACK_PICKS = 8
SPLIT_TRIES = 30


def mixed_candidates(rng: random.Random, recipe: MixedRecipe) -> list[Candidate]:
    """Levels 5-10: a final table of melds crowded into a few numbers; then, a few times, some
    of its tiles set aside as the rack and the rest arranged into melds another way, so that
    no rack tile can simply join a meld."""
    supply = Supply()
    final = _crowded_table(rng, recipe, supply)
    if final is None:
        return []
    aside = _far_melds(rng, supply, final, rng.randint(0, 2))
    tiles = [t for meld in final for t in meld]
    found: list[Candidate] = []
    for _ in range(RACK_PICKS):
        size = rng.randint(*recipe.rack)
        split = untrivial_split(tiles, size, rng)
        if split is not None:
            start, rack = split
            found.append((_shuffled(rng, start + aside), rack))
    return found


def _jokers_in(meld: Meld) -> int:
    return sum(1 for tile in meld if tile.is_joker)


def untrivial_split(
    tiles: Sequence[Tile], rack_size: int, rng: random.Random
) -> tuple[list[Meld], list[Tile]] | None:
    """A random rack of ``rack_size`` of ``tiles`` and the rest arranged as a starting table
    that the rack cannot simply join (and with no meld of two jokers)."""
    try:
        for count, (table, rack) in enumerate(random_splits(tiles, rack_size, rng)):
            if count >= SPLIT_TRIES:
                break
            if not any(_jokers_in(meld) > 1 for meld in table) and not is_trivial(table, rack):
                return table, rack
    except BudgetExceeded:
        pass
    return None


def _far_melds(
    rng: random.Random, supply: Supply, final: list[list[Tile]], count: int
) -> list[Meld]:
    """Melds that fill the table out, at numbers two or more away from the busy ones."""
    busy = {t.number for meld in final for t in meld if not t.is_joker}
    far = [n for n in range(1, NUMBERS + 1) if all(abs(n - b) > 2 for b in busy)]
    melds: list[Meld] = []
    for _ in range(count * 10):
        if len(melds) == count or len(far) < 3:
            break
        start = rng.randrange(len(far) - 2)
        numbers = far[start : start + 3]
        if numbers[-1] - numbers[0] != 2:
            continue
        meld = random_meld(rng, numbers)
        if supply.take(meld):
            melds.append(meld)
    return melds


def _crowded_table(
    rng: random.Random, recipe: MixedRecipe, supply: Supply
) -> list[list[Tile]] | None:
    width = rng.randint(*recipe.width)
    low = rng.randint(1, NUMBERS - width + 1)
    numbers = tuple(range(low, low + width))
    colours = sorted(rng.sample(COLOURS, rng.randint(2, 4)), key=COLOURS.index)
    final: list[list[Tile]] = []
    wanted = rng.randint(*recipe.melds)
    for _ in range(wanted * 10):
        if len(final) == wanted:
            break
        meld = random_meld(rng, numbers, colours, longest=6)
        if supply.take(meld):
            final.append(list(meld))
    if len(final) < 3:
        return None
    for _ in range(rng.randint(*recipe.jokers)):
        _add_joker(rng, final, supply)
    return final


def _add_joker(rng: random.Random, final: list[list[Tile]], supply: Supply) -> None:
    """Put a joker in a final meld: in place of a real tile, or at the end of a run."""
    if not supply.take([JOKER]):
        return
    meld = rng.choice(final)
    spot = rng.randrange(len(meld))
    swapped = [*meld[:spot], JOKER, *meld[spot + 1 :]]
    if rng.random() < 0.6 and not meld[spot].is_joker and is_meld(swapped):
        supply.give([meld[spot]])
        meld[spot] = JOKER
    elif is_meld([*meld, JOKER]):
        meld.append(JOKER)
    else:
        supply.give([JOKER])


# ---------------------------------------------------------------------------------------------
# Generating levels

RAMP_BUILDERS: dict[int, Callable[[random.Random], Candidate | None]] = {
    1: extend_candidate,
    2: split_candidate,
    3: group_candidate,
    4: joker_candidate,
}
# Which recipe builds a mixed table, drawn for each table: weighted so that the graded levels
# come out about equally often.
RECIPE_WHEEL = (5, 5, 6, 7, 8, 9, 9, 10, 10, 10)


def ramp_stream(seed: int, level: int) -> Iterator[GeneratedPuzzle]:
    """The puzzles of ramp level ``level`` in the order this seed finds them (endless)."""
    rng = random.Random(f"rummi-puzzles-{seed}-{level}")
    return _numbered(_distinct(_ramp_tries(rng, level)))


def mixed_stream(seed: int, pool: Pool | None = None) -> Iterator[GeneratedPuzzle]:
    """Mixed puzzles, each already graded 5-10, in the order this seed finds them (endless).

    Table ``i`` is built from its own ``random.Random(f"...-mixed-{i}")``, so a process
    ``pool`` can work on several tables at once and they still come out in the same order.
    """
    work = partial(table_puzzles, seed)
    indexes = itertools.count()
    found = map(work, indexes) if pool is None else pool.imap(work, indexes, chunksize=4)
    return _numbered(_distinct(found))


def _ramp_tries(rng: random.Random, level: int) -> Iterator[list[GeneratedPuzzle]]:
    while True:
        candidate = RAMP_BUILDERS[level](rng)
        puzzle = None if candidate is None else _accept(level, *candidate)
        yield [] if puzzle is None else [replace(puzzle, origin="ramp")]


def _distinct(batches: Iterable[list[GeneratedPuzzle]]) -> Iterator[GeneratedPuzzle]:
    seen: set[tuple[Any, ...]] = set()
    misses = 0
    for found in batches:
        misses = 0 if found else misses + 1
        if misses > ATTEMPTS_PER_PUZZLE:
            raise RuntimeError(f"no puzzle in {ATTEMPTS_PER_PUZZLE} attempts")
        for puzzle in found:
            key = (table_key(puzzle.table), tuple(sorted(str(t) for t in puzzle.rack)))
            if key not in seen:
                seen.add(key)
                yield puzzle


def _numbered(puzzles: Iterator[GeneratedPuzzle]) -> Iterator[GeneratedPuzzle]:
    numbers: Counter[int] = Counter()
    for puzzle in puzzles:
        numbers[puzzle.level] += 1
        yield replace(puzzle, slug=f"l{puzzle.level:02d}-{numbers[puzzle.level]:03d}")


def table_puzzles(seed: int, index: int) -> list[GeneratedPuzzle]:
    """The puzzles mixed table ``index`` gives: of its candidates that pass, the hardest of
    each level (fewest solutions on ties), so a table gives at most one puzzle a level."""
    rng = random.Random(f"rummi-puzzles-{seed}-mixed-{index}")
    recipe = MIXED[rng.choice(RECIPE_WHEEL)]
    best: dict[int, GeneratedPuzzle] = {}
    for candidate in mixed_candidates(rng, recipe):
        puzzle = _accept(None, *candidate)
        if puzzle is None:
            continue
        puzzle = replace(puzzle, origin=f"mixed-{index}")
        rival = best.get(puzzle.level)
        if rival is None or _hardness(puzzle) > _hardness(rival):
            best[puzzle.level] = puzzle
    return [best[level] for level in sorted(best)]


def _hardness(puzzle: GeneratedPuzzle) -> tuple[int, int]:
    f = puzzle.features
    return (difficulty(f, len(puzzle.rack)), -f.solutions)


def _accept(level: int | None, table: list[Meld], rack: list[Tile]) -> GeneratedPuzzle | None:
    """The puzzle a candidate makes at ramp ``level`` (``None``: graded), or ``None``.

    Cheap rejections first: trivial, then not solvable, then too many solutions.
    """
    if level != 1 and is_trivial(table, rack):
        return None
    if solver_places(table, rack) < len(rack):
        return None
    verdict = verify(table, rack, cap=SOLUTION_CAP if level == 1 else MAX_SOLUTIONS + 1)
    features = verdict.features
    if features is None or verdict.solution is None or verdict.capped:
        return None
    if level != 1 and features.solutions > MAX_SOLUTIONS:
        return None
    if level is None:
        level, technique = grade(features, len(rack)), "mixed"
    else:
        technique = TECHNIQUES[level]
    return GeneratedPuzzle(
        slug="",
        level=level,
        technique=technique,
        lesson=LESSONS[level],
        table=tuple(table),
        rack=tuple(sorted(rack, key=tile_order)),
        solution=verdict.solution,
        features=features,
    )


def per_level(count: int) -> dict[int, int]:
    """Spread ``count`` puzzles over the ten levels, the remainder to the highest levels."""
    base, extra = divmod(count, len(LEVELS))
    return {level: base + (1 if level > len(LEVELS) - extra else 0) for level in LEVELS}


def generate(
    seed: int,
    count: int,
    jobs: int = 1,
    progress: Callable[[GeneratedPuzzle], None] | None = None,
) -> list[GeneratedPuzzle]:
    """``count`` verified puzzles spread over the ten levels, the same for the same seed.

    Each level's puzzles are a prefix of an endless stream that does not depend on ``count``
    (nor on ``jobs``), so a smaller count gives the first puzzles of each level of a larger one.
    """
    wanted = per_level(count)
    got: dict[int, list[GeneratedPuzzle]] = {level: [] for level in LEVELS}
    for level in RAMP_LEVELS:
        stream = ramp_stream(seed, level)
        while len(got[level]) < wanted[level]:
            got[level].append(next(stream))
            if progress:
                progress(got[level][-1])
    with _pool(jobs) as pool:
        mixed = mixed_stream(seed, pool)
        while any(len(got[level]) < wanted[level] for level in LEVELS):
            puzzle = next(mixed)
            if len(got[puzzle.level]) < wanted[puzzle.level]:
                got[puzzle.level].append(puzzle)
                if progress:
                    progress(puzzle)
    return [puzzle for level in LEVELS for puzzle in got[level]]


@contextmanager
def _pool(jobs: int) -> Iterator[Pool | None]:
    if jobs <= 1:
        yield None
        return
    pool = multiprocessing.get_context("spawn").Pool(jobs)
    try:
        yield pool
    finally:
        pool.terminate()
        pool.join()


def parse_table(melds: Sequence[Sequence[str]]) -> tuple[Meld, ...]:
    return tuple(tuple(parse_tiles(list(meld))) for meld in melds)


def fixture_text(seed: int, count: int, puzzles: Sequence[GeneratedPuzzle]) -> str:
    """The fixture file: a header, then one puzzle a line (stable keys, so diffs stay small)."""
    head = json.dumps({"generator": GENERATOR_VERSION, "seed": seed, "count": count})
    lines = ",\n".join(json.dumps(p.to_json(), sort_keys=True) for p in puzzles)
    return f'{head[:-1]}, "puzzles": [\n{lines}\n]}}\n'


def read_fixture(text: str) -> dict[str, Any]:
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("puzzles"), list):
        raise ValueError("a puzzle fixture is an object with a list of puzzles")
    return data
