"""``python -m games.engine``: the engine's command line (docs/design.md, "Engine command line").

Commands read JSON on standard input where they take a position and print JSON. Bad input
(invalid JSON, unknown tiles, a malformed position) exits with status 2 and prints
``{"error": "..."}``; it never prints a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from . import families
from .audit import audit_record
from .errors import IllegalMove, InvalidInput
from .family import GameFamily
from .melds import check_meld, meld_error
from .projection import state_to_dict
from .r45.hands import HAND, best_combination
from .r45.melds import check_display
from .rules import Rules
from .solver import solve
from .tiles import Tile, parse_tiles
from .turn import check_set_counts as _check_counts
from .turn import check_turn_codes, parse_position_tiles

USAGE = (
    "usage: python -m games.engine "
    "{meld TILE... | check-turn | solve | replay | r45-display | r45-hand} (JSON on stdin)"
)


def cmd_meld(args: Sequence[str], _stdin: TextIO) -> Any:
    tiles = parse_tiles(args)
    try:
        reading = check_meld(tiles)
    except IllegalMove as error:
        return {"valid": False, "reason": error.message}
    return {"valid": True, "kind": reading.kind, "value": reading.value}


def _read_json(stdin: TextIO) -> Any:
    try:
        return json.loads(stdin.read())
    except json.JSONDecodeError as error:
        raise InvalidInput(f"invalid JSON on stdin: {error}") from None


def _field(data: object, name: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    if not isinstance(data, dict):
        raise InvalidInput("the input must be a JSON object")
    value = data.get(name, default)
    if value is None or not isinstance(value, kind):
        raise InvalidInput(f"{name!r} is missing or of the wrong type")
    return value


def cmd_check_turn(_args: Sequence[str], stdin: TextIO) -> Any:

    data = _read_json(stdin)
    rules = Rules.from_dict(_field(data, "rules", (str, dict), "classic"))
    try:
        played = check_turn_codes(
            rules,
            _field(data, "table_before", list, []),
            _field(data, "rack", list),
            _field(data, "table_after", list),
            _field(data, "initial_meld_done", bool, True),
        )
    except IllegalMove as error:
        return {"legal": False, "error": error.code, "message": error.message}
    return {"legal": True, "played": [str(tile) for tile in played]}


def cmd_solve(_args: Sequence[str], stdin: TextIO) -> Any:
    data = _read_json(stdin)
    if isinstance(data, list):
        return [solve_position(item) for item in data]
    return solve_position(data)


def solve_position(data: object) -> dict[str, Any]:
    """The best play for one position of docs/design.md's ``solve`` command.

    The table is a list of melds, or a flat list of codes: loose tiles are first arranged
    into melds by the solver itself (a table joker then stands for what it stands for in that
    arrangement).
    """

    rules = Rules.from_dict(_field(data, "rules", (str, dict), "classic"))
    raw_table = _field(data, "table", list, [])
    rack = parse_position_tiles(rules, _field(data, "rack", list))
    done = _field(data, "initial_meld_done", bool, True)
    if all(isinstance(item, str) for item in raw_table):
        table = _arrange(rules, parse_position_tiles(rules, raw_table))
    else:
        table = [parse_position_tiles(rules, meld) for meld in raw_table]
        for meld in table:
            error = meld_error(meld, rules.max_number)
            if error is not None:
                raise InvalidInput(f"table: {error}")
    _check_counts(rules, [t for meld in table for t in meld] + rack)
    best = solve(rules, table, rack, done)
    return {
        "tiles_played": best.tiles_played,
        "value_played": best.value_played,
        "played": [str(tile) for tile in best.played],
        "melds": [[str(tile) for tile in meld] for meld in best.melds],
    }


def _arrange(rules: Rules, tiles: list[Tile]) -> list[list[Tile]]:

    if not tiles:
        return []
    arranged = solve(rules, [], tiles, True)
    if arranged.tiles_played != len(tiles):
        raise InvalidInput("table: its tiles cannot all stand in valid melds")
    return [list(meld) for meld in arranged.melds]


def cmd_replay(_args: Sequence[str], stdin: TextIO) -> Any:
    """Replay an exported record of any family (its ``mode`` names it; a bare list of events
    is read by the family whose first event it is) and check its seed."""
    record = _read_json(stdin)
    family = _family_of(record)
    if family.name == "rummikub":
        state, seed_check = audit_record(record)
        return {"state": state_to_dict(state), "seed_check": seed_check}
    state, seed_check = family.audit(record)
    return {"family": family.name, "state": family.state_to_record(state), "seed_check": seed_check}


def _family_of(record: object) -> GameFamily:
    mode = record.get("mode") if isinstance(record, dict) else None
    if mode is not None:
        return families.family_of_mode(mode)
    events = record.get("events") if isinstance(record, dict) else record
    first = events[0] if isinstance(events, list) and events else None
    for family in families.families():
        try:
            family.event_from_dict(first)
        except (InvalidInput, KeyError, TypeError, ValueError):
            continue
        return family
    return families.family_named("rummikub")  # its audit says what is wrong with the record


def _r45_tiles(codes: object, name: str) -> list[Tile]:
    """Classic tile codes, no more of a kind than the 106 tiles hold (two, and two jokers)."""
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        raise InvalidInput(f"{name!r} must be a list of tile codes")
    return parse_tiles(codes)


def _r45_counts(tiles: list[Tile]) -> None:
    counts: dict[Tile, int] = {}
    for tile in tiles:
        counts[tile] = counts.get(tile, 0) + 1
        if counts[tile] > 2:
            raise InvalidInput(f"the 106 tiles hold only two of {tile}")


def cmd_r45_display(_args: Sequence[str], stdin: TextIO) -> Any:
    """Whether melds are a legal Rummy 45 display, and its points (docs/rules-45.md)."""
    data = _read_json(stdin)
    raw = _field(data, "melds", list)
    first = _field(data, "first", bool, False)
    melds = [_r45_tiles(meld, "melds") for meld in raw]
    _r45_counts([t for meld in melds for t in meld])
    try:
        found = check_display(melds, first)
    except IllegalMove as error:
        return {"valid": False, "reason": error.message}
    return {"valid": True, "points": sum(r.points for r in found)}


def cmd_r45_hand(_args: Sequence[str], stdin: TextIO) -> Any:
    """The best on-the-board combination of 14 tiles (docs/rules-45.md)."""
    hand = _r45_tiles(_field(_read_json(stdin), "hand", list), "hand")
    if len(hand) != HAND:
        raise InvalidInput(f"a hand on the board has {HAND} tiles, not {len(hand)}")
    _r45_counts(hand)
    name, points = best_combination(hand)
    return {"combination": name, "points": points}


COMMANDS: dict[str, Callable[[Sequence[str], TextIO], Any]] = {
    "meld": cmd_meld,
    "check-turn": cmd_check_turn,
    "solve": cmd_solve,
    "replay": cmd_replay,
    "r45-display": cmd_r45_display,
    "r45-hand": cmd_r45_hand,
}


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in COMMANDS:
        print(json.dumps({"error": USAGE}))
        return 2
    try:
        result = COMMANDS[args[0]](args[1:], stdin or sys.stdin)
    except (InvalidInput, IllegalMove) as error:
        print(json.dumps({"error": str(error)}))
        return 2
    except RecursionError:
        print(json.dumps({"error": "the input is nested too deeply"}))
        return 2
    print(json.dumps(result))
    return 0
