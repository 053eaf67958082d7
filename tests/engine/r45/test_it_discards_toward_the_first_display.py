"""Before its first display the expert discards, among the tiles it would rather let go, the one
after which the most of the next draws make its first display (docs/rules-45.md "Bots")."""

from __future__ import annotations

import random

from games.engine.r45.bots import best_display, choose_action
from games.engine.r45.state import TILES, Discard
from games.engine.r45.views import view_for
from games.engine.tiles import Tile

from .positions import position


def opening_draws(rack: list[int]) -> int:
    """The kinds of tile (a copy of which is not on the board) whose draw lets ``rack`` make a
    first display."""
    found = 0
    for kind in sorted(set(TILES), key=str):
        drawn = next((i for i, t in enumerate(TILES) if t == kind and i not in rack), None)
        found += drawn is not None and bool(best_display([*rack, drawn], True)[0])
    return found


def test_it_lets_go_the_tile_that_leaves_the_most_draws_to_its_first_display() -> None:
    hand = "K2 K3 R2 R4 R9 R10 R12 R13 Y8 Y9 Y10 B3 Y3 K8 K8"
    state = position([hand, "B5 B6 Y5 Y6 K11 B11 R6 R7 B12 K13 Y12 B1 Y1 R1"], opened=[-1, -1])
    view = view_for(state, 0)
    rack = list(view["rack"])

    action = choose_action(view, random.Random(3), "expert")

    assert isinstance(action, Discard)
    assert TILES[action.tile] == Tile.parse("K8")
    r4 = next(t for t in rack if TILES[t] == Tile.parse("R4"))
    after = opening_draws([t for t in rack if t != action.tile])
    assert after > opening_draws([t for t in rack if t != r4])
