"""A Rummy 45 bot's choice comes only from its seat's view (docs/rules-45.md "Bots",
"Secrecy"): dealing every tile it cannot see (the other boards, the stock's order) differently
never changes what it does, at any strength, before play or in play."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

import pytest

from games.engine.r45.bots import BOT_STRENGTHS, choose_action
from games.engine.r45.state import R45State, apply, new_game, to_act
from games.engine.r45.views import view_for


def played(seed: int, players: int, steps: int) -> tuple[R45State, bytes]:
    """A game ``steps`` actions in, played by hard bots."""
    secret = seed.to_bytes(8, "big") * 4
    state, _ = new_game(players, secret)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.finished:
            break
        seat = to_act(state)[0]
        state, _ = apply(state, choose_action(view_for(state, seat), rng, "hard"), secret)
    return state, secret


def hidden_dealt_again(state: R45State, seat: int, rng: random.Random) -> R45State:
    """The same position for ``seat``; every tile it cannot see dealt out differently."""
    others = [s for s in range(state.players) if s != seat]
    hidden = list(state.stock) + [t for s in others for t in state.racks[s]]
    rng.shuffle(hidden)
    racks = list(state.racks)
    for s in others:
        size = len(state.racks[s])
        racks[s], hidden = tuple(sorted(hidden[:size])), hidden[size:]
    return replace(state, racks=tuple(racks), stock=tuple(hidden))


POSITIONS = [
    (seed, players, steps) for seed in (1, 2, 3) for players in (2, 4) for steps in (0, 9, 30, 60)
]


@pytest.mark.parametrize("strength", BOT_STRENGTHS)
def test_hidden_tiles_do_not_change_the_choice(strength: str) -> None:
    compared = 0
    for seed, players, steps in POSITIONS:
        state, _ = played(seed, players, steps)
        if state.finished or state.offer is not None:
            continue
        seat = to_act(state)[0]
        other = hidden_dealt_again(state, seat, random.Random(seed))
        assert other.stock != state.stock or other.racks != state.racks
        view, other_view = view_for(state, seat), view_for(other, seat)
        assert view == other_view
        first = choose_action(view, random.Random(7), strength)
        assert choose_action(other_view, random.Random(7), strength) == first
        compared += 1
    assert compared >= 12


@pytest.mark.parametrize("strength", BOT_STRENGTHS)
def test_the_same_view_and_seed_give_the_same_action_and_leave_the_view_alone(
    strength: str,
) -> None:
    state, _ = played(5, 3, 30)
    view = view_for(state, to_act(state)[0])
    kept = copy.deepcopy(view)

    actions = {choose_action(view, random.Random(11), strength) for _ in range(3)}

    assert len(actions) == 1
    assert view == kept


def test_a_bot_given_a_view_with_hidden_tiles_blanked_still_chooses() -> None:
    """The view holds no other board at all: a bot cannot read one even by accident."""
    state, _ = played(6, 2, 20)
    seat = to_act(state)[0]
    view = view_for(state, seat)
    assert view["racks"] is None and isinstance(view["stock"], int)
    for strength in BOT_STRENGTHS:
        choose_action(view, random.Random(1), strength)
