"""Felt colours, tile backs, colour-blind symbols, the invalid-meld outline and mute, kept
across visits in localStorage."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import drag, tile

pytestmark = pytest.mark.browser


def test_it_remembers_the_table_settings(new_page: Any, harness: str) -> None:
    page = new_page()
    page.goto(harness + "?scenario=midgame&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    root = page.locator("#rummi")
    assert root.get_attribute("data-felt") == "green"
    page.locator(".rm-gear").click()
    page.get_by_label("Claret").check()
    page.get_by_label("Mahogany").check()
    page.get_by_label("Colour-blind symbols").check()
    page.get_by_label("Mute sounds").check()
    page.keyboard.press("Escape")
    assert page.locator(".rm-settings").is_hidden()

    page.reload()
    page.wait_for_selector("#rummi[data-ready]")
    assert root.get_attribute("data-felt") == "wine"
    assert root.get_attribute("data-back") == "mahogany"
    assert "rm-cb" in root.get_attribute("class")
    shapes = {
        colour: tile(page, f"{colour} 11", ".rm-table")
        .locator("i")
        .evaluate("i => getComputedStyle(i).clipPath + '|' + getComputedStyle(i).borderRadius")
        for colour in ("black", "red", "blue")
    }
    assert len(set(shapes.values())) == 3, shapes
    page.locator(".rm-gear").click()
    assert page.get_by_label("Mute sounds").is_checked()


def test_it_outlines_invalid_melds_unless_told_not_to(new_page: Any, harness: str) -> None:
    page = new_page()
    page.goto(harness + "?scenario=midgame&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    box = page.locator(".rm-table").bounding_box()
    drag(page, tile(page, "black 9", ".rm-rack"), (box["x"] + box["width"] - 50, box["y"] + 300))
    bad = page.locator(".meld.bad")
    assert bad.evaluate("m => getComputedStyle(m).outlineColor") != "rgba(0, 0, 0, 0)"
    page.locator(".rm-gear").click()
    page.get_by_label("Outline invalid melds in red").uncheck()
    assert bad.evaluate("m => getComputedStyle(m).outlineColor") == "rgba(0, 0, 0, 0)"
