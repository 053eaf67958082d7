"""A game resigned before the resigning player's first move is aborted (docs/fair-play.md):
unrated and counted among nobody's wins. The end dialog's title says so to each player, where
it used to hail the one left at the table with "You won!" above the sentence saying the game
was not counted among wins."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import call
from .test_it_follows_the_player import sign_in

pytestmark = pytest.mark.browser

RESIGN = """async (api) => {
    const csrf = JSON.parse(document.getElementById('bootstrap').textContent).csrf;
    const answer = await fetch(api + 'resign', {method: 'POST', credentials: 'same-origin',
      headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf},
      body: JSON.stringify({key: 'resigns-at-once', expected_seq: rummi.client.seq})});
    if (!answer.ok) throw new Error(await answer.text());
}"""


def test_an_aborted_game_is_titled_aborted_for_both_players(new_page: Any, site: str) -> None:
    # No draws first: the resignation comes before any move of its player's own.
    game = call(
        f"{site}/__test__/games", {"players": ["hal", "ivy"], "options": {"mode": "parlor"}}
    )
    hal = sign_in(new_page, site, "hal", game["url"])
    ivy = sign_in(new_page, site, "ivy", game["url"])
    for page in (hal, ivy):
        page.wait_for_selector("#rummi[data-ready]")
    ivy.evaluate(RESIGN, f"/api/games/{game['gid']}/")

    for page, title in ((hal, "Game aborted"), (ivy, "You resigned: game aborted")):
        end = page.locator(".rm-end:not([hidden])")
        end.locator("[data-aborted]").wait_for()  # the end has come, with its sentence
        assert page.locator("#rm-end-title").inner_text() == title
        assert "not counted among wins" in end.inner_text()
