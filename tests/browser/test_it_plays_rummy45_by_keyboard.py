"""A Rummy 45 turn played by keyboard alone (issue 25): Tab to Ready and Enter; then D draws,
Tab reaches the hand, the arrows walk it, Enter picks a tile, N makes it a meld being built and
C clears that, and Q discards the picked tile onto the train."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import sit_down
from .r45_play import my_turn, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def tab_to(page: Any, condition: str, presses: int = 80) -> None:
    """Press Tab until the focused element meets ``condition`` (JavaScript on ``el``)."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(
            f"(() => {{ const el = document.activeElement; return !!({condition}); }})()"
        ):
            return
    raise AssertionError(f"Tab never reached {condition}")


def focused_tile(page: Any) -> int:
    return int(page.evaluate("document.activeElement.dataset.tile"))


def test_a_turn_by_keyboard_alone(new_page: Any, site: str) -> None:
    options = {"mode": "r45", "players": 2, "seats": ["bot:beginner"]}
    _, page = sit_down(new_page, site, "kim", options, "#r45[data-ready]")

    tab_to(page, "el.id === 'r45-ready'")
    page.keyboard.press("Enter")
    until(page, "r45.view.phase !== 'setup' || r45.view.ready[0]")
    view = my_turn(page)
    assert view["phase"] == "play"
    if not view["taken"]:  # the first player holds 15 and has nothing to draw
        page.keyboard.press("d")
        until(page, "r45.view.taken")
    seq = page.evaluate("r45.client.seq")

    tab_to(page, "el.closest('#r45-hand') && el.dataset.tile")
    first = focused_tile(page)
    page.keyboard.press("ArrowRight")
    tile = focused_tile(page)
    assert tile != first and page.locator(f"#r45-hand [data-tile='{tile}']").count() == 1
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#r45-hand .r45-selected[data-tile='{tile}']")
    page.keyboard.press("n")
    until(page, f"JSON.stringify(r45.drafts) === '[[{tile}]]'")
    page.keyboard.press("c")
    until(page, "r45.drafts.length === 0")
    # The hand was drawn anew each time: the keyboard's place stayed on the tile.
    page.wait_for_selector(f"#r45-hand [data-tile='{tile}']")
    assert focused_tile(page) == tile
    page.keyboard.press("x")
    page.wait_for_selector(f"#r45-hand .r45-selected[data-tile='{tile}']")
    page.keyboard.press("q")
    until(page, f"r45.client.seq > {seq}")
    events = page.evaluate(f"r45.client.events({seq})")["events"]
    laid = [e["event"] for e in events if e["event"]["kind"] == "Discarded"]
    assert laid and laid[0]["seat"] == 0 and laid[0]["tile"] == tile, events
    assert page.locator("#r45-error").inner_text() == ""
