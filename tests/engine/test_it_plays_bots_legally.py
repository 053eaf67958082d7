"""Bots only ever choose legal actions, at every strength, through whole seeded games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engine.bots import BOT_STRENGTHS, choose_action
from games.engine.errors import InvalidInput
from games.engine.projection import view_for
from games.engine.rules import RULES
from games.engine.scoring import MatchFormat
from games.engine.state import Draw, GameConfig, GameState, Pass, PlayTurn, apply, new_game
from games.engine.turn import check_turn

from .helpers import assert_conserved

SEED = bytes(range(32))


def start(seed: int, players: int = 2, rules: str = "classic") -> tuple[GameState, bytes]:
    secret = seed.to_bytes(4, "big") + SEED
    state, _ = new_game(GameConfig(RULES[rules], players, MatchFormat("single")), secret)
    return state, secret


def play_out(state: GameState, secret: bytes, strengths: list[str], rng: random.Random) -> int:
    """Play to the end; every action must be accepted by ``apply``. Returns the plays made."""
    plays = 0
    for _ in range(500):
        if state.finished:
            break
        seat = state.turn
        action = choose_action(view_for(state, seat), rng, strengths[seat])
        assert action.seat == seat
        if isinstance(action, PlayTurn):
            rack, opened = state.racks[seat], state.opened[seat]
            check_turn(state.rules, state.kinds, state.table, rack, action.table, opened)
            plays += 1
        elif isinstance(action, Pass):
            assert not state.pool
        else:
            assert isinstance(action, Draw)
        state, _ = apply(state, action, secret)
        if not state.finished:
            assert_conserved(state)
    assert state.finished
    return plays


@pytest.mark.heavy_solver
@pytest.mark.parametrize("strength", BOT_STRENGTHS)
def test_each_strength_plays_whole_games_legally(strength: str) -> None:
    for seed in range(2):
        state, secret = start(seed)
        plays = play_out(state, secret, [strength, strength], random.Random(seed))
        assert plays > 0


def test_mixed_tables_of_three_and_rush_games_are_legal() -> None:
    state, secret = start(5, players=3)
    play_out(state, secret, ["beginner", "master", "casual"], random.Random(5))
    state, secret = start(6, rules="rush")
    play_out(state, secret, ["strong", "casual"], random.Random(6))


def test_a_bot_goes_out_when_it_can() -> None:
    state, _ = start(1)
    kinds = state.kinds
    seat = state.turn
    by_code: dict[str, list[int]] = {}
    for i in state.pool + state.racks[1 - seat]:
        by_code.setdefault(str(kinds[i]), []).append(i)
    rack = tuple(by_code[code].pop() for code in "R10 R11 R12 K13 B13 Y13".split())
    racks = list(state.racks)
    racks[seat] = rack
    opened = tuple(s == seat for s in range(2))
    state = replace(state, racks=tuple(racks), opened=opened, pool=(), table=())
    for strength in BOT_STRENGTHS:
        action = choose_action(view_for(state, seat), random.Random(0), strength)
        if strength == "beginner":
            continue  # may overlook a meld
        assert isinstance(action, PlayTurn)
        assert {i for meld in action.table for i in meld} == set(rack)


def test_a_bot_with_nothing_to_play_draws_or_passes() -> None:
    state, _ = start(2)
    seat = state.turn
    kinds = state.kinds
    lonely = [i for i in state.racks[seat] if not kinds[i].is_joker][:1]
    racks = list(state.racks)
    racks[seat] = tuple(lonely)
    state = replace(state, racks=tuple(racks))
    for strength in BOT_STRENGTHS:
        assert choose_action(view_for(state, seat), random.Random(0), strength) == Draw(seat)
    state = replace(state, pool=())
    for strength in BOT_STRENGTHS:
        assert choose_action(view_for(state, seat), random.Random(0), strength) == Pass(seat)


def test_unknown_strengths_and_spectator_views_are_refused() -> None:
    state, _ = start(3)
    with pytest.raises(InvalidInput):
        choose_action(view_for(state, state.turn), random.Random(0), "grandmaster")
    with pytest.raises(InvalidInput):
        choose_action(view_for(state, None), random.Random(0), "strong")
