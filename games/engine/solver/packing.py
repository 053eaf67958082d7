"""Packed states: a state of the programme is one int, and a run is an int too.

A run's code: bits 0-1 its length (1, 2, 3 meaning "three or more"), bit 2 "holds a real
tile", bit 3 "ends in a free joker that needs a real or held tile after it", then two bits per
table joker ``j``: the run holds a real tile of a kind ``j`` stood for (ROLE, :func:`_role_bit`)
/ of a kind of one of ``j``'s old meld-mates (MATE, :func:`_mate_bit`).

A packed state (:func:`_pack`, :func:`_unpack` to and from :class:`_State`): bits 0-4 the room
for surplus jokers, 5-15 the value so far (the opening), 16-19 the free jokers placed, 20-23 the
table jokers held, 24-27 those freed, 28-47 the interned tiles set aside for groups, and from
bit 48 each colour's interned runs, 20 bits each. Runs and groups are interned in tables every
solve shares (entry.py trims them between solves once they grow large). A key is wider than a
machine word, so the hot loops read its fields from the parts :func:`_split` cuts it into.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..tiles import COLOURS

COLOUR_COUNT: Final = len(COLOURS)

# A run's code (see above).
LENGTH: Final = 3
REAL: Final = 4
GAP: Final = 8
STATUS: Final = LENGTH | REAL | GAP
COMPLETE: Final = LENGTH | REAL


def _role_bit(joker: int) -> int:
    return 16 << (2 * joker)


def _mate_bit(joker: int) -> int:
    return 32 << (2 * joker)


# A packed state's fields (see above).
NIBBLE: Final = 15
ROOM_MASK: Final = 31
VALUE_SHIFT: Final = 5
VALUE_MASK: Final = 2047
FREE_SHIFT: Final = 16
HELD_SHIFT: Final = 20
FREED_SHIFT: Final = 24
GROUP_SHIFT: Final = 28
GROUP_MASK: Final = (1 << 20) - 1
LOW_MASK: Final = (1 << 48) - 1  # all but the runs: fits a machine word
RUN_MASK: Final = (1 << 20) - 1
RUNS_SHIFT: Final = 48
RUN_SHIFTS: Final = tuple(RUNS_SHIFT + 20 * colour for colour in range(COLOUR_COUNT))
TWO_RUNS_SHIFT: Final = 40
TWO_RUNS: Final = (1 << TWO_RUNS_SHIFT) - 1


@dataclass(slots=True)  # not frozen: made by the thousand, and frozen inits cost twice as much
class _State:
    runs: tuple[tuple[int, ...], ...]
    free: int = 0  # free jokers on the table so far
    held: int = 0  # bit j: table joker j placed as a tile it stood for
    freed: int = 0  # bit j: table joker j replaced
    group: tuple[tuple[int, int], ...] = ()  # (real, held) tiles set aside for groups
    value: int = 0  # value of the new melds so far, capped at the threshold (opening)
    room: int = 0  # surplus jokers the melds could take, capped (after the opening)


# Interned runs and groups (shared by all solves; entry._trim_caches clears them).
_RUNS: Final[list[tuple[int, ...]]] = [()]
_RUN_IDS: Final[dict[tuple[int, ...], int]] = {(): 0}
_GROUPS: Final[list[tuple[tuple[int, int], ...]]] = [()]
_GROUP_IDS: Final[dict[tuple[tuple[int, int], ...], int]] = {(): 0}
_GROUPED: Final[dict[tuple[int, tuple[int, int], int, bool], int]] = {}


def _run_id(runs: tuple[int, ...]) -> int:
    found = _RUN_IDS.get(runs)
    if found is None:
        found = _RUN_IDS[runs] = len(_RUNS)
        _RUNS.append(runs)
    return found


def _group_id(group: tuple[tuple[int, int], ...]) -> int:
    found = _GROUP_IDS.get(group)
    if found is None:
        found = _GROUP_IDS[group] = len(_GROUPS)
        _GROUPS.append(group)
    return found


def _grouped(
    group: tuple[tuple[int, int], ...], member: tuple[int, int], colour: int, witness: bool
) -> tuple[tuple[int, int], ...]:
    """Add a colour's tiles for groups. Groups do not care which colour is which, unless a group
    could free a table joker; then the tuple stays indexed by colour."""
    if witness:
        return (*group, member)
    return tuple(sorted((*group, member)))


def _grouped_id(gid: int, member: tuple[int, int], colour: int, witness: bool) -> int:
    key = (gid, member, colour, witness)
    found = _GROUPED.get(key)
    if found is None:
        group = _GROUPS[gid]
        if member != (0, 0):
            group = _grouped(group, member, colour, witness)
        elif witness:
            group = (*group, (0, 0))
        found = _GROUPED[key] = _group_id(group)
    return found


def _split(key: int) -> tuple[int, int, int, int, int]:
    """A packed state's machine-word parts: all but the runs, then each colour's interned runs.

    The key is wider than a machine word, so each shift or mask of it is a big-int operation
    (an allocation, compiled or not); the hot loops read every field from these parts instead.
    """
    low = key & LOW_MASK
    high = key >> RUNS_SHIFT
    first = high & TWO_RUNS  # colours 0 and 1
    second = high >> TWO_RUNS_SHIFT  # colours 2 and 3
    return low, first & RUN_MASK, first >> 20, second & RUN_MASK, second >> 20


def _pack(state: _State) -> int:
    key = state.room | state.value << VALUE_SHIFT
    key |= state.free << FREE_SHIFT | state.held << HELD_SHIFT | state.freed << FREED_SHIFT
    key |= _group_id(state.group) << GROUP_SHIFT
    for colour, runs in enumerate(state.runs):
        key |= _run_id(runs) << RUN_SHIFTS[colour]
    return key


def _unpack(key: int) -> _State:
    return _State(
        runs=tuple(_RUNS[key >> shift & RUN_MASK] for shift in RUN_SHIFTS),
        free=key >> FREE_SHIFT & NIBBLE,
        held=key >> HELD_SHIFT & NIBBLE,
        freed=key >> FREED_SHIFT & NIBBLE,
        group=_GROUPS[key >> GROUP_SHIFT & GROUP_MASK],
        value=key >> VALUE_SHIFT & VALUE_MASK,
        room=key & ROOM_MASK,
    )
