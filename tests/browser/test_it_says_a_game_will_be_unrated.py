"""Two players who have played three rated games together today, the limit of
docs/fair-play.md "Rated games between the same players": before their next game starts, the
invite page and the seek panel say it will be unrated, the board says so above the table, and
its end says "unrated" and why. The leaderboard states what it takes to be listed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import call, shoot

pytestmark = pytest.mark.browser

GAME = re.compile(r"/g/[\w-]+/$")


def seek(page: Any) -> None:
    page.locator("#seek-mode").select_option(label="Parlor League")
    page.locator("#seek-players").select_option("2")
    page.locator("#seek-go").click()


def test_the_pages_say_unrated_before_the_game_starts(new_page: Any, site: str) -> None:
    for _ in range(3):
        game = call(
            site + "/__test__/games",
            {"players": ["pairone", "pairtwo"], "options": {"rated": True}},
        )
        call(site + f"/__test__/resign/{game['gid']}/pairtwo")

    # An invite to pairone's rated duel: pairtwo reads it before taking the seat.
    waiting = call(
        site + "/__test__/games",
        {"players": ["pairone"], "options": {"players": 2, "rated": True}},
    )
    second = new_page()
    second.goto(f"{site}/__test__/login/pairtwo/?next={waiting['invites'][0]}")
    notice = second.locator("[data-unrated-notice]")
    expect(notice).to_contain_text(
        "Unrated: you have played pairone three times in 24 h in this pool, so this game will "
        "be unrated."
    )
    expect(second.get_by_role("button", name="Take my seat")).to_be_visible()
    shoot(second, "join-unrated-1280x800.png")

    # pairone closes that table (a person waits at one live table at a time: docs/fair-play.md),
    # then reads the seek panel, before any seek, for the pool chosen: not for a table of three.
    first = new_page()
    first.goto(f"{site}/__test__/login/pairone/?next={waiting['url']}")
    first.get_by_role("button", name="Close this table").click()
    first.wait_for_url(f"{site}/")
    first.locator("#seek-mode").select_option(label="Parlor League")
    first.locator("#seek-players").select_option("2")
    said = first.locator("#seek-unrated [data-unrated-notice]")
    expect(said).to_have_text(
        "Unrated: you have played pairtwo three times in 24 h in this pool, so a game with "
        "them here is unrated."
    )
    first.locator("#seek-players").select_option("3")
    expect(said).to_have_count(0)
    first.locator("#seek-players").select_option("2")
    expect(said).to_be_visible()
    first.locator("#seek-panel").scroll_into_view_if_needed()
    shoot(first, "seek-unrated-1280x800.png")

    # Both seek; their ratings are far apart now, so their seeks meet once their windows
    # have widened (as after a wait), at beat's match.
    seek(first)
    first.locator("#seek-status").filter(has_text="Seeking").wait_for()
    second.goto(f"{site}/")
    seek(second)
    second.locator("#seek-status").filter(has_text="Seeking").wait_for()
    assert call(site + "/__test__/seek/pairtwo/waited", {"seconds": 600})["made"] == 0
    assert call(site + "/__test__/seek/pairone/waited", {"seconds": 600})["made"] == 1
    first.wait_for_url(GAME)
    second.wait_for_url(GAME)
    assert first.url == second.url
    second.wait_for_selector("#rummi[data-ready]")
    banner = second.locator("[data-unrated-notice]")
    expect(banner).to_have_text(
        re.compile(r"^Unrated: you had played pairone three times in 24 h in this pool\.")
    )
    assert banner.bounding_box()["y"] < second.locator("#rummi").bounding_box()["y"]
    shoot(second, "board-unrated-1280x800.png")

    # Its end: "unrated" and why, never "+0", on the board that is up when the game ends.
    first.wait_for_selector("#rummi[data-ready]")
    gid = first.url.rstrip("/").split("/")[-1]
    call(site + f"/__test__/resign/{gid}/pairtwo")
    end = first.locator(".rm-end")
    expect(end).to_be_visible()
    cells = end.locator(".rm-rating.unrated")
    expect(cells).to_have_count(2)
    expect(cells.first).to_contain_text("pairone and pairtwo had played each other three times")
    assert "+0" not in end.inner_text()
    shoot(first, "end-unrated-1280x800.png")

    # The leaderboard says what it takes to be listed.
    first.goto(f"{site}/leaderboard/")
    rule = first.locator("#board-rule")
    expect(rule).to_contain_text("10 rated games against 5 different opponents")
    expect(rule).to_be_visible()
    shoot(first, "leaderboard-rule-1280x800.png")
