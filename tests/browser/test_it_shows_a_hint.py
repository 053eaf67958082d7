"""Sandbox and bot practice offer "show me a play"; games between people do not."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import call, shoot

pytestmark = pytest.mark.browser


def open_as(new_page: Any, site: str, name: str, url: str) -> Any:
    page = new_page()
    page.goto(f"{site}/__test__/login/{name}/?next={url}")
    page.wait_for_selector("#rummi[data-ready]")
    return page


def test_a_sandbox_hint_lights_the_tiles_of_the_best_play(new_page: Any, site: str) -> None:
    game = call(
        f"{site}/__test__/games",
        {
            "players": ["alice", "bob"],
            "options": {"mode": "sandbox"},
            "racks": [["R10", "R11", "R12", "K1", "B5"], ["K2", "Y7", "B9"]],
            "first": 0,
        },
    )
    page = open_as(new_page, site, "alice", game["url"])
    button = page.locator("[data-act=hint]")
    assert button.is_visible()
    page.keyboard.press("h")
    page.wait_for_selector(".tile.hinted")
    hinted = page.locator(".rm-rack .tile.hinted")
    names = sorted(hinted.nth(i).get_attribute("aria-label") for i in range(hinted.count()))
    assert names == ["red 10", "red 11", "red 12"]
    assert "Hint: lay 3 tiles, making R10 R11 R12" in page.locator(".rm-message").text_content()
    shoot(page, "hint-1280x800.png")


def test_no_hint_between_people(new_page: Any, site: str) -> None:
    game = call(
        f"{site}/__test__/games",
        {"players": ["alice", "bob"], "options": {"mode": "parlor"}},
    )
    page = open_as(new_page, site, "alice", game["url"])
    assert page.locator("[data-act=hint]").is_hidden()
