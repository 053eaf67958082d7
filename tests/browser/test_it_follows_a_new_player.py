"""A new player from the sign-up form on (issue 19): signing up through allauth's real form,
a rated Blitz game against a bot won by going out, the profile with its rating chart and a
trophy toast, the felt that trophy unlocks chosen on the board, and the felt, with the rack
sort chosen on the account page, following the account into a second browser.

The deal is set (the test endpoint deals the new account's game): Hana holds R9-R12 and
K12 B12 Y12 and goes out on her first turn, which wins the one-round match.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PHONE, call, shoot
from .helpers import drag, rack_codes, tile

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HANA = ["R9", "R10", "R11", "R12", "K12", "B12", "Y12"]
BOT = ["K1", "B3", "Y5", "R2", "K8", "B9", "Y1"]
PASSWORD = "felt-and-tiles-2026"


def empty_table_spot(page: Any) -> tuple[float, float]:
    box = page.locator(".rm-table").bounding_box()
    return box["x"] + box["width"] - 60, box["y"] + box["height"] - 50


def lay(page: Any, names: list[str]) -> None:
    for name in names:
        tile(page, name, ".rm-rack").click()
    drag(page, tile(page, names[0], ".rm-rack"), empty_table_spot(page))


def deal_hana_first(site: str) -> dict[str, Any]:
    """A rated one-round Blitz game of Hana against a bot, dealt as above. Who starts is
    drawn; when the bot drew first it has moved already and the deal cannot be set: again."""
    for _ in range(20):
        game = call(
            f"{site}/__test__/games",
            {
                "players": ["hana"],
                "options": {
                    "mode": "blitz",
                    "rounds": "one",
                    "rated": True,
                    "players": 2,
                    "seats": ["bot:beginner"],
                },
                "racks": [HANA, BOT],
                "first": 0,
            },
        )
        if "url" in game:
            return game
    raise AssertionError("the bot started twenty times running")


def test_a_new_player_signs_up_wins_a_rated_game_and_the_felt_follows(
    new_page: Any, site: str
) -> None:
    page = new_page()
    page.goto(site + "/accounts/signup/")
    page.fill("input[name=email]", "hana@example.com")
    page.fill("input[name=username]", "hana")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(site + "/")
    assert page.get_by_role("link", name="hana").first.get_attribute("href") == "/@/hana/"

    game = deal_hana_first(site)
    page.goto(site + game["url"])
    page.wait_for_selector("#rummi[data-ready]")
    assert sorted(rack_codes(page)) == sorted(HANA)
    lay(page, ["red 9", "red 10", "red 11", "red 12"])
    lay(page, ["black 12", "blue 12", "yellow 12"])
    assert rack_codes(page) == []
    page.keyboard.press("Space")
    page.wait_for_selector(".rm-end:not([hidden]) .rm-end-links")
    assert "hana" in page.locator(".rm-end tr.won th").inner_text()

    page.goto(site + "/@/hana/")
    toasts = page.locator(".messages").inner_text()
    assert "Trophy earned: 🏆 First win" in toasts
    page.wait_for_selector('.pool [data-rating-chart][data-drawn="1"]')
    assert page.locator(".trophies").get_by_text("First win").count() == 1
    shoot(page, "new-player-profile-1280.png")

    # The rack sort, chosen on the account page, and the felt the trophy unlocked.
    page.goto(site + "/account/")
    page.locator("select[name=sort], input[name=sort][value=number]").first.wait_for()
    if page.locator("select[name=sort]").count():
        page.select_option("select[name=sort]", "number")
    else:
        page.check("input[name=sort][value=number]")
    page.locator("form.board-settings button[type=submit]").click()
    page.goto(site + game["url"])
    page.wait_for_selector("#rummi[data-settings-follow]")
    page.locator(".rm-end-close").click()
    page.locator(".rm-gear").click()
    assert page.get_by_label("Royal purple").is_disabled()
    page.get_by_label("Slate").check()
    page.wait_for_selector("#rummi[data-settings-saved='1']")
    assert page.locator("#rummi").get_attribute("data-felt") == "slate"

    # A second browser: signed in through the real form, on a new game's board.
    other = new_page(viewport=PHONE, touch=True)
    other.goto(site + "/accounts/login/")
    other.fill("input[name=login]", "hana")
    other.fill("input[name=password]", PASSWORD)
    other.locator("form button[type=submit]").last.click()
    other.wait_for_url(site + "/")
    fresh = call(
        f"{site}/__test__/games",
        {"players": ["hana"], "options": {"players": 2, "seats": ["bot:beginner"]}},
    )
    other.goto(site + fresh["url"])
    other.wait_for_selector("#rummi[data-settings-follow]")
    assert other.locator("#rummi").get_attribute("data-felt") == "slate"
    numbers = [int(c[1:]) for c in rack_codes(other) if c != "J"]
    assert numbers == sorted(numbers), f"the rack is sorted by number: {rack_codes(other)}"
    shoot(other, "new-player-second-browser-390.png")
