"""``python -m games.engine``: the command-line contract of docs/design.md."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from games.engine.cli import main
from games.engine.errors import IllegalMove, InvalidInput
from games.engine.r45.family import R45
from games.engine.rules import RULES
from games.engine.scoring import MatchFormat
from games.engine.state import Draw, GameConfig, apply, new_game


def run(args: list[str], stdin: str = "") -> tuple[int, Any]:
    out = io.StringIO()
    saved = sys.stdout
    sys.stdout = out
    try:
        code = main(args, io.StringIO(stdin))
    finally:
        sys.stdout = saved
    return code, json.loads(out.getvalue())


def test_meld_reports_kind_and_value() -> None:
    assert run(["meld", "R7", "K7", "Y7"]) == (0, {"valid": True, "kind": "group", "value": 21})
    code, result = run(["meld", "R7", "R7", "K7"])
    assert code == 0 and result["valid"] is False and "colour" in result["reason"]


def test_check_turn_reports_legality() -> None:
    position = {
        "rules": "classic",
        "table_before": [["R4", "R5", "R6", "J"]],
        "rack": ["K9", "Y9", "R7"],
        "table_after": [["R4", "R5", "R6", "R7"], ["J", "K9", "Y9"]],
        "initial_meld_done": True,
    }
    code, result = run(["check-turn"], json.dumps(position))
    assert code == 0 and result == {"legal": True, "played": ["R7", "K9", "Y9"]}
    position["table_after"] = [["R4", "R5", "R6"], ["J", "K9", "Y9"]]
    code, result = run(["check-turn"], json.dumps(position))
    assert code == 0 and result["legal"] is False and result["error"] == "joker_not_replaced"
    assert result["message"]


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        ([], ""),
        (["frobnicate"], ""),
        (["meld", "R7", "X9"], ""),
        (["check-turn"], "{not json"),
        (["check-turn"], "[]"),
        (["check-turn"], '{"rack": "R7", "table_after": []}'),
        (["check-turn"], '{"rules": "chess", "rack": [], "table_after": []}'),
        (["check-turn"], '{"rack": ["R7", "R7", "R7"], "table_after": [["R7"]]}'),
        (["check-turn"], '{"rack": [["R7"]], "table_after": []}'),
        (["replay"], "{}"),
        (["replay"], '[{"kind": "Nope"}]'),
        (["replay"], '{"events": [{"kind": "GameStarted"}]}'),
        (["check-turn"], "[" * 100000),
    ],
)
def test_bad_input_exits_2_with_a_json_error(args: list[str], stdin: str) -> None:
    code, result = run(args, stdin)
    assert code == 2 and set(result) == {"error"} and result["error"]


def played_record() -> list[dict[str, Any]]:
    seed = bytes(range(32))
    state, log = new_game(GameConfig(RULES["rush"], 2, MatchFormat("rounds", rounds=2)), seed)
    while not state.finished:
        state, events = apply(state, Draw(state.turn), seed)
        log += events
    return [e.to_dict() for e in log]


def test_replay_checks_the_seed_and_the_deal() -> None:
    record = played_record()
    code, result = run(["replay"], json.dumps(record))
    assert code == 0
    check = result["seed_check"]
    assert check["checked"] and check["commitment_matches"] and check["deals_match"]
    assert result["state"]["finished"] is True
    tampered = json.loads(json.dumps(record))
    pool = tampered[1]["pool"]
    pool[0], pool[1] = pool[1], pool[0]
    assert run(["replay"], json.dumps(tampered))[1]["seed_check"]["deals_match"] is False
    wrong_seed = {"events": record, "seed": "00" * 32}
    assert run(["replay"], json.dumps(wrong_seed))[1]["seed_check"]["commitment_matches"] is False
    unfinished = {"events": record[:5]}
    assert run(["replay"], json.dumps(unfinished))[1]["seed_check"]["checked"] is False
    assert run(["replay"], json.dumps({"events": record, "seed": "zz"}))[0] == 2


def test_the_module_runs_as_a_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "meld", "R10", "R11", "J"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["value"] == 33
    bad = subprocess.run(
        [sys.executable, "-m", "games.engine", "check-turn"],
        input="nope",
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr + bad.stdout


def test_solve_answers_one_position_or_a_list() -> None:
    position = {
        "rules": "classic",
        "table": [["R4", "R5", "R6"]],
        "rack": ["R7", "K7", "B7", "Y7", "K1"],
        "initial_meld_done": True,
    }
    code, best = run(["solve"], json.dumps(position))
    assert code == 0
    assert (best["tiles_played"], best["value_played"]) == (4, 28)
    assert sorted(best["played"]) == ["B7", "K7", "R7", "Y7"]
    assert sorted(map(sorted, best["melds"])) == [["B7", "K7", "Y7"], ["R4", "R5", "R6", "R7"]]
    opening = {
        "rules": "rush",
        "table": [],
        "rack": ["R6", "R7", "R8", "K1"],
        "initial_meld_done": False,
    }
    code, both = run(["solve"], json.dumps([position, opening]))
    assert code == 0 and [b["tiles_played"] for b in both] == [4, 3]


def test_solve_arranges_a_flat_table_first() -> None:
    position = {"table": ["R4", "R5", "R6", "J"], "rack": ["K9", "Y9", "R7"]}
    code, best = run(["solve"], json.dumps(position))
    assert code == 0 and best["tiles_played"] == 3
    assert sum(len(m) for m in best["melds"]) == 7


@pytest.mark.parametrize(
    "position",
    [
        {"table": ["R4", "K5", "B6"], "rack": ["R1"]},
        {"table": [["R4", "K5", "B6"]], "rack": ["R1"]},
        {"table": [], "rack": ["R1", "R1", "R1"]},
        {"table": [], "rack": "R1"},
        {"rules": "rush", "table": [], "rack": ["R10"]},
    ],
)
def test_solve_refuses_impossible_positions(position: dict[str, Any]) -> None:
    code, result = run(["solve"], json.dumps(position))
    assert code == 2 and result["error"]


def r45_record(seed: bytes = bytes(range(32))) -> list[dict[str, Any]]:
    """A whole Rummy 45 game of hard bots (or their fallback), as its events."""
    setup = R45.setup("r45", {"players": 2})
    state, events = R45.new_game(setup, seed)
    log = [e.to_dict() for e in events]
    rng = random.Random(7)
    while not R45.turn(state).finished and len(log) < 5000:
        seat = R45.turn(state).to_act[0]
        try:
            action = R45.bot_action(R45.view_for(state, seat), rng, "hard")
            state, more = R45.apply(state, action, seed)
        except (IllegalMove, InvalidInput):
            state, more = R45.apply(state, R45.fallback_action(state, seat), seed)
        log += [e.to_dict() for e in more]
    return log


def test_replay_reads_a_rummy45_record_by_its_mode_or_its_first_event() -> None:
    seed = bytes(range(32))
    log = r45_record(seed)
    code, by_mode = run(["replay"], json.dumps({"mode": "r45", "events": log, "seed": seed.hex()}))
    assert code == 0 and by_mode["family"] == "r45"
    assert by_mode["seed_check"]["commitment_matches"] and by_mode["seed_check"]["deals_match"]
    code, bare = run(["replay"], json.dumps(log))
    assert code == 0 and bare["family"] == "r45" and bare["state"] == by_mode["state"]
    assert run(["replay"], json.dumps({"mode": "chess", "events": log}))[0] == 2
