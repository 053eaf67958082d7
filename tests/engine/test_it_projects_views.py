"""A rack reaches only its owner while the round runs; spectators see counts."""

from __future__ import annotations

import json

from games.engine.events import RoundStarted, TileDrawn, TurnTimedOut
from games.engine.projection import event_for, state_to_dict, view_for
from games.engine.rules import RULES
from games.engine.state import Draw, GameConfig, TimeOut, apply, new_game

SEED = bytes(range(32))


def test_a_seat_sees_its_rack_and_only_counts_of_others() -> None:
    state, _ = new_game(GameConfig(RULES["classic"], 3), SEED)
    view = view_for(state, 1)
    assert view["rack"] == list(state.racks[1])
    assert view["rack_counts"] == [14, 14, 14] and view["pool"] == len(state.pool)
    text = json.dumps(view)
    for seat in (0, 2):
        assert str(list(state.racks[seat])) not in text
    assert "pool_order" not in view and view["seed"] is None


def test_a_spectator_sees_no_rack() -> None:
    state, _ = new_game(GameConfig(RULES["classic"], 2), SEED)
    view = view_for(state, None)
    assert view["seat"] is None and view["rack"] == [] and view["rack_codes"] == []
    assert view_for(state, 7)["rack"] == []


def test_events_are_projected_per_viewer() -> None:
    state, events = new_game(GameConfig(RULES["classic"], 2), SEED)
    dealt = events[1]
    assert isinstance(dealt, RoundStarted)
    for seat in (0, 1, None):
        seen = event_for(dealt, seat)
        assert seen["pool"] == len(dealt.pool)
        assert seen["racks"] == [list(r) if s == seat else [] for s, r in enumerate(dealt.racks)]
    mover = state.turn
    state, (drawn,) = apply(state, Draw(mover), SEED)
    assert isinstance(drawn, TileDrawn)
    assert event_for(drawn, mover)["tile"] == drawn.tile
    assert event_for(drawn, 1 - mover)["tile"] is None
    assert event_for(drawn, None)["tile"] is None
    mover = state.turn
    state, (timed_out,) = apply(state, TimeOut(mover, state.turn_number), SEED)
    assert isinstance(timed_out, TurnTimedOut)
    assert event_for(timed_out, mover)["drawn"] == list(timed_out.drawn)
    assert event_for(timed_out, 1 - mover)["drawn"] == [None, None, None]


def test_the_full_record_state_holds_everything() -> None:
    state, _ = new_game(GameConfig(RULES["rush"], 2), SEED)
    full = state_to_dict(state)
    assert full["racks"] == [list(r) for r in state.racks]
    assert full["pool_order"] == list(state.pool)
    assert len(full["rack_codes"][0]) == 14
