"""A rated Swiss where one account never opens its table
(docs/fair-play.md "Stand-ins, absence and aborts"): the player who came sees the other
scored "absent" on the scorecard, its rating "unrated (absent)"; the tournament's standings
say "absent" and "withdrawn"; the absent account's profile lists the game as absent, with no
trophy."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from .conftest import call, shoot

pytestmark = pytest.mark.browser


def seen(site: str, gid: str) -> list[str]:
    """The names of the table's seats whose page the site has heard from."""
    with urllib.request.urlopen(f"{site}/__test__/seen/{gid}", timeout=20) as answer:
        return list(json.loads(answer.read())["seen"])


def test_an_account_that_never_came_is_absent_on_the_scorecard_and_the_standings(
    site: str, new_page: Any
) -> None:
    made = call(
        f"{site}/__test__/tournament",
        {
            "name": "Absent Cup",
            "players": ["wren", "yuri"],
            "rated": True,
            "rounds": 1,
            "start": True,
        },
    )
    wren = new_page()
    wren.goto(f"{site}/__test__/login/wren/?next={made['url']}")
    table = wren.locator("#my-table a")
    table.wait_for()
    table.click()
    wren.wait_for_selector("#rummi.rummi")
    gid = wren.url.rstrip("/").split("/")[-1]
    # Wren's page has been heard from (its socket connected); yuri's never opens. Asked from
    # here: wait_for_function took an async predicate's promise for a true answer at once.
    until = time.monotonic() + 30
    while "wren" not in seen(site, gid) and time.monotonic() < until:
        time.sleep(0.2)
    assert seen(site, gid) == ["wren"]
    call(f"{site}/__test__/first-minute/{gid}")

    end = wren.locator("#rummi[data-ended] .rm-end")
    end.locator(".rm-home").wait_for(timeout=15_000)
    yuri_line = end.locator("tr:has-text('yuri')")
    assert "(absent)" in yuri_line.inner_text()
    wren.wait_for_function(
        "() => [...document.querySelectorAll('.rm-end tr')].some((tr) =>"
        " tr.textContent.includes('yuri') && tr.textContent.includes('unrated (absent)'))"
    )
    won = end.locator("tr.won").inner_text()
    assert won.startswith("wren") and "stand-in" not in won, "wren was there throughout"
    shoot(wren, "absent-scorecard.png")

    wren.goto(site + made["url"])
    yuri_row = wren.locator("#standings tbody tr:has-text('yuri')")
    text = yuri_row.inner_text()
    assert "(withdrawn)" in text and "(absent from 1 game)" in text
    assert wren.locator("#rounds .fair-play:has-text('absent')").count() == 1
    shoot(wren, "absent-standings.png")

    profile = new_page()
    profile.goto(f"{site}/@/yuri/")
    games = profile.locator(".players-games")
    assert "absent" in games.inner_text() and "unrated (absent)" in games.inner_text()
    assert profile.locator("ul.trophies").inner_text().strip() == "None yet."
    shoot(profile, "absent-profile.png")
