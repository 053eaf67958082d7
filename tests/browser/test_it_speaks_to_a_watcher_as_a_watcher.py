"""An empty table asks the player to lay their first melds, but tells a watcher, who lays
nothing, only that no melds are down yet."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import call

pytestmark = pytest.mark.browser

EMPTY = """() => getComputedStyle(document.querySelector('.rm-table'), '::before').content"""


def test_an_empty_table_asks_the_player_and_tells_the_watcher(new_page: Any, site: str) -> None:
    spec = {"players": ["layer"], "options": {"players": 2, "seats": ["bot:beginner"]}, "first": 0}
    game = call(f"{site}/__test__/games", spec)
    texts = {}
    for who in ("layer", "onlooker"):
        page = new_page()
        page.goto(f"{site}/__test__/login/{who}/?next={game['url']}")
        page.wait_for_selector("#rummi[data-ready]")
        texts[who] = page.evaluate(EMPTY)
    assert "lay your first melds" in texts["layer"]
    assert "no melds laid yet" in texts["onlooker"] and "lay your" not in texts["onlooker"]
