"""The end of a Rummy 45 game (issues 25 and 28): the title states the player's own outcome,
the scorecard comes in place order with each line's rating change when the ratings answer, the
way back is the tournament's when the end API names one (links.back) and the parlor's
otherwise, and Rematch replaces the finished game with the new one, in the address bar too.

The end API's links.back and the ratings endpoint belong to other parts of the site: here the
page's requests for them are answered in their documented shapes on the way."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PHONE, shoot
from .helpers import sit_down
from .r45_play import play_out

pytestmark = [pytest.mark.browser, pytest.mark.slow]

R45 = {"mode": "r45", "players": 2, "seats": ["bot:beginner"]}
BACK = {"url": "/tournaments/7/", "label": "Back to the Spring Cup"}
RATINGS = {
    "seats": [
        {"seat": 0, "rated": True, "delta": 12, "before": 1000, "after": 1012, "reason": None},
        {
            "seat": 1,
            "rated": False,
            "delta": 0,
            "before": None,
            "after": None,
            "reason": "unrated: casual game",
        },
    ]
}


def test_the_end_gives_the_outcome_the_places_the_way_back_and_a_rematch(
    new_page: Any, site: str
) -> None:
    page = new_page()

    def with_back(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        data["links"]["back"] = BACK
        route.fulfill(response=response, json=data)

    page.route("**/api/games/*/end", with_back)
    page.route("**/api/ratings/game/*", lambda route: route.fulfill(json=RATINGS))
    game, page = sit_down(new_page, site, "nadia", R45, "#r45[data-ready]", page)
    final = play_out(page)

    page.wait_for_selector("#r45[data-ended]")
    dialog = page.locator("#r45-end")
    rows = dialog.locator("#r45-scorecard tbody tr")
    assert rows.count() == 2
    places = [int(rows.nth(i).locator("td").first.inner_text()) for i in range(2)]
    assert places == sorted(places)
    seats = [int(rows.nth(i).get_attribute("data-seat")) for i in range(2)]
    mine = places[seats.index(0)]
    best = max(final["scores"])
    assert (mine == 1) == (final["scores"][0] == best)
    if mine != 1:
        expected = f"You finished in place {mine} of 2"
    elif places.count(1) > 1:
        expected = "You won, sharing first place"
    else:
        expected = "You won!"
    assert dialog.locator("#r45-end-title").inner_text() == expected
    lines = {seats[i]: rows.nth(i).inner_text() for i in range(2)}
    assert "+12" in lines[0] and "unrated: casual game" in lines[1]
    back = dialog.locator("#r45-back")
    assert back.get_attribute("href") == BACK["url"] and back.inner_text() == BACK["label"]
    shoot(page, "r45-end-tournament-1280.png")
    page.set_viewport_size(PHONE)
    shoot(page, "r45-end-tournament-390.png")

    depth = page.evaluate("history.length")
    dialog.locator(".rm-rematch").click()
    page.wait_for_url(lambda url: game["gid"] not in url)
    page.wait_for_selector("#r45[data-ready]")
    assert page.evaluate("history.length") == depth
    assert page.evaluate("r45.view.phase") == "setup"
