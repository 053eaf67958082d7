"""The plain pages: the trainer, a puzzle with its tiles and the board's bootstrap JSON."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from puzzles.captions import TIPS
from puzzles.models import Puzzle

from .conftest import user_client

pytestmark = pytest.mark.django_db


def bootstrap_of(html: str) -> Any:
    found = re.search(r'<script id="puzzle-bootstrap" type="application/json">(.*?)</script>', html)
    assert found, "the page carries the board's bootstrap"
    return json.loads(found.group(1))


def test_the_puzzle_page_renders_tiles_and_the_bootstrap(shipped: list[Puzzle]) -> None:
    puzzle = next(p for p in shipped if p.level == 4)
    page = Client().get(f"/puzzles/{puzzle.slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    boot = bootstrap_of(html)
    assert boot["slug"] == puzzle.slug and boot["table"] == puzzle.table
    assert boot["rack"] == puzzle.rack and boot["goal"] == "all"
    assert boot["level"] == 4 and boot["lesson"] == TIPS["free_joker"] and boot["mode"] == "trainer"
    assert boot["api"]["submit"] == f"/puzzles/api/{puzzle.slug}/submit"
    assert html.count('class="mini-tile') == sum(map(len, puzzle.table)) + len(puzzle.rack)
    assert 'aria-label="joker"' in html
    assert "csrftoken" in page.cookies


def test_the_trainer_page_shows_the_ramp_and_next(alice: Any, shipped: list[Puzzle]) -> None:
    page = user_client(alice).get("/puzzles/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Splitting a long run" in html and "0 / 3" in html and "/puzzles/next/" in html
    nxt = user_client(alice).get("/puzzles/next/")
    assert nxt.status_code == 302 and nxt["Location"].startswith("/puzzles/l01-")
    streak = user_client(alice).get("/puzzles/next/?mode=streak")
    assert streak["Location"].endswith("?mode=streak")
    assert bootstrap_of(Client().get(streak["Location"]).content.decode())["mode"] == "streak"


def test_unknown_puzzles_are_404(db: Any) -> None:
    assert Client().get("/puzzles/no-such-thing/").status_code == 404
    assert Client().get("/puzzles/s/no-such-token/").status_code == 404


@pytest.mark.parametrize("url", ["/puzzles/", "/puzzles/next/"])
def test_the_trainers_pages_refuse_a_mode_they_have_not(shipped: list[Puzzle], url: str) -> None:
    """As the API does (400 bad_mode): ?mode=xx used to be ignored in silence (200), and
    next/ passed it on into the puzzle's address."""
    page = Client().get(url, {"mode": "xx"})
    assert page.status_code == 400
    assert "The mode must be trainer or streak, as in ?mode=streak (not &#x27;xx&#x27;)." in (
        page.content.decode()
    )
    for mode in ("trainer", "streak", ""):
        assert Client().get(url, {"mode": mode}).status_code in (200, 302)
    assert Client().get("/puzzles/next/", {"mode": "streak"})["Location"].endswith("?mode=streak")


def test_a_puzzles_page_refuses_a_mode_it_has_not(shipped: list[Puzzle]) -> None:
    """/puzzles/<slug>/?mode=xx opened the puzzle as the trainer's, in silence: now a 400 that
    names the modes a puzzle's page takes, as the trainer's pages do."""
    url = f"/puzzles/{shipped[0].slug}/"
    page = Client().get(url, {"mode": "xx"})
    assert page.status_code == 400
    said = "The mode must be trainer, streak or daily, as in ?mode=streak (not &#x27;xx&#x27;)."
    assert said in page.content.decode()
    for mode, shown in (("streak", "streak"), ("trainer", "trainer"), ("", "trainer")):
        page = Client().get(url, {"mode": mode})
        assert page.status_code == 200
        assert bootstrap_of(page.content.decode())["mode"] == shown
