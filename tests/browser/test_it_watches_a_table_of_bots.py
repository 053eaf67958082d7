"""A signed-in player opens a table of Rummy 45 bots of each strength from the new-game form and
watches it to its end (issue #29, "Watch the bots"): the board shows every seat's bot and no
rack, meld builder or control of the watcher's, and the end says "Game over" with the bots'
places in order. On the test site bot turns run at once, so the table has often ended by the
time its page opens."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("strength", ["beginner", "casual", "strong", "master"])
def test_a_table_of_bots_of_each_strength_is_watched_to_its_end(
    new_page: Any, site: str, strength: str
) -> None:
    page = new_page()
    page.goto(f"{site}/__test__/login/watcher-{strength}/?next=/")
    page.select_option("#mode", "r45")
    page.select_option("#players", "3")
    page.select_option("#watch", strength)
    assert page.locator("fieldset.seats").is_hidden()  # every seat is a bot's
    page.click("#new-game button[type=submit]")
    page.wait_for_url("**/g/*/")
    page.wait_for_selector("#r45[data-ended]", timeout=60_000)
    # A watcher holds no tiles: no board of its own, no "+ new meld", no controls.
    assert page.locator(".r45-mine").is_hidden()
    assert page.get_by_text("+ new meld").is_hidden()
    dialog = page.locator("#r45-end")
    assert "Game over" in dialog.inner_text()
    rows = dialog.locator("#r45-scorecard tbody tr")
    assert rows.count() == 3
    names = [rows.nth(i).inner_text() for i in range(3)]
    assert all(f"{strength.title()} bot" in name for name in names), names
    places = [int(rows.nth(i).locator("td").first.inner_text()) for i in range(3)]
    assert places == sorted(places)
    if strength == "master":
        shoot(page, "r45-watched-bots-1280.png")
