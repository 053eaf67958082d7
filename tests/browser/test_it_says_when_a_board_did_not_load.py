"""A board whose modules did not load (a phone's network changing under the page fails the
requests in flight) says so after a few seconds and offers a reload, which brings the board;
a board that starts never shows that note (templates/games/_board_stalled.html)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import call, shoot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("options", "board", "module"),
    [
        ({"mode": "parlor", "players": 2}, "#rummi", "**/static/kit/client.*.js"),
        (
            {"mode": "r45", "players": 2, "seats": ["bot:strong"]},
            "#r45",
            "**/static/games/r45.*.js",
        ),
    ],
    ids=["rummikub", "r45"],
)
def test_a_board_that_did_not_load_says_so_and_reloads(
    new_page: Any, site: str, options: dict[str, Any], board: str, module: str
) -> None:
    players = ["stalla", "stallb"] if "seats" not in options else ["stalla"]
    game = call(site + "/__test__/games", {"players": players, "options": options})
    page = new_page()
    page.goto(f"{site}/__test__/login/stalla/")
    page.route(module, lambda route: route.abort("internetdisconnected"))
    page.goto(site + game["url"])
    stalled = page.locator("[data-board-stalled]")
    expect(stalled).to_be_visible(timeout=15_000)
    expect(stalled).to_have_text(
        "The board has not loaded. Check your connection, then reload the page."
    )
    assert page.locator(f"{board}[data-ready]").count() == 0
    shoot(page, f"board-stalled-{board[1:]}-1280x800.png")

    page.unroute(module)
    with page.expect_navigation():
        stalled.get_by_role("link", name="reload the page").click()
    page.wait_for_selector(f"{board}[data-ready]")
    expect(stalled).to_be_hidden()
