"""The house rule that ends every game (docs/rules-45.md "Later turns"): once the stock has been
renewed ``RENEWAL_LIMIT`` times, the next time it runs out the game ends with no winner and no
50s, recorded as ``GameEnded`` with reason ``renewal_limit`` (event version 2, docs/design.md
"Event versions")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.errors import IllegalMove
from games.engine.r45.events import (
    EVENT_VERSION,
    GameEnded,
    StockRenewed,
    TileDrawn,
    event_from_dict,
)
from games.engine.r45.state import RENEWAL_LIMIT, Draw, apply
from games.engine.r45.views import view_for

from .positions import SEED, play, position


def run_out(renewals: int):  # type: ignore[no-untyped-def]
    """Seat 0 to draw from an empty stock, with a train of two discards, after ``renewals``."""
    state = position(
        ["B4 K4", "B1 B2 B3"],
        train="K9 R5 Y7",
        stock="",
        taken=False,
        melds=[(0, "R10 R11 R12")],
        trump_shown=0,
    )
    return replace(state, renewals=renewals)


def test_below_the_limit_the_train_renews_the_stock() -> None:
    state = run_out(RENEWAL_LIMIT - 1)

    after, events = play(state, Draw(0))

    assert [type(e) for e in events] == [StockRenewed, TileDrawn]
    assert after.renewals == RENEWAL_LIMIT and not after.finished


def test_at_the_limit_the_next_run_out_ends_the_game_without_winner_or_50s() -> None:
    state = run_out(RENEWAL_LIMIT)

    after, events = play(state, Draw(0))

    assert len(events) == 1
    end = events[0]
    assert isinstance(end, GameEnded) and end.reason == "renewal_limit" and end.winner == -1
    # Seat 0: 30 displayed - 10 left, and no trump's 50; seat 1 never displayed.
    assert end.scores == (30 - 10, -100)
    assert after.finished and after.reason == "renewal_limit" and after.seed == SEED.hex()
    assert after.train == state.train and after.stock == ()
    with pytest.raises(IllegalMove):
        apply(after, Draw(1), SEED)
    assert view_for(after, 1)["reason"] == "renewal_limit"


def test_the_limit_is_in_every_view() -> None:
    assert view_for(run_out(0), 0)["renewal_limit"] == RENEWAL_LIMIT


def test_the_new_reason_is_written_with_the_new_version_and_replays() -> None:
    state = run_out(RENEWAL_LIMIT)
    _, events = play(state, Draw(0))
    written = events[0].to_dict()

    assert EVENT_VERSION >= 2 and written["v"] == EVENT_VERSION
    assert event_from_dict(written) == events[0]


def test_a_version_1_game_end_still_reads_and_replays() -> None:
    v1 = {
        "kind": "GameEnded",
        "v": 1,
        "reason": "exhausted",
        "winner": -1,
        "scores": [20, -100],
        "racks": [[1], [2]],
        "seed": "ab",
    }
    read = event_from_dict(v1)

    assert isinstance(read, GameEnded) and read.reason == "exhausted"
    assert read.to_dict() == {**v1, "v": EVENT_VERSION}
