"""An empty table asks the player to lay their first melds, but tells a watcher, who lays
nothing, only that no melds are down yet."""

from __future__ import annotations

from typing import Any

import pytest

from .test_it_pings_as_the_hello_says import quiet_game

pytestmark = pytest.mark.browser

EMPTY = """() => getComputedStyle(document.querySelector('.rm-table'), '::before').content"""


def test_an_empty_table_asks_the_player_and_tells_the_watcher(new_page: Any, site: str) -> None:
    game = quiet_game(site, "layer")
    texts = {}
    for who in ("layer", "onlooker"):
        page = new_page()
        page.goto(f"{site}/__test__/login/{who}/?next={game['url']}")
        page.wait_for_selector("#rummi[data-ready]")
        assert page.locator(".rm-table .rm-melds > *").count() == 0
        texts[who] = page.evaluate(EMPTY)
    assert "lay your first melds" in texts["layer"]
    assert "no melds laid yet" in texts["onlooker"] and "lay your" not in texts["onlooker"]
