"""The board fits a 1280x800 desktop and a 390x844 phone: no sideways scrolling, the whole
rack in view, tiles large enough to read and touch; on the real site, a table of three against
two bots shows every seat, every control's whole label and, at the end, the whole scorecard.
Screenshots: see conftest.SHOTS."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, call, shoot
from .helpers import settle, sit_down

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


# What spills: an element whose content is wider than its box (a label cut by its button), and
# where each box lies, to hold against the viewport and the box that clips it.
SPILLS = "els => els.filter(e => e.scrollWidth > e.clientWidth).map(e => e.outerHTML.slice(0, 80))"
BOXES = "els => els.map(e => e.getBoundingClientRect().toJSON())"


def _inside(box: dict[str, float], outer: dict[str, float]) -> bool:
    return outer["left"] - 0.5 <= box["left"] and box["right"] <= outer["right"] + 0.5


@pytest.mark.parametrize("mode", ["sandbox", "blitz"])
def test_a_table_of_three_fits_a_phone_to_the_end(new_page: Any, site: str, mode: str) -> None:
    """Sandbox against bots shows Hint too (nine controls); rated Blitz ends with a Rating
    column. Every seat's chip and tile count is in view, every label whole, and the scorecard
    of a one-round game fits the screen without scrolling."""
    options: dict[str, Any] = {"mode": mode, "players": 3, "seats": ["bot:beginner"] * 2}
    if mode == "blitz":
        options.update(rounds="one", rated=True)
    game: dict[str, Any] = {}
    while "url" not in game:  # a bot dealt the first turn has moved: deal again
        game = call(
            f"{site}/__test__/games",
            {
                "players": ["phoebe"],
                "options": options,
                "racks": [["R10", "R11", "R12"], ["K1", "B3", "Y5", "R2"], ["K2", "B4", "Y6"]],
                "first": 0,
            },
        )
    page = new_page(viewport=PHONE, touch=True)
    page.goto(f"{site}/__test__/login/phoebe/?next={game['url']}")
    page.wait_for_selector("#rummi[data-ready]")
    settle(page)
    screen = {"left": 0, "right": PHONE["width"]}
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    strip = page.locator(".rm-players").bounding_box()
    strip_box = {"left": strip["x"], "right": strip["x"] + strip["width"]}
    assert _inside(strip_box, screen), strip_box
    chips = page.locator(".rm-players > .rm-player").evaluate_all(BOXES)
    assert len(chips) == 3
    # Two bots of one strength, "Beginner bot 1" and "2": their avatars tell them apart where
    # the phone cuts their names (players/views.py initials_of draws profiles the same way).
    assert page.locator(".rm-player .rm-initials").all_inner_texts()[1:] == ["B1", "B2"]
    for chip in chips:
        assert _inside(chip, strip_box), (chip, strip_box)  # not cut off by the strip
    assert page.locator(".rm-pcount").evaluate_all(SPILLS) == []
    controls = page.locator(".rm-controls > .rm-btn:visible")
    assert controls.count() == (9 if mode == "sandbox" else 8)  # Hint in practice
    assert controls.evaluate_all(SPILLS) == []
    for box in controls.evaluate_all(BOXES):
        assert _inside(box, screen), box
    shoot(page, f"three-{mode}-390x844.png")

    for rack_tile in page.locator(".rm-rack .tile").all():
        rack_tile.click()
    page.keyboard.press("n")
    page.keyboard.press("Space")
    page.wait_for_selector("#rummi[data-ended]")
    if mode == "blitz":
        page.wait_for_selector(".rm-scores .rm-rating")
        assert "Rating" in page.locator(".rm-scores thead").inner_text()
    settle(page)
    wrap = page.locator(".rm-scores-wrap")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth"), "the scorecard scrolls"
    [table] = page.locator(".rm-scores").evaluate_all(BOXES)
    assert _inside(table, screen), table
    for cell in page.locator(".rm-scores th, .rm-scores td").evaluate_all(BOXES):
        assert _inside(cell, screen), cell
    shoot(page, f"three-{mode}-end-390x844.png")


@pytest.mark.parametrize("players", [4, 6])
def test_every_seat_of_a_big_table_is_in_view_on_a_phone(
    new_page: Any, harness: str, players: int
) -> None:
    """Four to six seats take two rows on a phone: each chip, with its name and tile count, is
    inside the strip and the screen, none hidden behind the pool or scrolled out of sight (the
    player whose turn it is might be that one)."""
    page = new_page(viewport=PHONE, touch=True)
    page.goto(harness + f"?scenario=midgame&players={players}&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    settle(page)
    strip = page.locator(".rm-players").evaluate("e => e.getBoundingClientRect().toJSON()")
    pool = page.locator(".rm-pool").evaluate("e => e.getBoundingClientRect().toJSON()")
    chips = page.locator(".rm-player").evaluate_all(BOXES)
    assert len(chips) == players
    for chip in chips:
        assert _inside(chip, strip) and chip["right"] <= pool["left"], chip
        assert strip["top"] - 0.5 <= chip["top"] and chip["bottom"] <= strip["bottom"] + 0.5, chip
    counts = page.locator(".rm-player .rm-pcount b").evaluate_all(BOXES)
    assert all(_inside(box, strip) and box["width"] > 0 for box in counts), counts
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollHeight") <= PHONE["height"]
    shoot(page, f"seats-{players}-390x844.png")


LONG = "Bartholomewfeatherstonex"  # 24 characters, the most a name may have


def test_the_scorecard_of_a_table_of_six_fits_a_phone(new_page: Any, site: str) -> None:
    """Six seats, a name of 24 letters without a break, two bots of one strength and an unrated
    game's reason in every row: the scorecard's columns all fit the phone's width, the last (the
    time a turn) whole."""
    seats = ["bot:casual", "bot:beginner", "bot:casual", "bot:strong", "bot:master"]
    game: dict[str, Any] = {}
    while "url" not in game:  # a bot dealt the first turn has moved: deal again
        game = call(
            f"{site}/__test__/games",
            {
                "players": [LONG],
                "options": {"mode": "sandbox", "players": 6, "seats": seats},
                "racks": [["R10", "R11", "R12"]]
                + [[f"K{n}", f"B{n + 2}", f"Y{n + 4}", f"R{n + 1}"] for n in range(1, 10, 2)],
                "first": 0,
            },
        )
    page = new_page(viewport=PHONE, touch=True)
    page.goto(f"{site}/__test__/login/{LONG}/?next={game['url']}")
    page.wait_for_selector("#rummi[data-ready]")
    for rack_tile in page.locator(".rm-rack .tile").all():
        rack_tile.click()
    page.keyboard.press("n")
    page.keyboard.press("Space")
    page.wait_for_selector("#rummi[data-ended]")
    settle(page)
    shoot(page, "six-end-390x844.png")
    wrap = page.locator(".rm-scores-wrap")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth"), "the scorecard scrolls"
    screen = {"left": 0, "right": PHONE["width"]}
    for cell in page.locator(".rm-scores th, .rm-scores td").evaluate_all(BOXES):
        assert _inside(cell, screen), cell
    shoot(page, "six-end-390x844.png")


def test_a_long_status_line_wraps_whole_on_a_phone(new_page: Any, site: str) -> None:
    """After resigning at a timed table of three, the status line ("You resigned · Beginner bot 1
    is playing · 1:00 left", then the round) is longer than a phone is wide: it wraps, and the
    time left and the round label each stay whole, none of it cut."""
    options = {"mode": "parlor", "players": 3, "seats": ["bot:beginner"] * 2}
    page = new_page(viewport=PHONE, touch=True)
    _, page = sit_down(new_page, site, "rosalind", options, "#rummi[data-ready]", page=page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".rm-controls .rm-resign").click()
    page.wait_for_function(
        """() => document.querySelector(".rm-turn").textContent.startsWith("You resigned · ")
            && document.querySelector(".rm-left").textContent.includes("left")"""
    )
    status = page.locator(".rm-status")
    assert status.evaluate_all(SPILLS) == []
    assert page.locator(".rm-status > span").evaluate_all(SPILLS) == []
    screen = {"left": 0, "right": PHONE["width"]}
    for part in (".rm-turn", ".rm-left", ".rm-round"):
        boxes = page.locator(part).evaluate("e => [...e.getClientRects()].map(r => r.toJSON())")
        assert boxes and all(_inside(box, screen) for box in boxes), (part, boxes)
    # The time left is one piece, on one line: not "1:00" above and "left" below.
    assert len(page.locator(".rm-left").evaluate("e => [...e.getClientRects()]")) == 1
    shoot(page, "resigned-status-390x844.png")
