"""A tournament's standings on a phone (390 px): no header or number is broken inside its cell
("Pt/s", "Sco/re", "-64/5"); a table too wide scrolls inside its own box, not the page."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import BROKEN_WORDS, PHONE, call, shoot

pytestmark = pytest.mark.browser


def test_the_standings_keep_numbers_and_headers_whole_on_a_phone(new_page: Any, site: str) -> None:
    names = ["a-rather-long-player-name", "another-long-name-here", "phone-player"]
    made = call(
        site + "/__test__/tournament",
        {"name": "Phone cup", "players": names, "bots": 3, "table_size": 2},
    )
    page = new_page(PHONE, touch=True)
    page.goto(site + made["url"])
    page.locator("#standings tbody tr").first.wait_for()
    # Numbers as wide as a real tournament's: a negative score with a decimal Buchholz.
    page.evaluate(
        """() => document.querySelectorAll("#standings tbody tr").forEach((tr) => {
          tr.children[2].textContent = "176.5";
          tr.children[3].textContent = "-1264";
          tr.children[4].textContent = "-64.5";
          tr.children[5].textContent = "1234.5";
        })"""
    )
    assert page.evaluate(BROKEN_WORDS, "#standings th, #standings td:not(:nth-child(2))") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "tournament-standings-390x844.png")
