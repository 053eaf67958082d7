"""Exported Rummy 45 games replay unchanged forever (docs/design.md "Event versions"): each
record under tests/fixtures/records-r45/ replays to the end it recorded and checks its seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.r45.audit import audit_record
from games.engine.r45.events import EVENT_VERSION, event_from_dict

RECORDS = sorted((Path(__file__).parent.parent.parent / "fixtures" / "records-r45").glob("*.json"))


def test_there_are_records_to_replay() -> None:
    assert len(RECORDS) >= 2


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_record_replays_to_its_recorded_end(path: Path) -> None:
    record = json.loads(path.read_text())
    state, check = audit_record(record["events"])
    expected = record["expected"]
    assert (state.reason, state.winner, list(state.scores)) == (
        expected["reason"],
        expected["winner"],
        expected["scores"],
    )
    assert check["checked"] and check["commitment_matches"] and check["deals_match"]
    rewritten = [event_from_dict(e).to_dict() for e in record["events"]]
    assert rewritten == [{**e, "v": EVENT_VERSION} for e in record["events"]]
