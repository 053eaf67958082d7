"""The Rummy 45 board fits a desktop and a phone (issue 25): at 1280x800 its rows follow each
other with no band of empty felt (the train, then the players' displays) and the whole hand is
on screen, above the buttons; at 390x844 nothing scrolls sideways; axe-core finds nothing
serious or critical at either size. The screenshots are docs/screenshots/board-r45-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, shoot
from .helpers import sit_down
from .r45_play import my_turn, until
from .test_it_walks_every_page import AXE, SERIOUS

pytestmark = pytest.mark.browser


def gaps(page: Any) -> dict[str, float]:
    return page.evaluate(
        """() => {
          const box = (s) => document.querySelector(s).getBoundingClientRect();
          return {band: box('#r45-players').top - box('.r45-train-zone').bottom,
                  hand: box('#r45-hand').bottom, buttons: box('#r45-actions').top,
                  wide: document.documentElement.scrollWidth};
        }"""
    )


def test_the_rummy45_board_fits_desktop_and_phone(new_page: Any, site: str) -> None:
    options = {"mode": "r45", "players": 2, "seats": ["bot:beginner"]}
    _, page = sit_down(new_page, site, "olga", options, "#r45[data-ready]")
    page.click("#r45-ready")
    until(page, "r45.view.phase === 'play'")
    my_turn(page)
    for viewport, name in ((DESKTOP, "board-r45-1280x800.png"), (PHONE, "board-r45-390x844.png")):
        page.set_viewport_size(viewport)
        seen = gaps(page)
        assert seen["wide"] <= viewport["width"], seen
        if viewport is DESKTOP:
            assert 0 <= seen["band"] < 16, seen
            assert seen["hand"] <= viewport["height"], seen
        # The hand comes straight under the melds being built, the buttons after it.
        assert seen["hand"] <= seen["buttons"], seen
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(SERIOUS) == []
        shoot(page, name)
