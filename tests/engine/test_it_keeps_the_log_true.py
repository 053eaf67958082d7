"""Property tests: random legal games keep every tile in one place, and replay equals the game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.errors import IllegalMove
from games.engine.rules import RULES
from games.engine.scoring import MatchFormat
from games.engine.state import GameConfig, apply, new_game, replay

from .helpers import assert_conserved, random_action

CONFIGS = [
    GameConfig(RULES["classic"], 2, MatchFormat("rounds", rounds=2)),
    GameConfig(RULES["classic"], 4),
    GameConfig(RULES["large"], 6),
    GameConfig(RULES["rush"], 2, MatchFormat("rounds", rounds=3)),
    GameConfig(RULES["classic"].with_penalty(1), 3),
]


@pytest.mark.heavy_solver
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.binary(min_size=16, max_size=32),
    config_index=st.integers(0, len(CONFIGS) - 1),
    choices=st.integers(0, 2**32),
)
def test_random_games_conserve_tiles_and_replay_exactly(
    seed: bytes, config_index: int, choices: int
) -> None:
    rng = random.Random(choices)
    state, log = new_game(CONFIGS[config_index], seed)
    assert_conserved(state)
    for _ in range(5000):
        if state.finished:
            break
        action = random_action(state, rng)
        try:
            state, events = apply(state, action, seed)
        except IllegalMove:
            continue
        log += events
        assert_conserved(state)
        if len(log) % 50 == 0:
            assert replay(log) == state
    assert state.finished
    assert replay(log) == state
    assert replay([e.to_dict() for e in log]) == state


@pytest.mark.heavy_solver
def test_random_games_do_play_tiles() -> None:
    """The property above is worth little unless its games include plays and rearranged tables.

    Going out is covered by the bot games of the solver tests, which play strongly enough.
    """
    reasons = set()
    plays = 0
    for n in range(6):
        seed = bytes([n]) * 16
        rng = random.Random(n)
        state, log = new_game(CONFIGS[n % len(CONFIGS)], seed)
        while not state.finished:
            try:
                state, events = apply(state, random_action(state, rng), seed)
            except IllegalMove:
                continue
            log += events
            plays += sum(e.kind == "TilesPlayed" for e in events)
            reasons |= {getattr(e, "reason", "") for e in events if e.kind == "RoundEnded"}
    assert plays > 200
    assert "blocked" in reasons
