"""A level-1 puzzle on the real site, played on the game board by mouse (issue 7).

Puzzle l01-002 of the shipped fixture: table B4 R4 Y4 · B1 B2 B3 · Y5-Y9, rack B4; the blue 4
belongs after B3. The engine on the server judges every submission.
"""

from __future__ import annotations

import urllib.request
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, call, shoot
from .helpers import drag, edge, rack_codes, table_codes, tile

pytestmark = pytest.mark.browser

SLUG = "l01-002"


@pytest.fixture(scope="module")
def puzzles(site: str) -> str:
    call(f"{site}/__test__/puzzles")
    return site


def open_puzzle(new_page: Any, site: str, slug: str = SLUG) -> Any:
    page = new_page()
    with page.expect_response(lambda r: r.url.endswith("/attempt")) as started:
        page.goto(f"{site}/puzzles/{slug}/")
        page.wait_for_selector("#rummi[data-ready]")
    assert started.value.status in (200, 201)
    return page


def test_it_solves_a_puzzle_by_dragging_and_shows_the_engines_sentence_when_wrong(
    new_page: Any, puzzles: str
) -> None:
    page = open_puzzle(new_page, puzzles)
    assert "Level 1" in page.locator(".pz-level").inner_text()
    assert page.locator(".pz-goal").inner_text() == "Put down your rack tile."
    assert "run takes the next tile" in page.locator(".pz-lesson").inner_text()
    assert rack_codes(page) == ["B4"]

    # Wrong: the blue 4 on the yellow run. The board lets it go to the server, which refuses.
    drag(page, tile(page, "blue 4", ".rm-rack"), edge(tile(page, "yellow 9", ".rm-table"), "right"))
    assert "B4" in table_codes(page)[2]
    with page.expect_response(lambda r: r.url.endswith("/submit")) as answer:
        page.keyboard.press("Space")
    assert answer.value.status == 422
    refusal = answer.value.json()
    assert refusal["error"] == "meld_invalid"
    message = page.locator('.rm-message[data-kind="error"]')
    assert message.inner_text() == refusal["message"]

    # Undo (Z) puts the tile back on the rack; then the right place, after the blue 3.
    page.keyboard.press("z")
    assert rack_codes(page) == ["B4"]
    drag(page, tile(page, "blue 4", ".rm-rack"), edge(tile(page, "blue 3", ".rm-table"), "right"))
    assert table_codes(page)[1] == ["B1", "B2", "B3", "B4"]
    assert rack_codes(page) == []
    with page.expect_response(lambda r: r.url.endswith("/submit")) as answer:
        page.keyboard.press("Space")
    assert answer.value.status == 200
    assert answer.value.json()["solved"] is True
    page.wait_for_selector("#rummi[data-solved]")
    assert page.locator(".rm-turn").inner_text() == "Solved!"
    assert page.locator(".rm-message").inner_text().startswith("Solved in")
    assert page.locator('[data-act="end"]').is_disabled()
    shoot(page, "puzzle-solved.png")


def test_it_gives_a_hint_and_shows_the_solution_on_giving_up(new_page: Any, puzzles: str) -> None:
    page = open_puzzle(new_page, puzzles, "l01-003")
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.locator('[data-act="hint"]').click()
    assert answer.value.ok
    # The answer has arrived; give the page its moment to show it.
    page.wait_for_function("document.querySelector('.rm-message').innerText.startsWith('Hint:')")
    assert page.locator(".tile.hinted").count() >= 1
    # Giving up asks first and says what it costs; the second press gives up.
    page.locator('[data-act="give-up"]').click()
    page.wait_for_function("document.querySelector('.rm-message').innerText.startsWith('Give up')")
    assert "rating point" in page.locator(".rm-message").inner_text()
    with page.expect_response(lambda r: r.url.endswith("/give-up")) as answer:
        page.locator('[data-act="give-up"]').click()
    solution = answer.value.json()["solution"]
    page.wait_for_selector("#rummi[data-gave-up]")
    assert sorted(map(sorted, table_codes(page))) == sorted(map(sorted, solution))
    assert rack_codes(page) == []
    assert page.locator('[data-act="end"]').is_disabled()


def test_the_daily_board_is_drawn_again_with_profile_links(new_page: Any, puzzles: str) -> None:
    """After a give-up (or a solve) the daily page draws its leaderboard again from the daily
    API: each name links to its profile after its avatar, and a name is text, never HTML
    (issue 19). The API's answer is stood in for, to hold a name no account could take."""
    board = {
        "date": "2027-03-14",
        "leaderboard": [
            {"rank": 1, "name": "<b>ann</b>", "username": "ann", "seconds": 3.2, "hints": 0},
            {"rank": 2, "name": "ben", "username": "ben", "seconds": 9.0, "hints": 1},
        ],
        "streak": 0,
        "solved": False,
    }
    for name in ("ann", "ben"):  # the accounts, so their avatars are drawn
        urllib.request.urlopen(f"{puzzles}/__test__/login/{name}/", timeout=20).close()
    page = new_page()
    page.route("**/puzzles/api/daily", lambda route: route.fulfill(json=board))
    page.goto(f"{puzzles}/puzzles/daily/")
    page.wait_for_selector("#rummi[data-ready]")
    page.locator('[data-act="give-up"]').click()
    page.wait_for_function("document.querySelector('.rm-message').innerText.startsWith('Give up')")
    page.locator('[data-act="give-up"]').click()
    page.wait_for_selector("#rummi[data-gave-up]")
    links = page.locator("#daily-leaderboard td a.player-link")
    links.nth(1).wait_for()
    assert [links.nth(i).get_attribute("href") for i in range(2)] == ["/@/ann/", "/@/ben/"]
    assert links.nth(0).inner_text() == "<b>ann</b>"
    assert page.locator("#daily-leaderboard b").count() == 0
    assert links.nth(1).locator("img.avatar").get_attribute("src") == "/@/ben/avatar.svg"
    rows = page.locator("#daily-leaderboard tr")
    assert rows.nth(2).locator("td").all_inner_texts() == ["2", "ben", "9 s", "1"]
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.locator("#daily-leaderboard").scroll_into_view_if_needed()
        shoot(page, f"daily-board-{viewport['width']}.png")
