"""Sandbox's own opening from the new-game form: the field shows for Sandbox only, and the game
it makes asks that many points of a first meld (docs/rules.md "Modes": 0-60, blank for the
tile set's own)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import shoot

pytestmark = pytest.mark.browser


def test_a_guest_sets_the_opening_of_a_sandbox_game(new_page: Any, site: str) -> None:
    page = new_page()
    page.goto(site + "/")
    opening = page.locator("#new-game [name=opening]")
    expect(opening).to_be_hidden()  # Parlor League plays the set's own 30
    page.fill("#new-game [name=name]", "Opal")
    page.select_option("#mode", "sandbox")
    expect(opening).to_be_visible()
    expect(opening).to_have_attribute("placeholder", "set's own: 30, Rush 21")
    page.select_option("#new-game [name=seat1]", "bot:beginner")
    opening.fill("12")
    shoot(page, "new-game-sandbox-opening-1280.png")
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_selector("#rummi[data-ready]")
    assert page.evaluate("rummi.board.view.rules.opening") == 12


def test_an_opening_past_60_is_refused_on_the_form(new_page: Any, site: str) -> None:
    page = new_page()
    page.goto(site + "/")
    page.fill("#new-game [name=name]", "Opal")
    page.select_option("#mode", "sandbox")
    page.locator("#new-game [name=opening]").fill("75")
    page.locator("#new-game button[type=submit]").click()
    # The browser's own check holds the form: the field says why, and no game is made.
    message = page.locator("#new-game [name=opening]").evaluate("(e) => e.validationMessage")
    assert message, "the browser let 75 through"
    assert page.url.rstrip("/") == site.rstrip("/")
