"""The expert takes the left discard after its first display only when that pays
(docs/rules-45.md "Bots"): when the tiles left loose after the turn's discard are fewer than a
useless draw would leave. A take that leaves nothing but melds, so that the discard must break
one, gains nothing over the draw; the hard bot takes every discard it can display."""

from __future__ import annotations

import random

from games.engine.r45.bots import choose_action
from games.engine.r45.state import Draw, R45State, TakeDiscard
from games.engine.r45.views import view_for

from .positions import codes_of, position


def act(state: R45State, strength: str):  # type: ignore[no-untyped-def]
    return choose_action(view_for(state, 0), random.Random(3), strength)


def test_it_draws_when_the_take_would_leave_only_melds() -> None:
    state = position(
        ["K3 K4 K5 R2 R4", "B1 B2 B3"], melds=[(0, "Y11 Y12 Y13")], train="K1 R3", taken=False
    )

    assert act(state, "expert") == Draw(0)
    assert isinstance(act(state, "hard"), TakeDiscard)


def test_it_takes_a_discard_that_leaves_fewer_loose_tiles_and_shows_only_its_meld() -> None:
    state = position(
        ["K3 K4 K5 R2 R4 B9 K7", "B1 B2 B3"],
        melds=[(0, "Y11 Y12 Y13")],
        train="K1 R3",
        taken=False,
    )

    action = act(state, "expert")

    assert isinstance(action, TakeDiscard) and not action.on_board
    assert [codes_of(m) for m in action.melds] == ["R2 R3 R4"]
