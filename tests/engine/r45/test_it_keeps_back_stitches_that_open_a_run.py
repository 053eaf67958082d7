"""From 3 players the expert keeps back a stitch at a run's end (docs/rules-45.md "Bots"): the
stitched tile would open the run's next place to every other seat, so it waits on the expert's
board, counted as laid off, until the turn it goes out, even where a set would take it. A 1 at
a run's end (it closes that end and is taken back), a tile for a set and the stitches of its
out turn are made at once; at 2 players, and for the hard bot, every stitch is made as
before."""

from __future__ import annotations

import random

from games.engine.r45.bots import choose_action
from games.engine.r45.state import Discard, R45State, Stitch
from games.engine.r45.views import view_for

from .positions import codes_of, position

LOOSE = "K2 R5 Y4 K12 B6"


def table(extra: str, players: int, rack: str = LOOSE) -> R45State:
    """Seat 0 has displayed (its run of yellows) and drawn; seat 1 shows a run of blues 10-12,
    a run of reds 11-13 and a set of 7s."""
    racks = [f"{extra} {rack}".strip(), "K3 K4 K9"] + ["B2 R9 Y9"] * (players - 2)
    melds = [(0, "Y11 Y12 Y13"), (1, "B10 B11 B12"), (1, "R11 R12 R13"), (1, "K7 R7 B7")]
    return position(racks, melds=melds)


def act(state: R45State, strength: str = "expert"):  # type: ignore[no-untyped-def]
    return choose_action(view_for(state, 0), random.Random(5), strength)


def stitched(action: object) -> str:
    assert isinstance(action, Stitch), action
    return codes_of([action.tile])


def test_at_four_players_the_expert_keeps_a_tile_that_would_open_a_run() -> None:
    action = act(table("B9", 4))
    assert isinstance(action, Discard) and codes_of([action.tile]) != "B9"
    # Three players too; at two the place it opens is only the other seat's, as before.
    assert not isinstance(act(table("B9", 3)), Stitch)
    assert stitched(act(table("B9", 2))) == "B9"
    assert stitched(act(table("B9", 4), "hard")) == "B9"


def test_a_one_at_a_runs_end_and_a_tile_for_a_set_are_stitched_at_once() -> None:
    assert stitched(act(table("R1 B9", 4))) == "R1"  # it closes the end, 25 points taken back
    assert stitched(act(table("Y7 B9", 4))) == "Y7"


def test_a_tile_that_fits_a_run_is_kept_even_where_a_set_would_take_it() -> None:
    # R10 fits below the reds 11-13 and the set of 10s: kept for either, until it goes out.
    racks = ["R10 " + LOOSE, "K3 K4 K9", "B2 R9 Y9", "B3 R8 Y8"]
    melds = [(0, "Y11 Y12 Y13"), (1, "R11 R12 R13"), (1, "K10 B10 Y10")]
    four = position(racks, melds=melds)
    assert not isinstance(act(four), Stitch)
    assert stitched(act(four, "hard")) == "R10"


def test_on_its_out_turn_it_stitches_what_it_kept() -> None:
    # B9 on the blues and K2 to discard: this turn goes out.
    assert stitched(act(table("B9", 4, rack="K2"))) == "B9"
