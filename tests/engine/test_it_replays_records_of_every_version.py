"""docs/design.md "Event versions": a record exported once replays unchanged forever."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from games.engine import events as events_module
from games.engine.audit import audit_record
from games.engine.errors import InvalidInput
from games.engine.events import EVENT_VERSION, GameEnded, TileDrawn, event_from_dict
from games.engine.r45 import audit as r45_audit
from games.engine.r45 import events as r45_events
from games.engine.rules import rules_named
from games.engine.state import GameConfig, Resign, apply, new_game, replay

EXPORTED = sorted((Path(__file__).parent.parent / "fixtures" / "records").glob("*.json"))


def _family(path: Path) -> str:
    """A record names its game family by its first event (docs/design.md "Event versions")."""
    first = json.loads(path.read_text())["events"][0]
    return "r45" if first["kind"] == "R45Started" else "rummikub"


RECORDS = [p for p in EXPORTED if _family(p) == "rummikub"]
R45_RECORDS = [p for p in EXPORTED if _family(p) == "r45"]


def test_there_are_records_to_replay() -> None:
    assert len(RECORDS) >= 4
    assert len(R45_RECORDS) >= 3


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_an_exported_record_replays_to_its_totals_and_seed_check(path: Path) -> None:
    record = json.loads(path.read_text())
    expected = record["expected"]

    state, check = audit_record(record)

    assert list(state.totals) == expected["totals"]
    assert list(state.winners) == expected["winners"]
    assert state.round == expected["rounds"]
    assert len(record["events"]) == expected["events"]
    assert check == expected["check"]
    assert check["commitment_matches"] and check["deals_match"]


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_an_old_record_reads_as_the_current_version_and_writes_back_the_same(path: Path) -> None:
    payloads = json.loads(path.read_text())["events"]

    rewritten = [event_from_dict(p).to_dict() for p in payloads]

    assert all(p["v"] == EVENT_VERSION for p in rewritten)
    assert replay(rewritten) == replay(payloads)
    for old, new in zip(payloads, rewritten, strict=True):
        fresh = {k: v for k, v in new.items() if k not in old}
        assert set(fresh) <= {"v", "note"}, fresh


@pytest.mark.parametrize("path", R45_RECORDS, ids=lambda p: p.stem)
def test_an_exported_r45_record_replays_to_its_end_and_seed_check(path: Path) -> None:
    record = json.loads(path.read_text())
    expected = record["expected"]

    state, check = r45_audit.audit_record(record)

    assert (state.reason, state.winner, list(state.scores)) == (
        expected["reason"],
        expected["winner"],
        expected["scores"],
    )
    assert state.renewals == expected["renewals"]
    assert len(record["events"]) == expected["events"]
    assert check == expected["check"]
    assert check["commitment_matches"] and check["deals_match"]


@pytest.mark.parametrize("path", R45_RECORDS, ids=lambda p: p.stem)
def test_an_old_r45_record_reads_as_the_current_version_and_writes_back_the_same(
    path: Path,
) -> None:
    payloads = json.loads(path.read_text())["events"]

    rewritten = [r45_events.event_from_dict(p).to_dict() for p in payloads]

    assert all(p["v"] == r45_events.EVENT_VERSION for p in rewritten)
    assert [{k: v for k, v in p.items() if k != "v"} for p in rewritten] == [
        {k: v for k, v in p.items() if k != "v"} for p in payloads
    ]


def test_the_r45_records_include_a_renewed_stock_and_four_players() -> None:
    records = [json.loads(p.read_text()) for p in R45_RECORDS]
    assert any(r["expected"]["renewals"] > 0 for r in records)
    assert {r["events"][0]["players"] for r in records} >= {2, 4}


def test_the_r45_records_include_a_resignation_of_version_3() -> None:
    records = [json.loads(p.read_text()) for p in R45_RECORDS]
    resigned = [
        e for r in records for e in r["events"] if e["kind"] == "PlayerResigned" and e["v"] == 3
    ]
    assert resigned


def test_a_field_added_later_takes_its_default_on_old_events() -> None:
    old = {"kind": "GameEnded", "winners": [0], "totals": [5, -5], "seed": "ab"}

    assert event_from_dict(old) == GameEnded((0,), (5, -5), "ab", note="")
    assert event_from_dict({**old, "v": 2, "note": "stuck"}).note == "stuck"


def test_a_new_field_with_a_default_replays_old_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Add a field to one event type the way a next version would, and replay an old log."""

    @dataclass(frozen=True, slots=True)
    class TileDrawnV3(events_module.Event):
        kind: ClassVar[str] = "TileDrawn"
        seat: int
        turn: int
        tile: int
        from_pool: str = "top"

    def from_version_2(data: dict[str, Any]) -> dict[str, Any]:
        return data

    monkeypatch.setattr(events_module, "EVENT_VERSION", 3)
    monkeypatch.setitem(events_module.UPGRADES, 2, from_version_2)
    monkeypatch.setitem(events_module.EVENT_TYPES, "TileDrawn", TileDrawnV3)
    monkeypatch.setitem(
        events_module._FIELDS,
        TileDrawnV3,
        (("seat", False), ("turn", False), ("tile", False), ("from_pool", True)),
    )
    payloads = json.loads(RECORDS[0].read_text())["events"]

    drawn = [event_from_dict(p) for p in payloads if p["kind"] == "TileDrawn"]

    assert drawn and all(isinstance(e, TileDrawnV3) and e.from_pool == "top" for e in drawn)
    assert all(event_from_dict(p).to_dict()["v"] == 3 for p in payloads)


def test_a_missing_field_without_a_default_is_still_refused() -> None:
    with pytest.raises(InvalidInput, match="lacks tile"):
        event_from_dict({"kind": "TileDrawn", "seat": 0, "turn": 1})


@pytest.mark.parametrize("version", [EVENT_VERSION + 1, 0, -1, "2", True, 1.5])
def test_an_unknown_version_is_refused(version: object) -> None:
    with pytest.raises(InvalidInput, match="version"):
        event_from_dict({"kind": "TileDrawn", "seat": 0, "turn": 1, "tile": 4, "v": version})


def test_events_are_written_with_the_current_version() -> None:
    state, log = new_game(GameConfig(rules_named("classic"), 2), bytes(16))
    state, more = apply(state, Resign(0), bytes(16))

    assert all(e.to_dict()["v"] == EVENT_VERSION for e in log + more)
    assert TileDrawn(0, 1, 5).to_dict() == {
        "seat": 0,
        "turn": 1,
        "tile": 5,
        "kind": "TileDrawn",
        "v": EVENT_VERSION,
    }
