"""A keyboard-only turn: walk to tiles, pick them, make a meld, move tiles next to a tile,
end the turn; every tile is named for screen readers."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .helpers import table_codes

pytestmark = pytest.mark.browser

NAME = re.compile(r"^((black|blue|red|yellow) (1[0-3]|[1-9])|joker)$")


def focused(page: Any) -> str:
    return page.evaluate("document.activeElement.getAttribute('aria-label')")


def walk_to(page: Any, name: str) -> None:
    for _ in range(60):
        if focused(page) == name:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"no tile called {name}")


def test_it_names_every_tile(new_page: Any, harness: str) -> None:
    page = new_page()
    page.goto(harness + "?scenario=midgame&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    names = page.locator(".rm-table .tile, .rm-rack .tile").evaluate_all(
        "tiles => tiles.map(t => t.getAttribute('aria-label'))"
    )
    assert len(names) == 20 + 14
    assert all(NAME.match(name) for name in names), names
    assert "joker" in names and "red 7" in names


def test_it_plays_an_opening_with_keys_alone(new_page: Any, harness: str) -> None:
    page = new_page()
    page.goto(harness + "?scenario=opening&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    page.focus(".rm-rack")
    walk_to(page, "red 10")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert focused(page) == "red 11"
    page.wait_for_function("document.querySelector('[data-live]').textContent !== ''")
    assert page.locator("[data-live]").text_content() == "Picked red 11. 2 picked."
    page.keyboard.press("n")
    assert table_codes(page) == [["R10", "R11"]]
    # Pick red 12 and move it after red 11 with M, on the table.
    page.focus(".rm-rack")
    walk_to(page, "red 12")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    walk_to(page, "red 11")
    page.keyboard.press("m")
    assert table_codes(page) == [["R10", "R11", "R12"]]
    page.keyboard.press("Space")
    page.wait_for_function("rummi.board.view.turn === 1")
    assert page.evaluate("mock.state.table.length") == 1
