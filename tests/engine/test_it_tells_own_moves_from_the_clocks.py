"""Every family tells a seat's own real moves from what its clock did for it
(``own_moves``, docs/fair-play.md "Stand-ins, absence and aborts"): a game of timeouts only has
no own move, and a seat's own draw or play is its own."""

from __future__ import annotations

import random

import pytest

from games.engine import families
from games.engine.errors import IllegalMove, InvalidInput

TIMEOUTS = 40


def _modes() -> list[tuple[str, str, int]]:
    return [
        (family.name, name, min(mode.players))
        for family in families.families()
        for name, mode in family.modes.items()
    ]


@pytest.mark.parametrize(("name", "mode", "players"), _modes())
def test_the_clocks_moves_are_nobodys_own(name: str, mode: str, players: int) -> None:
    family = families.family_named(name)
    secret = bytes([7]) * 32
    state, events = family.new_game(family.setup(mode, {"players": players}), secret)
    log = [family.event_to_dict(e) for e in events]
    for _ in range(TIMEOUTS):
        if family.turn(state).finished:
            break
        state, more = family.time_out(state, secret)
        log += [family.event_to_dict(e) for e in more]
    assert len(log) > len(events), "the clock played"
    assert family.own_moves(log) == [None] * len(log)


@pytest.mark.parametrize(("name", "mode", "players"), _modes())
def test_a_seats_own_draw_or_play_is_its_own(name: str, mode: str, players: int) -> None:
    """A seat plays a bot's choice until one of its actions is its own, within a few turns:
    the family finds it, for that seat."""
    family = families.family_named(name)
    secret = bytes([3]) * 32
    state, events = family.new_game(family.setup(mode, {"players": players}), secret)
    log = [family.event_to_dict(e) for e in events]
    rng = random.Random(3)
    for _ in range(400):
        turn = family.turn(state)
        assert not turn.finished
        seat = turn.to_act[0]
        view = family.view_for(state, seat)
        try:
            action = family.bot_action(view, rng, family.engine_strength("beginner"))
            state, more = family.apply(state, action, secret)
        except (IllegalMove, InvalidInput):
            state, more = family.apply(state, family.fallback_action(state, seat), secret)
        new = [family.event_to_dict(e) for e in more]
        found = family.own_moves(log + new)[len(log) :]
        log += new
        if any(s is not None for s in found):
            assert {s for s in found if s is not None} == {seat}
            return
    raise AssertionError("no seat made a move of its own")
