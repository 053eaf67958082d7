"""A tournament's standings on a phone (390 px): no header or number is broken inside its cell
("Pt/s", "Sco/re", "-64/5"); a table too wide scrolls inside its own box, not the page."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PHONE, call, shoot

pytestmark = pytest.mark.browser

BROKEN_CELLS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll(
    "#standings th, #standings td:not(:nth-child(2))"
  )) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""


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
    assert page.evaluate(BROKEN_CELLS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "tournament-standings-390x844.png")
