"""A whole one-round game against a bot ends in the scorecard, and its Rematch button starts
the same game again at once (issue 18): the bot sits down without being asked, so the player
lands on the new board. The scorecard links the player's name to their profile, not the bot's
(issue 19). The page weight of the board (its JS and CSS) is checked on the way."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, ROOT, call, shoot
from .helpers import drag, table_codes, tile

pytestmark = pytest.mark.browser


def _weight(page: Any) -> int:
    sizes = page.evaluate(
        """performance.getEntriesByType("resource")
            .filter((r) => /\\.(js|css)$/.test(new URL(r.name).pathname))
            .map((r) => r.decodedBodySize)"""
    )
    return int(sum(sizes))


def test_a_game_against_a_bot_ends_in_a_scorecard_and_a_rematch(new_page: Any, site: str) -> None:
    player = "winner"
    spec = {
        "players": [player],
        "options": {"mode": "blitz", "rounds": "one", "players": 2, "seats": ["bot:beginner"]},
        "racks": [["R10", "R11", "R12"], ["K1", "B3", "Y5", "R2", "K8", "B9", "Y1"]],
        "first": 0,
    }
    for _ in range(20):  # while the bot drew the first turn and has played: another game
        game = call(f"{site}/__test__/games", spec)
        if not game.get("moved"):
            break
    assert not game.get("moved")
    page = new_page()
    page.goto(f"{site}/__test__/login/{player}/?next={game['url']}")
    page.wait_for_selector("#rummi[data-ready]")
    weight = _weight(page)
    # The board kit, the settings, the phone menu, the note of a board that did not load and
    # the tournament toast's phone bar (2026-12-07, +0.2 KB) and the watch for the server's
    # beat (a socket silent for two beats is dead, 2026-12-07, +0.5 KB).
    assert weight < 162_000, weight
    (ROOT / "var").mkdir(exist_ok=True)
    (ROOT / "var" / "board-weight.txt").write_text(f"game page js+css bytes {weight}\n")

    for n in (10, 11, 12):
        tile(page, f"red {n}", ".rm-rack").click()
    box = page.locator(".rm-table").bounding_box()
    drag(page, tile(page, "red 10", ".rm-rack"), (box["x"] + 80, box["y"] + 60))
    assert table_codes(page) == [["R10", "R11", "R12"]]
    page.locator("[data-act=end]").click()

    end = page.locator(".rm-end:not([hidden])")
    end.locator(".rm-end-links").wait_for()
    rows = end.locator(".rm-scores tbody tr")
    assert rows.count() == 2
    first = rows.nth(0).locator("td").all_text_contents()
    # R1, total, the rating change (a game against a bot is not rated), melds laid, tiles
    # played, jokers played, average turn
    assert first[0] == first[1] and int(first[1]) > 0
    assert first[2].startswith("unrated")
    assert first[3:6] == ["1", "3", "0"] and first[6].endswith(" s")
    links = end.locator(".rm-end-links a")
    assert [links.nth(i).get_attribute("href") for i in range(3)] == [
        game["url"] + "replay/",
        game["url"] + "record.json",
        game["url"] + "verify/",
    ]
    # The player's name links to their profile, with their avatar; the bot's is plain text.
    you, bot = rows.nth(0).locator("th"), rows.nth(1).locator("th")
    assert you.locator("a").get_attribute("href") == f"/@/{player}/"
    assert you.locator("a img.avatar").get_attribute("src") == f"/@/{player}/avatar.svg"
    assert you.inner_text().strip() == player
    assert bot.locator("a").count() == 0 and bot.inner_text().strip() == "Beginner bot"
    shoot(page, "scorecard-1280.png")
    page.set_viewport_size(PHONE)
    shoot(page, "scorecard-390.png")
    page.set_viewport_size(DESKTOP)

    # The title says her own outcome; the way back is the parlor's (no tournament here).
    assert page.locator("#rm-end-title").inner_text() == "You won!"
    assert end.locator(".rm-home").get_attribute("href") == "/"
    assert end.locator(".rm-home").inner_text() == "Back to the parlor"

    # The rematch replaces the finished game, in the address bar and in the history: a
    # reload shows the new game, and Back does not return to the old one.
    depth = page.evaluate("history.length")
    end.locator(".rm-rematch").click()
    page.wait_for_url(lambda url: game["gid"] not in url)
    assert page.evaluate("history.length") == depth
    page.wait_for_selector("#rummi[data-ready]")
    assert page.evaluate("rummi.board.view.finished") is False
    assert page.locator(".rm-rack .tile").count() == 14
