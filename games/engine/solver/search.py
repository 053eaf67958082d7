"""Search and beam: the passes of branch and bound, each a run of the programme over the cells.

:func:`_search` steps every cell (cells.py) over a layer of packed states and their scores,
keeps those whose bound reaches the pass's floor, drops dominated ones (dominance.py), and, as
a beam, keeps only the best ``width`` (:func:`_beam`); at the end it picks the best state that
can end (:func:`_ending`). :func:`_best_melds` orders the passes: beams looking for a play
reaching the upper bound, exact passes from the top one tile below the bound at a time, then a
beam's guess and one exact pass above it. The first exact pass that finds a play has found the
best, and rebuild.py turns its back pointers into melds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from .cells import (
    _UNCHANGED_CELL,
    _UNCHANGED_GROUPS,
    _BackPointers,
    _cell_step,
    _group_step,
    _Memos,
)
from .dominance import _undominated, _undominated_across
from .jokers import _alive
from .packing import (
    _RUNS,
    COLOUR_COUNT,
    COMPLETE,
    FREE_SHIFT,
    FREED_SHIFT,
    GAP,
    GROUP_MASK,
    GROUP_SHIFT,
    LENGTH,
    REAL,
    RUN_MASK,
    RUN_SHIFTS,
    STATUS,
    _pack,
    _split,
    _State,
    _unpack,
)
from .problem import _Bound, _Cell, _cells, _future_gains, _Problem, _upper_bound
from .rebuild import _add_surplus, _Built, _rebuild

ALL_OR_NOTHING_WIDTHS: Final = (5, 16, 64)

GUESS_WIDTHS: Final = (32, 128, 512, 2048)
WIDEN_BELOW: Final = (
    16  # a beam widens while 16 times its width stays within the exact passes' states
)
TOP_DOWN_PASSES: Final = 3  # exact passes from the top before a beam guesses


def _best_melds(problem: _Problem, budget: int | None = None) -> list[_Built] | None:
    """The best final table as labelled melds, or ``None`` when no play beats playing nothing.

    Branch and bound. ``most``, every rack tile that could be in a meld at all and every rack
    joker, bounds any play from above, so a play reaching it is optimal; beams (the same steps,
    only the best states kept) look for one first (a beam that never had to drop a state is
    exact: when it finds nothing, nothing reaches ``most``), then an exact pass placing free
    jokers only as surplus (jokers placed where a meld needs them multiply the states). Failing
    that, exact passes step down from the bound one tile at a time (see :func:`_floors`): each
    drops every state that, even playing every rack tile still to come, could not reach its
    floor, so the first that finds a play has found the best. High floors prune nearly every
    state, so the passes that fail are cheap. After ``TOP_DOWN_PASSES`` of them a beam guesses,
    and one exact pass looks for anything better than the guess. That pass costs more the
    lower the guess, when the floor is what prunes: when the exact passes grew as their floors
    fell, the beam widens (``GUESS_WIDTHS``) while it stays well below their largest layer. (A
    master's points-first solve on a large table: the 32-wide guess was 22 points short and
    its exact pass took 13 s; the 512-wide one is 4 points short and the pass takes 3.)

    With a ``budget``, an exact pass that would hold more states than that stops, and the best
    play the beams found is the answer: good, quick, but not proven best.
    """
    cells = _cells(problem)
    future = _future_gains(problem, cells)
    most = _upper_bound(problem, cells, future)
    if most <= 0:
        return None
    memo = _Memos(problem, cells)
    cut: list[bool] = []
    for width in ALL_OR_NOTHING_WIDTHS:
        found = _search(problem, cells, future, floor=most, width=width, cut=cut, memo=memo)
        if found is not None:
            return _melds_of(problem, cells, found)
        if not cut[-1]:
            break  # an exact pass: no play reaches ``most``
    if (not cut or cut[-1]) and problem.surplus_at_end and problem.most_free:
        capped = replace(problem, needed_cap=0)
        found = _search(capped, cells, future, floor=most, width=None, give_up=budget)
        if found is not None:
            return _melds_of(capped, cells, found)
    floors = _floors(problem, most)
    peak: list[int] = []
    stopped: list[bool] = []
    below = most + 1  # every play scores below this
    for floor in floors[:TOP_DOWN_PASSES]:
        found = _search(problem, cells, future, floor, None, None, memo, peak, budget, stopped)
        if found is not None:
            return _melds_of(problem, cells, found)
        if stopped:
            break  # over budget: guess
        below = floor
        if floor <= problem.gain(1):
            return None  # every play scores less than one tile does: nothing is playable
    guess = None
    for width in GUESS_WIDTHS:
        if budget is not None and width > budget:
            break
        found = _search(problem, cells, future, floor=1, width=width, memo=memo)
        if found is not None and (guess is None or found.score > guess.score or found.exact):
            guess = found
        if guess is not None and (
            guess.exact or peak[-1] < 2 * peak[0] or WIDEN_BELOW * width > peak[-1]
        ):
            break
    if guess is not None and guess.exact:
        return _melds_of(problem, cells, guess)
    floor = guess.score + 1 if guess is not None else 1
    if floor < below:
        found = _search(problem, cells, future, floor, None, None, memo, None, budget)
        if found is not None:
            return _melds_of(problem, cells, found)
    return _melds_of(problem, cells, guess) if guess is not None else None


def _floors(problem: _Problem, most: int) -> list[int]:
    """Floors for the exact passes from the top: as many tiles as ``most``, then one less at a
    time down to 1 (with ``prefer="points"``, points, the step doubling each time).

    A pass finding nothing proves every play scores below its floor; the first pass finding a
    play has found the best.
    """
    unit = max(problem.tile_weight, problem.point_weight)
    floor = most // unit * unit
    step = unit
    floors = []
    while floor > 1:
        floors.append(floor)
        floor -= step
        if problem.point_weight > problem.tile_weight:
            step *= 2  # points come by the dozen: do not try them one at a time
    floors.append(1)
    return floors


def _melds_of(problem: _Problem, cells: Sequence[_Cell], found: _Found) -> list[_Built]:
    melds = _rebuild(problem, cells, found.history, found.state)
    _add_surplus(problem.numbers, melds, found.ending.surplus)
    return melds


@dataclass(frozen=True, slots=True)
class _Found:
    """The best play a pass found: its score, how it ends, its final packed state, the back
    pointers to rebuild it, and whether the pass was exact (no beam ever cut a layer)."""

    score: int
    ending: _Ending
    state: int
    history: list[_BackPointers]
    exact: bool


def _search(
    problem: _Problem,
    cells: Sequence[_Cell],
    future: Sequence[int],
    floor: int,
    width: int | None,
    cut: list[bool] | None = None,
    memo: _Memos | None = None,
    peak: list[int] | None = None,
    give_up: int | None = None,
    stopped: list[bool] | None = None,
) -> _Found | None:
    """Run the programme; keep states whose bound reaches ``floor`` (the best ``width`` only).

    ``cut``, if given, learns whether the beam ever dropped a state: if not, the pass was exact
    even when it found nothing. ``memo`` (a :class:`.cells._Memos`) carries what the cells learn
    from one pass to the next of the same problem. ``peak`` learns the most states a layer
    held. A layer over ``give_up`` states stops the pass, which then finds nothing and says
    so in ``stopped``.
    """
    if memo is None:
        memo = _Memos(problem, cells)
    layer: dict[int, int] = {_pack(_State(((),) * COLOUR_COUNT)): 0}
    history: list[_BackPointers] = []
    exact = True
    most_states = 1
    jokers = problem.rack_jokers * problem.joker_score
    for index, cell in enumerate(cells):
        bound = _Bound(
            floor, future[index + 1] + jokers, future[index] + jokers, problem.joker_score
        )
        shift = RUN_SHIFTS[cell.colour]
        if cell.idle and not any(key >> shift & RUN_MASK for key in layer):
            # Nothing to place and no run to end: every state stays as it is.
            history.append(_UNCHANGED_CELL)
        else:
            cell_memo = memo[index]
            layer, back = _cell_step(problem, cell, layer, bound, cell_memo)
            if width is None or len(layer) > width:
                layer = _undominated(problem, layer, cell.colour)
            history.append(back)
        if cell.last_colour:
            if any(key >> GROUP_SHIFT & GROUP_MASK for key in layer):
                layer, back = _group_step(problem, cell, layer, bound, memo[index])
                history.append(back)
            else:
                history.append(_UNCHANGED_GROUPS)
            expired = cell.expired
            if expired:
                layer = _alive(layer, expired)
            layer = _undominated_across(problem, layer)
        size = len(layer)
        if not size:
            break  # every state was dropped: the pass finds nothing
        if size > most_states:
            most_states = size
            if give_up is not None and size > give_up:
                if peak is not None:
                    peak.append(most_states)
                if stopped is not None:
                    stopped.append(True)
                return None
        if width is not None and size > width:
            layer = _beam(layer, width, problem)
            exact = False
    if cut is not None:
        cut.append(not exact)
    if peak is not None:
        peak.append(most_states)
    best: tuple[int, _Ending, int] | None = None
    for key, score in layer.items():
        state = _unpack(key)
        ending = _ending(problem, state)
        if ending is None:
            continue
        unheld = len(problem.table_jokers) - state.held.bit_count()
        total = score + (ending.needed + ending.surplus - unheld) * problem.joker_score
        if total >= floor and (best is None or total > best[0]):
            best = (total, ending, key)
    if best is None:
        return None
    return _Found(*best, history, exact)


def _beam(layer: dict[int, int], width: int, problem: _Problem) -> dict[int, int]:
    """The ``width`` best states: most points without counting jokers, then fewest jokers on
    credit (placed before a table joker was freed to pay for them), then fewest runs still
    short of three (they are what kills a state), then most jokers kept."""
    short = _SHORT
    joker_score = problem.joker_score
    rack_jokers = problem.rack_jokers
    free_shift, freed_shift = FREE_SHIFT, FREED_SHIFT

    ranks: dict[int, int] = {}
    for key, score in layer.items():
        low, r0, r1, r2, r3 = _split(key)
        free = low >> free_shift & 15
        credit = max(0, free - rack_jokers - (low >> freed_shift & 15).bit_count())
        runs = short[r0] + short[r1] + short[r2] + short[r3]
        rank = (score - free * joker_score) << 16 | (15 - credit) << 12
        ranks[key] = rank | (255 - runs) << 4 | (15 - free)
    # What heapq.nlargest(width, layer, key=rank) gives (ties in layer order), without its
    # Python-level loop.
    best = sorted(ranks, key=ranks.__getitem__, reverse=True)
    return {key: layer[key] for key in best[:width]}


class _ShortRuns(dict[int, int]):
    """Interned runs -> how many of them are short of three or end in a gap."""

    def __missing__(self, rid: int) -> int:
        value = self[rid] = sum(1 for run in _RUNS[rid] if run & STATUS != COMPLETE)
        return value


_SHORT: Final = _ShortRuns()


@dataclass(slots=True, eq=False)  # immutable by convention: frozen inits cost twice as much
class _Ending:
    """How a finished state ends: jokers completing runs that reach the last number (placed
    before them), and surplus jokers."""

    needed: int
    surplus: int


def _ending(problem: _Problem, state: _State) -> _Ending | None:
    """How a state after the last cell ends; ``None`` if it cannot."""
    if (state.held | state.freed) != problem.all_table_jokers or state.value < problem.threshold:
        return None
    needed = 0
    for runs in state.runs:
        for run in runs:
            if run & (REAL | GAP) != REAL:
                return None
            needed += LENGTH - (run & LENGTH)
    if needed and (
        not problem.surplus_at_end or needed > problem.needed_left(state.free, state.held)
    ):
        return None
    free = state.free + needed
    surplus = min(problem.free_left(free, state.held), state.room - needed)
    unheld = len(problem.table_jokers) - state.held.bit_count()
    if free + surplus < unheld:
        return None
    return _Ending(needed, surplus)
