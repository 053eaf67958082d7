"""The solver's entry points: :func:`solve` on tile kinds, :func:`solve_ids` on tile ids.

``solve_ids`` checks its arguments, sets the problem up (problem.py), and on big tables first
tries plays that leave idle melds alone (one beam each); then it runs the passes (search.py),
gives the melds they found tile ids (rebuild.py) and, when a table joker was freed, checks the
turn. Between solves it trims the caches the other modules keep for every solve of the process
(interned runs and groups, compiled moves and steps, shortfall tables) once they grow large.

Those caches are shared by every thread of the process, so one solve runs at a time: a lock
held for the whole solve, trim included (the solver is CPU-bound under the GIL anyway, so
threads solving side by side would gain nothing). A caller that must answer soon (a web
request) passes ``wait``, the seconds it will wait for the lock, and gets :class:`SolverBusy`
past it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from ..errors import IllegalMove, InvalidInput, SolverBusy
from ..rules import Rules
from ..tiles import Tile
from ..turn import check_turn
from .cells import _ANY_COLOUR_OPTIONS, _MOVES, _STEPS, _STEPS_OF
from .dominance import _COVERS, _STRENGTH, _covers_ids
from .jokers import _GROUP_SHORTFALLS, _MASKED, _SHORTFALL_TABLES
from .packing import _GROUP_IDS, _GROUPED, _GROUPS, _RUN_IDS, _RUNS
from .problem import _cells, _future_gains, _opening_problem, _Problem, _turn_problem, _upper_bound
from .rebuild import _assign_ids
from .search import _SHORT, _best_melds, _melds_of, _search

POINTS_FIRST_WEIGHT: Final = 128  # a point outweighs any number of tiles a turn can play
Prefer = Literal["tiles", "points"]

TRY_WIDTH: Final = 8  # the beam of a try that leaves melds alone
TRY_MIN_TABLE: Final = 20  # smaller tables solve whole about as fast as a try fails: no tries

CACHE_LIMIT = 400_000
# One solve at a time per process: the caches above are shared and trimmed between solves.
_SOLVING = threading.Lock()


@dataclass(frozen=True, slots=True)
class Solution:
    """A best play: how many rack tiles and points it puts down, which tiles, the whole table."""

    tiles_played: int
    value_played: int
    played: tuple[Tile, ...]
    melds: tuple[tuple[Tile, ...], ...]


def solve(
    rules: Rules,
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    initial_meld_done: bool,
    *,
    prefer: object = "tiles",
    budget: object = None,
    wait: object = None,
) -> Solution:
    """The play that puts the most rack tiles on the table, then the most points.

    ``melds`` is the whole table after the play (runs lowest first, jokers in place). With
    nothing playable the table comes back unchanged and ``tiles_played`` is 0. With
    ``prefer="points"`` the play takes the most points off the rack, then the most tiles.

    >>> from games.engine.rules import RULES
    >>> from games.engine.tiles import parse_tiles
    >>> best = solve(RULES["classic"], [parse_tiles("R4 R5 R6".split())],
    ...              parse_tiles("R7 K7 B7 Y7 K1".split()), True)
    >>> best.tiles_played, best.value_played
    (4, 28)
    """
    kinds = [tile for meld in table for tile in meld] + list(rack)
    table_ids: list[list[int]] = []
    for meld in table:
        start = sum(len(m) for m in table_ids)
        table_ids.append(list(range(start, start + len(meld))))
    rack_ids = list(range(len(kinds) - len(rack), len(kinds)))
    after = solve_ids(
        rules,
        kinds,
        table_ids,
        rack_ids,
        initial_meld_done,
        prefer=prefer,
        budget=budget,
        wait=wait,
    )
    if after is None:
        return Solution(0, 0, (), tuple(tuple(meld) for meld in table))
    rack_set = set(rack_ids)
    played = tuple(kinds[i] for meld in after for i in meld if i in rack_set)
    return Solution(
        tiles_played=len(played),
        value_played=sum(tile.rack_value for tile in played),
        played=played,
        melds=tuple(tuple(kinds[i] for i in meld) for meld in after),
    )


def solve_ids(
    rules: Rules,
    kinds: Sequence[Tile],
    table: Sequence[Sequence[int]],
    rack: Sequence[int],
    initial_meld_done: bool,
    *,
    prefer: object = "tiles",
    budget: object = None,
    wait: object = None,
) -> tuple[tuple[int, ...], ...] | None:
    """The best play as the whole table after it, in tile ids; ``None`` when nothing is playable.

    ``prefer`` is a ``Prefer`` and ``budget`` a positive int or None; both are typed ``object``
    because they are checked here, so that a wrong one gets InvalidInput from the compiled
    solver too (compiled code would raise TypeError at the call).

    With a ``budget`` (states; bots' side candidates), a proof that would need more states at
    once gives way to the best play found so far: legal, usually the best, not proven so.

    ``kinds[i]`` is the kind of physical tile ``i``. The answer keeps every table tile on the
    table and passes ``check_turn``: table jokers keep their ids, a held joker stands where its
    old tile would, and a freed joker's old meld-mate sits beside the real tile that freed it.

    The cyclic garbage collector is paused while it runs: the programme allocates hundreds of
    thousands of short-lived acyclic objects (reference counting frees them), and every
    collection they set off would also walk the solver's caches, up to a tenth of a second each.

    Safe from many threads: solves take turns (``wait``: the most seconds to wait for one in
    progress, else :class:`SolverBusy`; None waits as long as it takes).
    """
    timeout = -1.0
    if wait is not None:
        if isinstance(wait, bool) or not isinstance(wait, int | float) or not wait >= 0:
            raise InvalidInput(f"wait must be a number of seconds, not {wait!r}")
        timeout = float(wait)
    if not _SOLVING.acquire(timeout=timeout):
        raise SolverBusy("the solver is busy with another position; try again in a moment")
    try:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return _solve_ids(rules, kinds, table, rack, initial_meld_done, prefer, budget)
        finally:
            if enabled:
                gc.enable()
    finally:
        _SOLVING.release()


def _solve_ids(
    rules: Rules,
    kinds: Sequence[Tile],
    table: Sequence[Sequence[int]],
    rack: Sequence[int],
    initial_meld_done: bool,
    prefer: object,
    budget: object = None,
) -> tuple[tuple[int, ...], ...] | None:
    limit: int | None = None
    if budget is not None:
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise InvalidInput(f"budget must be a positive number of states, not {budget!r}")
        limit = budget
    if prefer not in ("tiles", "points"):
        raise InvalidInput(f"prefer must be 'tiles' or 'points', not {prefer!r}")
    _trim_caches()
    if not initial_meld_done:
        problem = _opening_problem(rules, kinds, rack)
    else:
        problem = _turn_problem(rules, kinds, table, rack)
    if prefer == "points":
        problem = replace(problem, tile_weight=1, point_weight=POINTS_FIRST_WEIGHT)
    if initial_meld_done and sum(len(meld) for meld in table) >= TRY_MIN_TABLE:
        around = _play_around_idle_melds(rules, kinds, table, rack, problem)
        if around is not None:
            return around
    found = _best_melds(problem, limit)
    if found is None:
        return None
    after = _assign_ids(rules, kinds, table, rack, found, initial_meld_done)
    if not initial_meld_done:
        return tuple(tuple(meld) for meld in table) + after
    if not problem.freeable:
        return after  # no table joker is freed: nothing can go wrong in seating mates
    try:
        check_turn(rules, kinds, table, rack, after, True)
    except IllegalMove:
        # A freed joker's mate could not be seated beside its freer (two freed jokers wanting
        # the same tile). Never seen in testing; holding every table joker needs no mates.
        found = _best_melds(replace(problem, freeable=0), limit)
        if found is None:
            return None
        after = _assign_ids(rules, kinds, table, rack, found, True)
    return after


def _play_around_idle_melds(
    rules: Rules,
    kinds: Sequence[Tile],
    table: Sequence[Sequence[int]],
    rack: Sequence[int],
    problem: _Problem,
) -> tuple[tuple[int, ...], ...] | None:
    """A best play that leaves some table melds as they are, if there is one; else ``None``.

    Table jokers and big tables are what make the programme slow. Leaving a meld alone is always
    legal (a joker in it stays beside its old mates, docs/rules.md rule 5), so a play of the rest of
    the table is a play of the whole position, and when it reaches the whole position's upper
    bound it is a best play. Two tries, each one beam: first leave alone the melds holding a
    joker and the melds with no tile a rack tile could meld with (same number, or same colour
    and at most two apart), then only the melds holding a joker.
    """
    most = _upper_bound(problem, _cells(problem))
    if most <= 0:
        return None
    jokered = [any(kinds[i].is_joker for i in meld) for meld in table]
    near = {(kinds[i].colour, kinds[i].number) for i in rack if not kinds[i].is_joker}
    idle = [
        held or not any(_could_join(kinds[i], near) for i in meld)
        for held, meld in zip(jokered, table, strict=True)
    ]
    tries = [frozen for frozen in (idle, jokered) if _worth_leaving(table, frozen, jokered)]
    if tries[1:] and tries[1] == tries[0]:
        del tries[1]
    for frozen in tries:
        found = _play_leaving(rules, kinds, table, rack, problem, frozen, most)
        if found is not None:
            return found
    return None


def _worth_leaving(
    table: Sequence[Sequence[int]], frozen: Sequence[bool], jokered: Sequence[bool]
) -> bool:
    """Whether leaving ``frozen`` alone makes a problem much smaller than the whole table: a
    try that fails costs about what the whole table's first beam does."""
    if any(left and held for left, held in zip(frozen, jokered, strict=True)):
        return True
    left_alone = sum(len(meld) for meld, left in zip(table, frozen, strict=True) if left)
    return 4 * left_alone >= sum(len(meld) for meld in table) > 0


def _could_join(tile: Tile, near: set[tuple[str | None, int]]) -> bool:
    return any(
        tile.number == number or (tile.colour == colour and abs(tile.number - number) <= 2)
        for colour, number in near
    )


def _play_leaving(
    rules: Rules,
    kinds: Sequence[Tile],
    table: Sequence[Sequence[int]],
    rack: Sequence[int],
    problem: _Problem,
    frozen: Sequence[bool],
    most: int,
) -> tuple[tuple[int, ...], ...] | None:
    """A play scoring ``most`` that leaves the ``frozen`` table melds alone, found by a beam."""
    kept = [meld for meld, left in zip(table, frozen, strict=True) if not left]
    reduced = replace(
        _turn_problem(rules, kinds, kept, rack),
        tile_weight=problem.tile_weight,
        point_weight=problem.point_weight,
    )
    cells = _cells(reduced)
    future = _future_gains(reduced, cells)
    if _upper_bound(reduced, cells, future) < most:
        return None
    found = _search(reduced, cells, future, floor=most, width=TRY_WIDTH)
    if found is None:
        return None
    after = _assign_ids(rules, kinds, kept, rack, _melds_of(reduced, cells, found), True)
    return after + tuple(tuple(meld) for meld, left in zip(table, frozen, strict=True) if left)


def _trim_caches() -> None:
    """Between solves, forget interned states and compiled moves once they grow large."""
    if len(_MOVES) + 2 * len(_STEPS) + len(_RUNS) + len(_GROUPED) + len(_MASKED) < CACHE_LIMIT:
        return
    _MOVES.clear()
    _STEPS.clear()
    _STEPS_OF.clear()
    _SHORTFALL_TABLES.clear()
    _GROUP_SHORTFALLS.clear()
    _GROUPED.clear()
    _MASKED.clear()
    del _RUNS[1:]
    _RUN_IDS.clear()
    _RUN_IDS[()] = 0
    del _GROUPS[1:]
    _GROUP_IDS.clear()
    _GROUP_IDS[()] = 0
    _ANY_COLOUR_OPTIONS.clear()
    _covers_ids.cache_clear()
    _COVERS.clear()
    _SHORT.clear()
    _STRENGTH.clear()
