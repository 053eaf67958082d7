"""Two signed-in players seek the same rated game from the lobby, one of them on a phone: the
first waits (the lobby says so, and counts them), the second's seek seats them both, and both
browsers land on the same board (the first by polling GET /api/seek). A player alone who lets
bots fill the table lands, after the wait, in a game with bot seats."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, call, shoot

pytestmark = pytest.mark.browser


def seek(page: Any, mode: str, bots: str = "", players: str = "") -> None:
    page.locator("#seek-mode").select_option(label=mode)
    if players:
        page.locator("#seek-players").select_option(players)
    page.locator("#seek-bots").select_option(bots)
    page.locator("#seek-go").click()


def test_two_seekers_land_in_the_same_game(new_page: Any, site: str) -> None:
    first = new_page(PHONE)
    first.goto(f"{site}/__test__/login/seeker1/?next=/")
    panel = first.locator("#seek-panel")
    assert panel.get_by_role("heading", name="Find a rated game").is_visible()
    assert panel.get_by_label("Fill with bots after").is_visible()

    seek(first, "Rummy Rush")
    status = first.locator("#seek-status")
    status.filter(has_text="Seeking (rating 1000, within ±100)").wait_for()
    first.locator("#seek-cancel").wait_for(state="visible")
    assert first.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    panel.scroll_into_view_if_needed()
    shoot(first, "seek-390x844.png")

    second = new_page()
    second.goto(f"{site}/__test__/login/seeker2/?next=/")
    counts = second.locator("#seek-counts")
    assert "1 player seeking Rummy Rush, 2 players" in counts.inner_text()
    seek(second, "Rummy Rush")

    second.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    first.wait_for_url(re.compile(r"/g/[\w-]+/$"), timeout=8000)
    assert first.url == second.url
    for page in (first, second):
        page.wait_for_selector("#rummi[data-ready]")
    shoot(second, "seek-matched-1280x800.png")
    expect(second.locator(".rm-players")).to_contain_text("seeker1")
    expect(second.locator(".rm-players")).to_contain_text("seeker2")

    # Back in the lobby nobody is seeking any more, and the panel links the game just found.
    first.goto(f"{site}/")
    assert "Nobody is seeking right now." in first.locator("#seek-counts").inner_text()
    link = first.locator("#seek-status a")
    assert link.get_attribute("href") == second.url.removeprefix(site)


def test_a_seek_can_be_cancelled(new_page: Any, site: str) -> None:
    page = new_page()
    page.goto(f"{site}/__test__/login/seeker3/?next=/")
    seek(page, "Parlor League", bots="300")
    page.locator("#seek-status").filter(has_text="Bots fill the table after 300 s").wait_for()
    # Beside Cancel, the form's button changes the open seek: it does not seek "again".
    expect(page.locator("#seek-go")).to_have_text("Update seek")

    page.locator("#seek-cancel").click()

    page.locator("#seek-cancel").wait_for(state="hidden")
    expect(page.locator("#seek-go")).to_have_text("Seek")
    assert page.locator("#seek-status").inner_text() == ""
    page.reload()
    assert "Nobody is seeking right now." in page.locator("#seek-counts").inner_text()


def test_bots_fill_a_seek_after_its_wait(new_page: Any, site: str) -> None:
    page = new_page()
    page.goto(f"{site}/__test__/login/seeker5/?next=/")
    seek(page, "Rummy 45", bots="30", players="3")
    status = page.locator("#seek-status")
    status.filter(has_text="waiting for 2 more players. Bots fill the table after 30 s").wait_for()
    expect(page.locator("#seek-counts")).to_contain_text("1 player seeking Rummy 45, 3 players")
    page.locator("#seek-panel").scroll_into_view_if_needed()
    shoot(page, "seek-bots-waiting-1280x800.png")

    # Nobody else seeks. The 30 s pass at once (the seek is moved back in time, not slept
    # through) and beat's match seats the table with bots; the page's poll takes it there.
    assert call(f"{site}/__test__/seek/seeker5/waited", {"seconds": 31}) == {"moved": 1, "made": 1}
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"), timeout=8000)
    page.wait_for_selector("#r45[data-ready]")
    view = page.evaluate("r45.view")
    assert view["players"] == 3 and view["seat"] == 0
    # The bots readied themselves at once (Rummy 45 bots); the seeker is the one to act.
    assert view["ready"][1:] == [True, True] and view["to_act"] == [0]
    players = page.locator("#r45-players")
    expect(players).to_contain_text("seeker5 (you)")
    expect(players).to_contain_text("Casual bot 1")
    expect(players).to_contain_text("Casual bot 2")
    shoot(page, "seek-bots-matched-1280x800.png")

    game = page.url.removeprefix(site)
    page.goto(f"{site}/")
    assert "Nobody is seeking right now." in page.locator("#seek-counts").inner_text()
    assert page.locator("#seek-status a").get_attribute("href") == game
