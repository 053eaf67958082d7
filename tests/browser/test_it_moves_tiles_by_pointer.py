"""Dragging tiles with a mouse or a finger (seed 001's controls), on the dev harness board.

The harness deals seat 0 a known rack beside a known table (static/games/dev/mock.js):
table R3-R6, K7 B7 Y7, B10-B13, Y2 J Y4, K11 R11 B11, R8-R10.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PHONE
from .helpers import centre, drag, edge, rack_codes, settle, table_codes, tile, touch_path

pytestmark = pytest.mark.browser

MY_TURN = "?scenario=midgame&botDelay=600000"


def open_board(new_page: Any, harness: str, query: str = MY_TURN, **kw: Any) -> Any:
    page = new_page(**kw)
    page.goto(harness + query)
    page.wait_for_selector("#rummi[data-ready]")
    return page


def empty_table_spot(page: Any) -> tuple[float, float]:
    box = page.locator(".rm-table").bounding_box()
    return box["x"] + box["width"] - 50, box["y"] + box["height"] - 40


def test_it_drops_a_tile_into_a_place_in_a_meld(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness)
    drag(page, tile(page, "red 7", ".rm-rack"), edge(tile(page, "red 6", ".rm-table"), "right"))
    assert table_codes(page)[0] == ["R3", "R4", "R5", "R6", "R7"]
    assert "R7" not in rack_codes(page)
    assert page.locator(".meld").first.get_attribute("class").split().count("ok") == 1


def test_it_makes_a_new_meld_on_the_empty_table_and_outlines_it_until_valid(
    new_page: Any, harness: str
) -> None:
    page = open_board(new_page, harness)
    drag(page, tile(page, "black 9", ".rm-rack"), empty_table_spot(page))
    assert table_codes(page)[-1] == ["K9"]
    assert "bad" in page.locator(".meld").last.get_attribute("class")
    assert page.locator('[data-act="end"]').is_disabled()
    # Dropped in any order, a run is laid lowest first.
    drag(page, tile(page, "black 10", ".rm-rack"), edge(tile(page, "black 9", ".rm-table"), "left"))
    drag(page, tile(page, "black 8", ".rm-rack"), edge(tile(page, "black 9", ".rm-table"), "right"))
    assert table_codes(page)[-1] == ["K8", "K9", "K10"]
    assert "ok" in page.locator(".meld").last.get_attribute("class")
    assert page.locator('[data-act="end"]').is_enabled()
    assert page.locator('[data-act="draw"]').is_disabled()


def test_it_swaps_a_tile_dropped_on_another(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness)
    before = rack_codes(page)
    drag(page, tile(page, "yellow 13", ".rm-rack"), tile(page, "black 3", ".rm-rack"))
    after = rack_codes(page)
    assert after.index("Y13") == before.index("K3")
    assert after.index("K3") == before.index("Y13")
    # A rack tile swapped with a table tile: the table tile goes where the rack tile was?
    # Never to the rack: that swap is refused.
    drag(page, tile(page, "red 1", ".rm-rack"), tile(page, "red 3", ".rm-table"))
    assert table_codes(page)[0] == ["R3", "R4", "R5", "R6"]
    assert "stay on the table" in page.locator(".rm-message").text_content()


def test_it_keeps_table_tiles_off_the_rack(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness)
    drag(page, tile(page, "red 3", ".rm-table"), page.locator(".rm-tier").first)
    assert table_codes(page)[0] == ["R3", "R4", "R5", "R6"]
    assert page.locator(".rm-message").text_content() == (
        "Tiles on the table must stay on the table."
    )
    # But a tile placed from the rack this turn may go back.
    drag(page, tile(page, "red 7", ".rm-rack"), edge(tile(page, "red 6", ".rm-table"), "right"))
    drag(page, tile(page, "red 7", ".rm-table"), page.locator(".rm-tier").first)
    assert "R7" in rack_codes(page)


def test_it_moves_a_box_selection_together(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness)
    # The rack is sorted by colour: K3 K8 K9 K10 K12 ... on the top tier.
    k8, k10 = tile(page, "black 8", ".rm-rack"), tile(page, "black 10", ".rm-rack")
    a, b = k8.bounding_box(), k10.bounding_box()
    x0, y0 = a["x"] + 4, a["y"] - 4  # the rack's wood above the tiles: an empty spot
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] - 4, b["y"] + b["height"] / 2, steps=6)
    page.mouse.up()
    picked = page.evaluate("[...rummi.board.selection].map(id => rummi.board.codes[id]).sort()")
    assert picked == ["K10", "K8", "K9"]
    drag(page, k8, empty_table_spot(page))
    assert table_codes(page)[-1] == ["K8", "K9", "K10"]


def test_it_moves_table_tiles_only_on_your_turn(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness, "?scenario=midgame&turn=1&botDelay=600000")
    drag(page, tile(page, "red 6", ".rm-table"), empty_table_spot(page))
    assert table_codes(page)[0] == ["R3", "R4", "R5", "R6"]
    assert "Wait for your turn" in page.locator(".rm-message").text_content()
    # The rack is yours to arrange at any time.
    before = rack_codes(page)
    drag(page, tile(page, "yellow 13", ".rm-rack"), tile(page, "black 3", ".rm-rack"))
    assert rack_codes(page) != before


def test_it_swipe_selects_and_lifts_the_held_tiles_above_the_finger(
    new_page: Any, harness: str
) -> None:
    page = open_board(new_page, harness, viewport=PHONE, touch=True)
    settle(page)
    k8, k9, k10 = (tile(page, f"black {n}", ".rm-rack") for n in (8, 9, 10))
    # From an empty spot of the felt (a finger near a tile would land on it), over three tiles.
    touch_path(page, [empty_table_spot(page), centre(k8), centre(k9), centre(k10)])
    picked = page.evaluate("[...rummi.board.selection].map(id => rummi.board.codes[id]).sort()")
    assert picked == ["K10", "K8", "K9"]

    # Hold the selection over the table: the tiles float above the finger, not under it.
    cdp = page.context.new_cdp_session(page)
    x, y = centre(k9)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    tx, ty = empty_table_spot(page)
    for step in range(1, 11):
        px, py = x + (tx - x) * step / 10, y + (ty - y) * step / 10
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": px, "y": py}]}
        )
    ghost = page.locator(".rm-ghost").bounding_box()
    assert ghost["y"] + ghost["height"] < ty, "the held tiles hide under the finger"
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    settle(page)
    assert table_codes(page)[-1] == ["K8", "K9", "K10"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_it_lets_spectators_watch_without_touching(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness, "?scenario=midgame&spectator=1&botDelay=600000")
    assert page.locator(".rm-rack").is_hidden()
    assert page.locator(".rm-controls").is_hidden()
    drag(page, tile(page, "red 6", ".rm-table"), empty_table_spot(page))
    assert table_codes(page)[0] == ["R3", "R4", "R5", "R6"]
    assert page.locator(".rm-player").count() == 3
