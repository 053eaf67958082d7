"""Checking a whole turn: table before, rack, table after (docs/rules.md "A round", rules 3-5).

A play submits the whole table as it should stand at the end of the turn. The turn is legal when:

* every tile that was on the table is still on it, and every new tile came from the rack;
* at least one rack tile was played;
* every meld on the table is valid;
* before the initial meld: the table's melds are untouched and the new melds, made only from
  the rack, are worth at least the threshold;
* after it: every table joker still stands for a tile it stood for at the start of the turn,
  unless it was replaced (a real tile of a kind it stood for now sits in a meld with one of the
  joker's meld-mates from the start of the turn).

Checks run in that order, so the first broken rule is the one reported.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from .errors import IllegalMove, InvalidInput
from .melds import Reading, check_meld, meld_error, readings
from .rules import Rules
from .tiles import Tile, format_tiles

Melds = Sequence[Sequence[int]]


@dataclass(frozen=True, slots=True)
class TurnResult:
    """A legal turn: the rack tiles it put on the table and, for an opening, its value."""

    played: tuple[int, ...]
    opening_value: int | None


def check_turn(
    rules: Rules,
    kinds: Sequence[Tile],
    table_before: Melds,
    rack: Sequence[int],
    table_after: Melds,
    initial_meld_done: bool,
    mates_by_kind: bool = False,
) -> TurnResult:
    """Check a turn given as tile ids (indexes into ``kinds``); raise :class:`IllegalMove`.

    Raises :class:`InvalidInput` when the ids themselves are malformed (unknown or repeated).
    ``mates_by_kind`` is for positions written in codes, where two copies of a tile cannot be
    told apart: a joker's old meld-mate then counts wherever a tile of its kind stands.
    """
    before_ids = _unique_ids(kinds, table_before, "table before")
    rack_ids = set(rack)
    if before_ids & rack_ids:
        raise InvalidInput("a tile cannot be both on the table and on the rack")
    after_ids = _unique_ids(kinds, table_after, "the table")
    played = _check_conservation(kinds, before_ids, rack_ids, after_ids, table_after)
    for meld in table_after:
        tiles = [kinds[i] for i in meld]
        error = meld_error(tiles, rules.max_number)
        if error is not None:
            raise IllegalMove("meld_invalid", error[0].upper() + error[1:] + ".")
    if not initial_meld_done:
        value = _check_opening(rules, kinds, table_before, table_after)
        return TurnResult(played, value)
    _check_jokers(rules, kinds, table_before, table_after, mates_by_kind)
    return TurnResult(played, None)


def _unique_ids(kinds: Sequence[Tile], melds: Melds, where: str) -> set[int]:
    seen: set[int] = set()
    for meld in melds:
        for tile_id in meld:
            if not isinstance(tile_id, int) or not 0 <= tile_id < len(kinds):
                raise InvalidInput(f"{where}: unknown tile id {tile_id!r}")
            if tile_id in seen:
                raise InvalidInput(f"{where}: tile id {tile_id} appears twice")
            seen.add(tile_id)
    return seen


def _check_conservation(
    kinds: Sequence[Tile],
    before: set[int],
    rack: set[int],
    after: set[int],
    table_after: Melds,
) -> tuple[int, ...]:
    taken = before - after
    if taken:
        names = format_tiles(sorted((kinds[i] for i in taken), key=_order))
        raise IllegalMove(
            "table_tile_taken",
            f"Tiles on the table must stay on the table: {names} went missing.",
        )
    foreign = after - before - rack
    if foreign:
        names = format_tiles(sorted((kinds[i] for i in foreign), key=_order))
        raise IllegalMove("tile_not_in_rack", f"{names} is not on your rack.")
    played = tuple(i for meld in table_after for i in meld if i in rack)
    if not played:
        raise IllegalMove("no_tile_played", "Play at least one tile from your rack, or draw.")
    return played


def _order(tile: Tile) -> tuple[str, int]:
    return (tile.colour or "~", tile.number)


def _check_opening(rules: Rules, kinds: Sequence[Tile], before: Melds, after: Melds) -> int:
    after_sets = Counter(frozenset(meld) for meld in after)
    for meld in before:
        key = frozenset(meld)
        if after_sets[key] == 0:
            raise IllegalMove(
                "initial_meld_touches_table",
                "Your initial meld must be new melds from your rack alone; "
                "table melds cannot be changed until it is made.",
            )
        after_sets[key] -= 1
    new_melds = [meld for meld, count in after_sets.items() for _ in range(count)]
    value = sum(
        check_meld([kinds[i] for i in _in_order(after, meld)], rules.max_number).value
        for meld in new_melds
    )
    if value < rules.opening:
        raise IllegalMove(
            "initial_meld_too_low",
            f"Your initial meld is worth {value}; it must be worth at least {rules.opening}.",
        )
    return value


def _in_order(melds: Melds, members: frozenset[int]) -> Sequence[int]:
    return next(meld for meld in melds if frozenset(meld) == members)


def _check_jokers(
    rules: Rules, kinds: Sequence[Tile], before: Melds, after: Melds, mates_by_kind: bool
) -> None:
    where_after: dict[int | Tile, set[int]] = {}
    for index, meld in enumerate(after):
        for tile_id in meld:
            where_after.setdefault(tile_id, set()).add(index)
            if mates_by_kind:
                where_after.setdefault(kinds[tile_id], set()).add(index)
    bound: dict[int, frozenset[Tile]] = {}
    for meld in before:
        tiles = [kinds[i] for i in meld]
        if not any(t.is_joker for t in tiles):
            continue
        found = readings(tiles, rules.max_number)
        for pos, tile_id in enumerate(meld):
            if not kinds[tile_id].is_joker:
                continue
            roles = frozenset().union(*(r.roles[pos] for r in found))
            mates: list[int | Tile] = [i for i in meld if i != tile_id]
            if mates_by_kind:
                mates = [kinds[i] for i in meld if not kinds[i].is_joker]
            if not _replaced(kinds, after, where_after, roles, mates):
                bound[tile_id] = roles
    if not bound:
        return
    for meld in after:
        constrained = [(pos, i) for pos, i in enumerate(meld) if i in bound]
        if constrained and not _roles_kept(
            readings([kinds[i] for i in meld], rules.max_number), constrained, bound
        ):
            joker_id = constrained[0][1]
            stood = " or ".join(sorted(str(t) for t in bound[joker_id]))
            raise IllegalMove(
                "joker_not_replaced",
                f"A table joker stood for {stood}; it must keep standing for that tile "
                "unless you replace it with a real one in its meld.",
            )


def _replaced(
    kinds: Sequence[Tile],
    after: Melds,
    where_after: dict[int | Tile, set[int]],
    roles: frozenset[Tile],
    mates: Sequence[int | Tile],
) -> bool:
    """Whether a real tile of a kind in ``roles`` now shares a meld with one of ``mates``."""
    for index in set().union(*(where_after.get(m, set()) for m in mates)):
        if any(kinds[i] in roles for i in after[index]):
            return True
    return False


def _roles_kept(
    found: Sequence[Reading],
    constrained: Sequence[tuple[int, int]],
    bound: dict[int, frozenset[Tile]],
) -> bool:
    """Whether some reading lets every bound joker stand for one of its old tiles, all distinct."""
    for reading in found:
        options = [reading.roles[pos] & bound[tile_id] for pos, tile_id in constrained]
        if reading.kind == "run":
            if all(options):
                return True
            continue
        choices = sorted(reading.roles[constrained[0][0]], key=str)
        for pick in permutations(choices, len(options)):
            if all(tile in option for tile, option in zip(pick, options, strict=True)):
                return True
    return False


def check_turn_codes(
    rules: Rules,
    table_before: Sequence[Sequence[str]],
    rack: Sequence[str],
    table_after: Sequence[Sequence[str]],
    initial_meld_done: bool,
) -> list[Tile]:
    """Check a turn written in tile codes; return the rack tiles played, raise otherwise.

    Codes carry no identity, so the two copies of ``R7`` (or two jokers) are told apart here:
    each tile of the table after is matched to a tile of the table before that stood in the
    meld it resembles most, and jokers are tried in every arrangement, so a turn is legal if
    some reading of the codes as physical tiles is legal.
    """
    before = [parse_position_tiles(rules, meld) for meld in table_before]
    rack_tiles = parse_position_tiles(rules, rack)
    after = [parse_position_tiles(rules, meld) for meld in table_after]
    kinds = [t for meld in before for t in meld] + rack_tiles
    check_set_counts(rules, kinds)
    before_ids: list[list[int]] = []
    for meld in before:
        start = sum(len(m) for m in before_ids)
        before_ids.append(list(range(start, start + len(meld))))
    rack_ids = list(range(len(kinds) - len(rack_tiles), len(kinds)))
    after_ids = _match_ids(kinds, before_ids, rack_ids, after)
    result: IllegalMove | None = None
    for attempt in _joker_arrangements(kinds, before_ids, rack_ids, after_ids):
        try:
            played = check_turn(
                rules, kinds, before_ids, rack_ids, attempt, initial_meld_done, mates_by_kind=True
            )
        except IllegalMove as error:
            result = result or error
            if error.code != "joker_not_replaced":
                raise
            continue
        return [kinds[i] for i in played.played]
    assert result is not None
    raise result


def parse_position_tiles(rules: Rules, codes: object) -> list[Tile]:
    if not isinstance(codes, list | tuple) or not all(isinstance(c, str) for c in codes):
        raise InvalidInput("a meld or rack must be a list of tile codes")
    tiles = [Tile.parse(code) for code in codes]
    for tile in tiles:
        if not rules.tile_set.contains(tile):
            raise InvalidInput(f"{tile} is not in the {rules.tile_set.name} set")
    return tiles


def check_set_counts(rules: Rules, kinds: Sequence[Tile]) -> None:
    for tile, count in Counter(kinds).items():
        limit = rules.tile_set.jokers if tile.is_joker else rules.tile_set.copies
        if count > limit:
            raise InvalidInput(
                f"the {rules.tile_set.name} set has {limit} of {tile}, the position has {count}"
            )


def _match_ids(
    kinds: Sequence[Tile],
    before_ids: Sequence[Sequence[int]],
    rack_ids: Sequence[int],
    after: Sequence[Sequence[Tile]],
) -> list[list[int]]:
    """Give each tile of ``after`` an id, keeping tiles in the meld they most resemble."""
    free_table: dict[Tile, list[int]] = {}
    home_of: dict[int, int] = {}
    for index, meld in enumerate(before_ids):
        for i in meld:
            free_table.setdefault(kinds[i], []).append(i)
            home_of[i] = index
    free_rack: dict[Tile, list[int]] = {}
    for i in rack_ids:
        free_rack.setdefault(kinds[i], []).append(i)
    before_counts = [Counter(kinds[i] for i in meld) for meld in before_ids]

    def home(meld: Sequence[Tile]) -> tuple[int, int]:
        counts = Counter(meld)
        best = max(
            ((sum((counts & c).values()), -n) for n, c in enumerate(before_counts)),
            default=(0, 1),
        )
        return best[0], -best[1]

    homes = [home(meld) for meld in after]
    result: list[list[int]] = [[] for _ in after]
    for index in sorted(range(len(after)), key=lambda n: -homes[n][0]):
        overlap, home_index = homes[index]
        for tile in after[index]:
            candidates = free_table.get(tile, [])
            preferred = [i for i in candidates if overlap and home_of[i] == home_index]
            if preferred or candidates:
                chosen = (preferred or candidates)[0]
                candidates.remove(chosen)
            elif free_rack.get(tile):
                chosen = free_rack[tile].pop(0)
            else:
                raise IllegalMove("tile_not_in_rack", f"{tile} is not on your rack.")
            result[index].append(chosen)
    return result


MAX_JOKER_ARRANGEMENTS = 5040


def _joker_arrangements(
    kinds: Sequence[Tile],
    before_ids: Sequence[Sequence[int]],
    rack_ids: Sequence[int],
    after_ids: list[list[int]],
) -> list[list[list[int]]]:
    slots = [
        (m, p) for m, meld in enumerate(after_ids) for p, i in enumerate(meld) if kinds[i].is_joker
    ]
    if len(slots) < 2:
        return [after_ids]
    table_jokers = {i for meld in before_ids for i in meld if kinds[i].is_joker}
    candidates = sorted(table_jokers | {i for i in rack_ids if kinds[i].is_joker})
    arrangements = [after_ids]
    for pick in permutations(candidates, len(slots)):
        if not table_jokers <= set(pick):
            continue
        attempt = [list(meld) for meld in after_ids]
        for (m, p), joker_id in zip(slots, pick, strict=True):
            attempt[m][p] = joker_id
        if attempt != after_ids:
            arrangements.append(attempt)
        if len(arrangements) >= MAX_JOKER_ARRANGEMENTS:
            break
    return arrangements
