"""The end of a Rummikub game states the viewer's own outcome (issue 28): a player who
resigns reads that they resigned and their place (or, before a move of their own, that the game
was aborted), not "You win!". Resigning is a visible
control beside End turn, with a confirm, not a setting; after the game neither Hint nor Resign
is offered."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import shoot
from .helpers import sit_down

pytestmark = pytest.mark.browser


def test_a_resignation_says_resigned_and_leaves_no_hint_or_resign(new_page: Any, site: str) -> None:
    options = {"mode": "sandbox", "players": 2, "seats": ["bot:beginner"]}
    _, page = sit_down(new_page, site, "rosalind", options, "#rummi[data-ready]")
    controls = page.locator(".rm-controls")
    page.click(".rm-gear")
    assert page.locator(".rm-settings").is_visible()
    assert page.locator(".rm-settings .rm-resign").count() == 0
    page.keyboard.press("Escape")
    assert controls.locator("[data-act=hint]").is_enabled()

    # Resign sits beside End turn; it asks first, and a "no" changes nothing.
    resign = controls.locator(".rm-resign")
    assert resign.is_visible()
    assert resign.evaluate("(b) => b.nextElementSibling.dataset.act") == "end"
    page.once("dialog", lambda dialog: dialog.dismiss())
    resign.click()
    assert page.evaluate("rummi.board.view.finished") is False
    page.once("dialog", lambda dialog: dialog.accept())
    resign.click()

    page.wait_for_selector("#rummi[data-ended]")
    title = page.locator("#rm-end-title")
    # Resigned before a move of her own: the game is aborted, and the title says both.
    assert title.inner_text() == "You resigned: game aborted"
    rows = page.locator(".rm-end .rm-scores tbody th")
    assert rows.nth(0).inner_text().strip() == "Beginner bot"
    assert rows.nth(1).inner_text().strip() == "rosalind (resigned)"
    shoot(page, "end-resigned-1280.png")
    page.click(".rm-end-close")
    assert resign.is_hidden()
    assert controls.locator("[data-act=hint]").is_disabled()
    page.click(".rm-gear")
    assert page.locator(".rm-settings .rm-resign").count() == 0


def test_after_resigning_a_table_of_three_neither_hint_nor_resign_is_offered(
    new_page: Any, site: str
) -> None:
    """The bots play on after the player resigns; the board offers them no hint and no second
    resignation, though the game is not over, and its status line says they resigned."""
    options = {"mode": "sandbox", "players": 3, "seats": ["bot:beginner", "bot:beginner"]}
    _, page = sit_down(new_page, site, "rosalind", options, "#rummi[data-ready]")
    controls = page.locator(".rm-controls")
    resign = controls.locator(".rm-resign")
    assert controls.locator("[data-act=hint]").is_enabled()

    # The bots play on at once and could end the game between separate reads: the board is
    # read in one go at each change of the page, from an observer set up before the click.
    page.evaluate(
        """() => {
            const check = () => {
                const view = rummi.board.view, controls = document.querySelector(".rm-controls");
                if (view.resigned[0] === true && view.finished === false
                    && controls.querySelector(".rm-resign").getClientRects().length === 0
                    && controls.querySelector("[data-act=hint]").disabled
                    && document.querySelector(".rm-turn").textContent.startsWith(
                        "You resigned · ")) {
                    window.resignedWhilePlaying = true;
                }
            };
            new MutationObserver(check).observe(document.body, {
                subtree: true, childList: true, characterData: true, attributes: true,
            });
        }"""
    )
    page.once("dialog", lambda dialog: dialog.accept())
    resign.click()
    page.wait_for_function("window.resignedWhilePlaying === true")
