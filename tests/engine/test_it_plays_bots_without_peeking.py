"""A bot's choice depends only on its own view: other racks and the pool order never matter."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

import pytest

from games.engine.bots import BOT_STRENGTHS, choose_action
from games.engine.projection import view_for
from games.engine.rules import RULES
from games.engine.scoring import MatchFormat
from games.engine.state import GameConfig, GameState, apply, new_game

SEED = bytes(range(32))


def midgame(turns: int, seed: int = 0) -> tuple[GameState, bytes]:
    """A game some turns in, played by strong bots, so the table has melds on it."""
    secret = seed.to_bytes(4, "big") + SEED
    state, _ = new_game(GameConfig(RULES["classic"], 3, MatchFormat("single")), secret)
    rng = random.Random(seed)
    for _ in range(turns):
        action = choose_action(view_for(state, state.turn), rng, "strong")
        state, _ = apply(state, action, secret)
    return state, secret


def with_hidden_tiles_shuffled(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position for ``seat``; every tile it cannot see dealt out differently."""
    others = [s for s in range(state.config.players) if s != seat]
    hidden = list(state.pool) + [i for s in others for i in state.racks[s]]
    rng.shuffle(hidden)
    racks = list(state.racks)
    for s in others:
        size = len(state.racks[s])
        racks[s], hidden = tuple(sorted(hidden[:size])), hidden[size:]
    return replace(state, racks=tuple(racks), pool=tuple(hidden))


@pytest.mark.parametrize("strength", BOT_STRENGTHS)
def test_hidden_tiles_do_not_change_the_choice(strength: str) -> None:
    for turns, seed in ((9, 1), (30, 2)):
        state, _ = midgame(turns, seed)
        if state.finished:
            continue
        seat = state.turn
        other = with_hidden_tiles_shuffled(state, seat, random.Random(seed))
        assert other.racks != state.racks and other.pool != state.pool
        view, other_view = view_for(state, seat), view_for(other, seat)
        assert view == other_view
        first = choose_action(view, random.Random(7), strength)
        assert choose_action(other_view, random.Random(7), strength) == first


@pytest.mark.parametrize("strength", BOT_STRENGTHS)
def test_same_view_and_seed_give_the_same_action_and_leave_the_view_alone(strength: str) -> None:
    state, _ = midgame(12, 3)
    view = view_for(state, state.turn)
    kept = copy.deepcopy(view)
    actions = {choose_action(view, random.Random(11), strength) for _ in range(3)}
    assert len(actions) == 1
    assert view == kept
