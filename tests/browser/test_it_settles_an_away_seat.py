"""A seat that timed out three turns in a row is away (issue 18, games/services.py
away_seats): the other player's board asks whether to play on against a bot in that seat or
to end the game, scored as the away player's resignation (POST /api/games/<gid>/away).

Bob never comes to the table: his clock is run out through the service (the test endpoint
``__test__/expire`` calls services.timeout, as the sweeper does); Alice draws in between.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import call, shoot
from .helpers import rack_codes

pytestmark = pytest.mark.browser


def wait_turn(page: Any, seat: int) -> None:
    page.wait_for_function(f"rummi.board.view.turn === {seat}", timeout=10_000)


def alice_with_bob_away(new_page: Any, site: str) -> tuple[Any, str]:
    game = call(f"{site}/__test__/games", {"players": ["alice", "bob"]})
    page = new_page()
    page.goto(f"{site}/__test__/login/alice/?next={game['url']}")
    page.wait_for_selector("#rummi[data-ready]")
    page.wait_for_function("rummi.client.socket && rummi.client.socket.readyState === 1")
    prompt = page.locator(".rm-away")
    if page.evaluate("rummi.board.view.turn") == 0:  # the deal chose Alice to start
        page.locator('[data-act="draw"]').click()
    for missed in range(1, 4):
        wait_turn(page, 1)
        assert call(f"{site}/__test__/expire/{game['gid']}")["timed_out"] is True
        wait_turn(page, 0)
        if missed < 3:
            assert prompt.is_hidden(), f"no prompt after {missed} timeouts"
            page.locator('[data-act="draw"]').click()
    prompt.wait_for()
    assert "bob has timed out three turns in a row" in prompt.inner_text()
    return page, game["gid"]


def test_it_puts_a_bot_in_the_away_seat_and_the_game_goes_on(new_page: Any, site: str) -> None:
    page, _ = alice_with_bob_away(new_page, site)
    shoot(page, "away-prompt-1280.png")
    with page.expect_response(lambda r: r.url.endswith("/away") and r.request.method == "POST"):
        page.locator('[data-away="bot"]').click()
    page.locator(".rm-away").wait_for(state="hidden")
    # Alice draws; the bot in Bob's seat takes its turn at once and it is Alice's again. Its
    # turn can come in the same frame as her draw, so wait for the turn count to pass both
    # turns rather than to catch Bob's turn on the board.
    size = len(rack_codes(page))
    turn = page.evaluate("rummi.board.view.turn_number")
    page.locator('[data-act="draw"]').click()
    page.wait_for_function(
        f"rummi.board.view.turn_number >= {turn + 2} && rummi.board.view.turn === 0",
        timeout=30_000,
    )
    assert len(rack_codes(page)) == size + 1
    assert page.evaluate("rummi.board.view.finished") in (False, None)
    assert page.locator(".rm-away").is_hidden(), "a bot seat is never away"


def test_it_ends_the_game_as_the_away_players_resignation(new_page: Any, site: str) -> None:
    page, gid = alice_with_bob_away(new_page, site)
    with page.expect_response(
        lambda r: r.url.endswith("/away") and r.request.method == "POST"
    ) as answer:
        page.locator('[data-away="end"]').click()
    assert answer.value.ok, answer.value.text()
    end = page.locator(".rm-end")
    end.wait_for()
    # The scorecard from the end API replaces the frame's summary once it has answered.
    page.wait_for_selector("#rummi[data-ended]")
    assert "bob (resigned)" in end.inner_text()
    page.wait_for_function("rummi.board.view.finished === true")
    shoot(page, "away-ended-1280.png")
    # The server agrees: the game is over and its record says Bob resigned.
    record = page.request.get(f"{page.url.split('/g/')[0]}/api/games/{gid}").json()
    assert record["status"] == "finished"
