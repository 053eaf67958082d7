"""The puzzle editor: the solver checks a table and rack, and a saved position becomes a
puzzle anyone with its link can play (not served by the trainer, not rated)."""

from __future__ import annotations

import datetime as dt
import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.engine.errors import InvalidInput, SolverBusy
from games.engine.melds import meld_error
from games.engine.solver import solve
from games.engine.tiles import Tile, parse_tiles
from games.errors import Forbidden, Illegal, Invalid
from games.review import WEB_SOLVE_BUDGET, WEB_SOLVE_WAIT_S, busy

from .arrangements import CLASSIC, codes, rearrangement
from .daily import today
from .generator import Features, count_solutions, grade, parse_table, puzzle_rating
from .models import DailyPuzzle, Puzzle
from .services import parse_melds

MAX_EDITOR_RACK = 20
MAX_EDITOR_TABLE = 80


def parse_editor_text(table_text: str, rack_text: str) -> tuple[list[list[str]], list[str]]:
    """The editor's form: one meld a line (codes split by spaces or commas), the rack a line."""
    table = [line.replace(",", " ").split() for line in table_text.splitlines()]
    return [meld for meld in table if meld], rack_text.replace(",", " ").split()


def check_position(table: object, rack: object) -> dict[str, Any]:
    """What the solver says of an editor position: how many rack tiles can go down, and how."""
    melds = parse_melds(table, "table")
    if not isinstance(rack, list) or not all(isinstance(code, str) for code in rack):
        raise Invalid("bad_rack", "rack must be a list of tile codes.")
    try:
        tiles = parse_tiles(rack)
    except InvalidInput as error:
        raise Invalid("bad_rack", str(error)) from None
    _check_editor_position(melds, tiles)
    _refuse_an_open_daily(melds, tiles)
    try:
        best = solve(
            CLASSIC,
            [list(m) for m in melds],
            tiles,
            True,
            budget=WEB_SOLVE_BUDGET,
            wait=WEB_SOLVE_WAIT_S,
        )
    except SolverBusy:
        raise busy() from None
    except AssertionError:
        raise Illegal("solver_failed", "The solver could not work this position out.") from None
    return {
        "tiles_placeable": best.tiles_played,
        "rack_size": len(tiles),
        "played": [str(t) for t in best.played],
        "solution": codes(best.melds) if best.tiles_played else None,
    }


def _check_editor_position(melds: Sequence[Sequence[Tile]], rack: Sequence[Tile]) -> None:
    if not rack:
        raise Invalid("bad_rack", "Put at least one tile on the rack.")
    if len(rack) > MAX_EDITOR_RACK:
        raise Invalid("bad_rack", f"A rack holds at most {MAX_EDITOR_RACK} tiles here.")
    if sum(len(m) for m in melds) > MAX_EDITOR_TABLE:
        raise Invalid("bad_table", f"The table holds at most {MAX_EDITOR_TABLE} tiles here.")
    for meld in melds:
        error = meld_error(list(meld), CLASSIC.max_number)
        if error is not None:
            raise Illegal("meld_invalid", error[0].upper() + error[1:] + ".")
    counts: dict[Tile, int] = {}
    for tile in [t for m in melds for t in m] + list(rack):
        counts[tile] = counts.get(tile, 0) + 1
    for tile, count in counts.items():
        limit = CLASSIC.tile_set.jokers if tile.is_joker else CLASSIC.tile_set.copies
        if count > limit:
            raise Illegal(
                "too_many_copies", f"A classic set has {limit} of {tile}; this has {count}."
            )


# A daily's leaderboard takes the attempts started on its UTC day, and one started just before
# midnight is submitted after it: so yesterday's daily is still open, as is today's (and any
# picked ahead).
DAILY_OPEN_DAYS = 1


def _faces(tiles: Sequence[Tile]) -> Counter[str]:
    """Tiles by face (``R7``, ``J``): copies of one tile are the same tile here."""
    return Counter(str(t) for t in tiles)


def _refuse_an_open_daily(melds: Sequence[Sequence[Tile]], rack: Sequence[Tile]) -> None:
    """The editor solves no daily puzzle whose leaderboard is still open, so that no hint or
    solution of the daily is seen outside the daily try (README.md "Puzzles").

    Refused is a table holding the daily's table tiles, however they are grouped into melds
    and ordered, with more melds or not (any rack: the daily's rack with a tile more or less is
    the same help), and a position holding the daily's tiles in all, table and rack (its rack's
    tiles partly laid), with more tiles or not: a solution of the larger position shows the
    daily's (until 2026-12-08 an unrelated meld more on the table got it solved).
    """
    table = _faces([t for m in melds for t in m])
    whole = table + _faces(rack)
    since = today() - dt.timedelta(days=DAILY_OPEN_DAYS)
    for daily in DailyPuzzle.objects.filter(date__gte=since).select_related("puzzle"):
        puzzle = daily.puzzle
        its_table = Counter(str(Tile.parse(c)) for m in puzzle.table for c in m)
        its_whole = its_table + Counter(str(Tile.parse(c)) for c in puzzle.rack)
        if its_table <= table or its_whole <= whole:
            raise Forbidden(
                "daily_position",
                "That is the daily puzzle's position, whose leaderboard is still open: the "
                "editor does not solve it. Play it on the daily page.",
            )


def save_user_puzzle(
    table: object, rack: object, user_id: int | None, lesson: str = "Made in the puzzle editor."
) -> Puzzle:
    """Save an editor position as a puzzle shared by link; its goal is what the solver can do.
    ``lesson`` says where it came from (the editor, or a game's missed play)."""
    checked = check_position(table, rack)
    if not checked["tiles_placeable"]:
        raise Illegal("nothing_playable", "No rack tile can go down: that is no puzzle.")
    melds = parse_melds(table, "table")
    tiles = parse_tiles(rack)  # type: ignore[arg-type]
    solution = parse_table(checked["solution"])
    placeable = checked["tiles_placeable"]
    goal = None if placeable == len(tiles) else placeable
    features = _user_features(melds, tiles, solution, all_placed=goal is None)
    level = grade(features, len(tiles)) if features.melds_disturbed else 1
    order = rearrangement(melds, tiles, solution).from_rack
    ordered = [m for m, uses in zip(solution, order, strict=True) if uses] + [
        m for m, uses in zip(solution, order, strict=True) if not uses
    ]
    token = secrets.token_urlsafe(9)
    return Puzzle.objects.create(
        slug=f"u-{token}",
        table=codes(melds),
        rack=[str(t) for t in tiles],
        goal=goal,
        solution=codes(ordered),
        level=level,
        technique=Puzzle.Technique.MIXED,
        lesson=lesson,
        rating=puzzle_rating(level, features, len(tiles)),
        source=Puzzle.Source.USER,
        created_by_id=user_id,
        share_token=token,
        public=False,
        **{k: v for k, v in features.__dict__.items()},
    )


def _user_features(
    melds: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    solution: Sequence[Sequence[Tile]],
    all_placed: bool,
) -> Features:
    moves = rearrangement(melds, rack, solution)
    solutions = 0
    if all_placed:
        solutions = count_solutions(melds, rack, budget=20_000).solutions
    return Features(
        table_size=sum(len(m) for m in melds),
        melds_disturbed=moves.disturbed,
        tiles_moved=moves.moved,
        chain_depth=moves.chain,
        jokers=sum(t.is_joker for m in melds for t in m) + sum(t.is_joker for t in rack),
        solutions=max(1, solutions),
    )
