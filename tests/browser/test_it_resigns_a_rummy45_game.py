"""Resigning a Rummy 45 game from its board (docs/rules-45.md "Resigning"), as on the Rummikub
board: a Resign button that asks first (a "no" changes nothing); at 2 players the end says the
player resigned and their place; at 3 the bots play on and the board says so, offering the
player nothing more to do. Before play the board tells the player what to do, never that the
table waits for them by name."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import shoot
from .helpers import sit_down

pytestmark = pytest.mark.browser


def test_a_player_resigns_against_a_bot_and_the_end_says_so(new_page: Any, site: str) -> None:
    options = {"mode": "r45", "players": 2, "seats": ["bot:beginner"]}
    _, page = sit_down(new_page, site, "mallory", options, "#r45[data-ready]")
    page.wait_for_function("document.getElementById('r45').dataset.phase === 'setup'")
    status = page.locator("#r45-status")
    assert "your move" in status.inner_text()
    assert "mallory" not in status.inner_text()

    resign = page.locator("#r45-resign")
    assert resign.is_visible() and resign.is_enabled()
    page.once("dialog", lambda dialog: dialog.dismiss())
    resign.click()
    assert page.evaluate("document.getElementById('r45').dataset.phase") == "setup"
    page.once("dialog", lambda dialog: dialog.accept())
    resign.click()

    page.wait_for_selector("#r45[data-ended]")
    dialog = page.locator("#r45-end")
    # Resigned before a move of her own: the game is aborted, and the title says both.
    assert dialog.locator("#r45-end-title").inner_text() == "You resigned: game aborted"
    mine = dialog.locator("#r45-scorecard tbody tr[data-seat='0']")
    assert "mallory (resigned)" in mine.inner_text()
    shoot(page, "r45-end-resigned-1280.png")
    dialog.locator("button", has_text="Look at the table").click()
    assert resign.is_hidden()
    assert status.inner_text() == "Game over: Beginner bot won (you resigned)."


def test_at_three_the_bots_play_on_and_the_board_says_the_player_resigned(
    new_page: Any, site: str
) -> None:
    options = {"mode": "r45", "players": 3, "seats": ["bot:beginner", "bot:casual"]}
    # The bots play on at once (no pause between bot turns here), and may end the game a moment
    # later: the board is read in one go at each change of the page, and the test waits until
    # it said she resigned while the game ran, with nothing left for her to do (read in several
    # steps, the end could come between them), or until the game ended. Now and then a bot goes
    # out on its board in its first turn, before the page has shown a frame of the two playing
    # on (it failed so in CI once): then the test deals another game.
    for _ in range(5):
        _, page = sit_down(new_page, site, "mallory", options, "#r45[data-ready]")
        page.evaluate(
            """() => {
                const shown = (id) => document.getElementById(id).getClientRects().length > 0;
                const check = () => {
                    if (document.getElementById("r45-status").textContent
                            === "You resigned: the others play on."
                        && !shown("r45-actions") && !shown("r45-setup")
                        && !document.getElementById("r45").hasAttribute("data-ended")) {
                        window.resignedWhilePlaying = true;
                    }
                };
                new MutationObserver(check).observe(document.body, {
                    subtree: true, childList: true, characterData: true, attributes: true,
                });
            }"""
        )
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#r45-resign").click()
        page.wait_for_function(
            "window.resignedWhilePlaying === true"
            " || document.getElementById('r45').hasAttribute('data-ended')"
        )
        if page.evaluate("window.resignedWhilePlaying === true"):
            break
        page.close()
    else:
        pytest.fail("in 5 games the bots ended each before the board showed them playing on")
