"""The board fits a 1280x800 desktop and a 390x844 phone: no sideways scrolling, the whole
rack in view, tiles large enough to read and touch. Screenshots: see conftest.SHOTS."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, shoot
from .helpers import settle

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("viewport", "min_tile"), [(DESKTOP, 44), (PHONE, 32)])
def test_it_fits_the_screen(
    new_page: Any, harness: str, viewport: dict[str, int], min_tile: int
) -> None:
    page = new_page(viewport=viewport, touch=viewport is PHONE)
    page.goto(harness + "?scenario=midgame&turn=1&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    settle(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert page.evaluate("document.documentElement.scrollHeight") <= viewport["height"]
    boxes = page.locator(".rm-rack .tile, .rm-table .tile, .rm-controls button").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().toJSON())"
    )
    for box in boxes:
        assert box["left"] >= 0 and box["right"] <= viewport["width"], box
        assert box["top"] >= 0 and box["bottom"] <= viewport["height"], box
    widths = page.locator(".rm-rack .tile").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width)"
    )
    assert min(widths) >= min_tile
    shoot(page, f"midgame-{viewport['width']}x{viewport['height']}.png")


def test_a_sixty_tile_rack_stays_on_its_shelves_on_a_phone(new_page: Any, harness: str) -> None:
    """Issue 18: a long game's rack wraps onto more shelves instead of spilling sideways."""
    page = new_page(viewport=PHONE, touch=True)
    page.goto(harness + "?scenario=midgame&players=2&rack=60&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    settle(page)
    assert page.locator(".rm-rack .tile").count() == 60
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    rack = page.locator(".rm-rack").bounding_box()
    for box in page.locator(".rm-rack .tile").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().toJSON())"
    ):
        assert rack["x"] <= box["left"] and box["right"] <= rack["x"] + rack["width"], box
    shoot(page, "rack-60-390x844.png")
