"""A profile's games on a phone (issue 28): no word is broken inside a cell (the replay link
read "rep/lay" over two lines) and nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import BROKEN_WORDS, PHONE, call, shoot

pytestmark = pytest.mark.browser


def test_the_games_table_keeps_its_words_whole(new_page: Any, site: str) -> None:
    for _ in range(2):
        game = call(
            site + "/__test__/games",
            {"players": ["longer-player-name", "phonefoe"], "options": {"rated": True}},
        )
        call(site + f"/__test__/resign/{game['gid']}/phonefoe")
    page = new_page(PHONE, touch=True)
    for path in ("/@/longer-player-name/", "/@/longer-player-name/games/"):
        page.goto(site + path)
        page.locator(".players-games").wait_for()
        assert page.locator(".players-games a", has_text="replay").count() == 2
        assert page.evaluate(BROKEN_WORDS, ".players-games tbody") == [], path
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    shoot(page, "profile-games-390x844.png")
