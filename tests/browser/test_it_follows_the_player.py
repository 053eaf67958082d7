"""A player's rated game to its end, then their profile with its chart and a trophy toast,
a felt unlocked by that trophy chosen on the board, and the felt following the account into a
second browser (docs/design.md "Players")."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import call

pytestmark = pytest.mark.browser


def sign_in(new_page: Any, site: str, name: str, url: str) -> Any:
    page = new_page()
    page.goto(f"{site}/__test__/login/{name}/?next={url}")
    return page


def test_a_rated_win_a_trophy_a_felt_and_a_second_browser(new_page: Any, site: str) -> None:
    game = call(
        f"{site}/__test__/games",
        # Each draws first: a game resigned before a move is aborted (docs/fair-play.md).
        {"players": ["fay", "gil"], "options": {"mode": "parlor", "rated": True}, "draws": True},
    )
    gil = sign_in(new_page, site, "gil", game["url"])
    gil.wait_for_selector("#rummi[data-ready]")
    gil.evaluate(
        """async (api) => {
            const csrf = JSON.parse(document.getElementById('bootstrap').textContent).csrf;
            const answer = await fetch(api + 'resign', {method: 'POST', credentials: 'same-origin',
              headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf},
              body: JSON.stringify({key: 'gil-resigns-now', expected_seq: rummi.client.seq})});
            if (!answer.ok) throw new Error(await answer.text());
        }""",
        f"/api/games/{game['gid']}/",
    )

    fay = sign_in(new_page, site, "fay", "/@/fay/")
    assert "Trophy earned: 🏆 First win" in fay.locator(".messages").inner_text()
    assert fay.locator(".pool .rating").count() == 1
    fay.wait_for_selector('.pool [data-rating-chart][data-drawn="1"]')
    assert "provisional" in fay.locator(".pool").inner_text()
    assert fay.locator(".trophies").get_by_text("First win").count() == 1

    fay.goto(site + game["url"])
    fay.wait_for_selector("#rummi[data-settings-follow]")
    fay.locator(".rm-end-close").click()  # the end frame of the finished game
    fay.locator(".rm-gear").click()
    assert fay.get_by_label("Royal purple").is_disabled()
    fay.get_by_label("Slate").check()
    fay.wait_for_selector("#rummi[data-settings-saved='1']")
    assert fay.locator("#rummi").get_attribute("data-felt") == "slate"

    elsewhere = sign_in(new_page, site, "fay", game["url"])
    elsewhere.wait_for_selector("#rummi[data-settings-follow]")
    assert elsewhere.locator("#rummi").get_attribute("data-felt") == "slate"
