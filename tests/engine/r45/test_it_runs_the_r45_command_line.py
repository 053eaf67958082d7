"""``python -m games.engine r45-display`` and ``r45-hand``: the contract of docs/design.md
("Engine command line"), run as the hidden tests run it, in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest


def engine(command: str, stdin: str) -> tuple[int, Any, str]:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", command],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.returncode, json.loads(done.stdout), done.stderr


@pytest.mark.parametrize(
    ("melds", "first", "answer"),
    [
        ([["R9", "R10", "R11", "R12", "R13"]], True, {"valid": True, "points": 45}),
        ([["R12", "R13", "R1"], ["K1", "K2", "K3"]], True, {"valid": True, "points": 45}),
        ([["R1", "R2", "R3"]], False, {"valid": True, "points": 15}),
        ([["R1", "R2", "R3"]], True, None),  # 15 < 45
        ([["K1", "R1", "B1"], ["K12", "R12", "B12"]], True, None),  # 60, but 2 sets
        ([["K1", "R1", "B1"], ["K12", "R12", "B12"]], False, {"valid": True, "points": 60}),
        (
            [
                [
                    "R1",
                    "R2",
                    "R3",
                    "R4",
                    "R5",
                    "R6",
                    "R7",
                    "R8",
                    "R9",
                    "R10",
                    "R11",
                    "R12",
                    "R13",
                    "R1",
                ]
            ],
            True,
            {"valid": True, "points": 95},
        ),
        ([["R13", "R1", "R2"]], False, None),
        ([["J", "K5", "B5"], ["R5", "R6", "R7", "J"]], True, None),  # 35
        (
            [["J", "K10", "B10"], ["R9", "R10", "R11", "J"], ["Y2", "Y3", "Y4"]],
            True,
            {"valid": True, "points": 80},
        ),
    ],
)
def test_r45_display_says_whether_melds_are_a_legal_display(
    melds: list[list[str]], first: bool, answer: dict[str, Any] | None
) -> None:
    code, result, stderr = engine("r45-display", json.dumps({"melds": melds, "first": first}))
    assert code == 0 and stderr == ""
    if answer is None:
        assert result["valid"] is False and result["reason"] and set(result) == {"valid", "reason"}
    else:
        assert result == answer


@pytest.mark.parametrize(
    ("hand", "combination", "points"),
    [
        ("R1 R1 K2 K2 B5 B5 Y9 Y9 R13 R13 K7 K7 B11 B11", "doubles", 800),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "monocolor", 650),
        ("R10 K10 B10 R11 R12 R13 R1 Y11 Y12 Y13 K11 K12 K13 J", "majors", 500),
        ("R1 R2 R3 R4 R5 R6 R7 K8 K9 K10 K11 K12 K13 K1", "bicolor", 400),
        ("R1 K2 B3 Y4 R5 K6 B7 Y8 B9 K10 R11 Y12 B13 K1", "mozaic", 300),
        ("R1 R2 R3 K4 K5 K6 B7 B8 B9 Y2 Y3 Y4 Y5 J", "minors", 200),
        ("R4 R5 R6 R7 K5 K6 K7 B8 B9 B10 B11 Y13 K13 R13", "normal", 100),
        ("J R5 R6 R7 K5 K6 K7 B8 B9 B10 B11 Y13 K13 R13", "normal", 75),
        ("R1 R5 R9 K2 K6 K10 B3 B7 B11 Y4 Y8 Y12 J J", None, 0),
    ],
)
def test_r45_hand_names_the_best_combination(
    hand: str, combination: str | None, points: int
) -> None:
    code, result, _ = engine("r45-hand", json.dumps({"hand": hand.split()}))
    assert code == 0 and result == {"combination": combination, "points": points}


@pytest.mark.parametrize(
    ("command", "stdin"),
    [
        ("r45-display", "{not json"),
        ("r45-display", "[]"),
        ("r45-display", '{"melds": "R1 R2 R3"}'),
        ("r45-display", '{"melds": [["R1", "X2", "R3"]]}'),
        ("r45-display", '{"melds": [["R1", 2, "R3"]]}'),
        ("r45-display", '{"melds": [["R7", "R7"], ["R7", "K7", "B7"]]}'),  # three R7s
        ("r45-display", '{"melds": [["R1", "R2", "R3"]], "first": "yes"}'),
        ("r45-hand", '{"hand": ["R1", "R2"]}'),
        (
            "r45-hand",
            json.dumps({"hand": "J J J R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11".split()}),
        ),
        ("r45-hand", '{"cards": []}'),
        ("r45-hand", ""),
    ],
)
def test_bad_input_exits_2_with_one_json_error(command: str, stdin: str) -> None:
    code, result, stderr = engine(command, stdin)
    assert code == 2 and set(result) == {"error"} and result["error"]
    assert "Traceback" not in stderr
