"""Same seed, same puzzles: in another process (another hash seed), with more processes, and
the shipped fixture comes back from the seed it records."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.core.management import call_command

from puzzles.generator import generate, ramp_stream, table_puzzles

from .conftest import SHIPPED

ROOT = Path(__file__).resolve().parents[2]
SMALL = 10


def test_the_command_writes_the_same_file_in_another_process(tmp_path: Path) -> None:
    here, there = tmp_path / "here.json", tmp_path / "there.json"
    call_command("generatepuzzles", seed=5, count=SMALL, out=str(here))
    env = {**os.environ, "PYTHONHASHSEED": "12345", "DJANGO_SETTINGS_MODULE": "rummi_site.settings"}
    command = ["manage.py", "generatepuzzles", "--seed", "5", "--count", str(SMALL), "--out"]
    subprocess.run([sys.executable, *command, str(there)], cwd=ROOT, env=env, check=True)
    assert here.read_bytes() == there.read_bytes()
    written = json.loads(here.read_text())
    assert written["seed"] == 5 and len(written["puzzles"]) == SMALL
    assert sorted(p["level"] for p in written["puzzles"]) == list(range(1, 11))


def test_a_smaller_count_gives_the_first_puzzles_of_each_level() -> None:
    few = generate(5, SMALL)
    ramp = [p for p in few if p.level <= 4]
    for puzzle in ramp:
        assert next(ramp_stream(5, puzzle.level)) == puzzle


def test_the_shipped_ramp_comes_back_from_its_seed() -> None:
    seed = SHIPPED["seed"]
    for level in (1, 2, 3, 4):
        shipped = [p for p in SHIPPED["puzzles"] if p["level"] == level]
        stream = ramp_stream(seed, level)
        assert [next(stream).to_json() for _ in shipped] == shipped


def test_shipped_mixed_puzzles_come_back_from_their_tables() -> None:
    seed = SHIPPED["seed"]
    for level in range(5, 11):
        shipped = next(p for p in SHIPPED["puzzles"] if p["level"] == level)
        index = int(shipped["origin"].removeprefix("mixed-"))
        again = [p.to_json() for p in table_puzzles(seed, index)]
        assert {**shipped, "slug": ""} in [{**p, "slug": ""} for p in again]
