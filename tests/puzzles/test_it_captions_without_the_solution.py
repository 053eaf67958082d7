"""A puzzle's caption names its technique without showing its own solution (issue 28): the
daily once read "A group of four can spare a tile: K9 B9 R9 Y9 lends K9 to K7 K8" over the
table K9 B9 R9 Y9 and the rack Y7 Y8. No generated puzzle's page, trainer or daily, heads it
with tile codes; the technique is named in words."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from puzzles import daily as dailies
from puzzles.models import DailyPuzzle, Puzzle

pytestmark = pytest.mark.django_db

TILE_CODE = re.compile(r"\b[KBRY](?:1[0-3]|[1-9])\b")


def heading(html: str) -> tuple[str, str]:
    """The page's caption line and the board's bootstrap lesson."""
    facts = re.search(r'<p class="puzzle-facts">(.*?)</p>', html, re.S)
    boot = re.search(r'<script id="puzzle-bootstrap" type="application/json">(.*?)</script>', html)
    assert facts and boot
    return " ".join(facts.group(1).split()), json.loads(boot.group(1))["lesson"]


def test_no_generated_puzzle_is_headed_by_tiles(shipped: list[Puzzle]) -> None:
    client = Client()
    for level in range(1, 11):
        for puzzle in [p for p in shipped if p.level == level][:3]:
            facts, lesson = heading(client.get(f"/puzzles/{puzzle.slug}/").content.decode())
            assert lesson and not TILE_CODE.search(lesson), (puzzle.slug, lesson)
            assert not TILE_CODE.search(facts.split("rack tile")[-1]), (puzzle.slug, facts)


def test_the_daily_four_group_puzzle_names_its_technique_not_its_answer(
    shipped: list[Puzzle],
) -> None:
    puzzle = next(p for p in shipped if p.technique == "take_from_group")
    DailyPuzzle.objects.create(date=dailies.today(), puzzle=puzzle)

    html = Client().get("/puzzles/daily/").content.decode()

    facts, lesson = heading(html)
    assert "group of four can spare" in lesson
    for meld in puzzle.table:
        assert " ".join(meld) not in facts and " ".join(meld) not in lesson
    assert (
        "Taking a tile from a four-group"
        in json.loads(
            re.search(r'id="puzzle-bootstrap" type="application/json">(.*?)</script>', html).group(
                1
            )
        )["technique"]
    )
