"""A Rummy 45 record checks against its seed: the deal and every renewed stock
(docs/rules-45.md "Secrecy")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.errors import InvalidInput
from games.engine.r45.audit import audit_record
from games.engine.r45.events import Dealt, R45Started, StockRenewed
from games.engine.r45.state import Discard, Draw, Ready, apply, new_game

from .positions import SEED
from .test_it_keeps_the_r45_log_true import play_out


def test_a_finished_game_checks_against_its_revealed_seed() -> None:
    events = play_out(11, 2, ["hard", "easy", "easy", "easy"], budget=3000)
    state, check = audit_record([e.to_dict() for e in events])
    assert state.finished and check["checked"] and check["commitment_matches"]
    assert check["deals_match"]
    dealt = next(i for i, e in enumerate(events) if isinstance(e, Dealt))
    forged = list(events)
    forged[dealt] = replace(events[dealt], dealer=1 - events[dealt].dealer)  # type: ignore[call-arg]
    assert not audit_record([e.to_dict() for e in forged])[1]["deals_match"]
    unrevealed = [e.to_dict() for e in events[:5]]
    assert audit_record(unrevealed)[1] == {
        "commitment": state.commitment,
        "seed": None,
        "checked": False,
    }
    wrong = audit_record({"events": unrevealed, "seed": "00" * 32})[1]
    assert wrong["checked"] and not wrong["commitment_matches"] and not wrong["deals_match"]


def test_a_renewed_stock_checks_against_the_seed() -> None:
    state, events = new_game(2, SEED)
    for seat in (0, 1):
        state, new = apply(state, Ready(seat), SEED)
        events += new
    while not any(isinstance(e, StockRenewed) for e in events):
        if not state.taken:
            state, new = apply(state, Draw(state.turn), SEED)
            events += new
        state, new = apply(state, Discard(state.turn, state.racks[state.turn][0]), SEED)
        events += new
    assert audit_record({"events": [e.to_dict() for e in events], "seed": SEED.hex()})[1][
        "deals_match"
    ]
    at = next(i for i, e in enumerate(events) if isinstance(e, StockRenewed))
    forged = list(events)
    forged[at] = StockRenewed(tuple(reversed(events[at].stock)))  # type: ignore[attr-defined]
    check = audit_record({"events": [e.to_dict() for e in forged], "seed": SEED.hex()})[1]
    assert check["commitment_matches"] and not check["deals_match"]


@pytest.mark.parametrize("record", [[], {"events": []}, {"events": [{}], "seed": 5}, "x"])
def test_a_malformed_record_is_refused(record: object) -> None:
    with pytest.raises(InvalidInput):
        audit_record(record)
    with pytest.raises(InvalidInput):
        audit_record({"events": [R45Started(2, "00").to_dict()], "seed": "zz"})
