"""The easy Rummy 45 bot can go out (docs/rules-45.md "Bots"): down to its last tiles, where a
display would leave it nothing to discard, it stitches; so tables of easy bots alone (a
tournament's bot entrants) end instead of drawing and discarding for ever."""

from __future__ import annotations

import random

import pytest

from games.engine.r45.bots import choose_action
from games.engine.r45.state import Discard, Stitch, apply, new_game, to_act
from games.engine.r45.views import view_for

from .positions import position, tile_ids


def test_an_easy_bot_down_to_two_tiles_stitches_one() -> None:
    state = position(["R4 B9", "K1 K2 K3 K4 K5"], melds=[(0, "R5 R6 R7")])

    action = choose_action(view_for(state, 0), random.Random(1), "easy")

    assert isinstance(action, Stitch) and action.tile == tile_ids(state, 0, "R4")[0]
    after, _ = apply(state, action)
    assert isinstance(choose_action(view_for(after, 0), random.Random(1), "easy"), Discard)


def test_an_easy_bot_with_a_fuller_board_still_never_stitches() -> None:
    state = position(["R4 B9 K11 Y2", "K1 K2 K3 K4 K5"], melds=[(0, "R5 R6 R7")])

    action = choose_action(view_for(state, 0), random.Random(1), "easy")

    assert isinstance(action, Discard)


@pytest.mark.parametrize(("players", "seeds"), [(2, range(12)), (4, range(4))])
def test_games_of_easy_bots_alone_end(players: int, seeds: range) -> None:
    for seed in seeds:
        secret = seed.to_bytes(8, "big") * 4
        state, _ = new_game(players, secret)
        rng = random.Random(seed)
        for _ in range(3000):
            if state.finished:
                break
            seat = to_act(state)[0]
            state, _ = apply(state, choose_action(view_for(state, seat), rng, "easy"), secret)
        assert state.finished, f"seed {seed}: {players} easy bots still playing"
