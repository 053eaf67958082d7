"""A table waiting for players is closed by its creator from the waiting page, and the player
who joined it, waiting on that page, is told at once over its socket
(docs/design.md "Waiting tables"); the creator, back in the parlor, is told too. Before that,
the creator's page shows the guest sit down as soon as they do."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_creator_closes_the_table_and_the_joined_player_is_told(
    new_page: Any, site: str
) -> None:
    host = new_page()
    host.goto(f"{site}/__test__/login/closer/?next=/")
    host.select_option("#mode", "parlor")
    host.select_option("#players", "3")
    host.click("#new-game button[type=submit]")
    host.wait_for_url("**/g/*/")
    assert "Unfilled, the table closes at" in host.locator(".waiting-intro").inner_text()
    link = host.locator("#invite-1").input_value()
    host.wait_for_selector("html[data-live=open]")

    guest = new_page()
    guest.goto(link)
    guest.fill("input[name=name]", "Wanda")
    guest.click("form.join button[type=submit]")
    guest.wait_for_url("**/g/*/")
    guest.wait_for_selector("html[data-live=open]")
    assert guest.get_by_role("button", name="Leave this table").is_visible()
    # The creator's page shows the guest seated at once (a seats note on its socket), well
    # before its own 30 s reload.
    host.locator(".seat-list li", has_text="Seat 2: Wanda").wait_for(timeout=15_000)
    assert host.locator(".seat-list").inner_text().count("open") == 1

    # On a phone the waiting page keeps its button and closing time on the screen.
    host.set_viewport_size({"width": 390, "height": 844})
    close = host.get_by_role("button", name="Close this table")
    box = close.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert host.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(host, "waiting-table-390.png")
    close.click()
    host.wait_for_url(f"{site}/")
    assert "You closed the table." in host.locator(".messages").inner_text()

    note = guest.locator(".closed-note")
    note.wait_for(state="visible")
    assert "by the player who made it" in note.inner_text()
    assert "the table was closed" in guest.locator(".waiting-title").inner_text()
    assert guest.locator(".seat-list").count() == 0
    assert guest.get_by_text("Invite links").count() == 0
    shoot(guest, "waiting-table-closed-1280.png")
    # Its address says the same from now on.
    guest.reload()
    assert "The table was closed" in guest.locator("h1").inner_text()
