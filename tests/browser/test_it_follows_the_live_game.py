"""The live connection: frames move the board on, a missed frame is noticed and fetched."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_it_fetches_the_state_when_a_frame_was_missed(new_page: Any, harness: str) -> None:
    page = new_page()
    # gap=1: the harness drops every frame whose first event has a seq divisible by 3.
    page.goto(harness + "?scenario=midgame&turn=1&gap=1&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    page.wait_for_function("rummi.client.socket !== null")
    page.evaluate("mock.botMove()")  # seq 2: Bob draws, heard
    page.wait_for_function("rummi.client.seq === 2")
    page.evaluate("mock.botMove()")  # seq 3: Carol draws, dropped
    page.wait_for_timeout(100)
    assert page.evaluate("rummi.client.seq") == 2
    assert page.evaluate("mockRequests.filter(r => r.method === 'GET').length") == 0
    page.evaluate("mock.broadcast([{kind: 'Passed', seat: 0, turn: 99}])")  # seq 4
    page.wait_for_function("rummi.client.seq === 4")
    assert page.evaluate("mockRequests.filter(r => r.method === 'GET').length") >= 1
    assert page.locator(".rm-turn").text_content() == "Your turn"
    assert page.locator(".rm-player").nth(2).locator(".rm-pcount b").text_content() == "13"


def test_it_reconnects_after_the_socket_drops(new_page: Any, harness: str) -> None:
    page = new_page()
    page.goto(harness + "?scenario=midgame&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    page.wait_for_function("rummi.client.socket !== null")
    page.evaluate("rummi.client.socket.close()")
    page.wait_for_function("document.querySelector('#rummi').classList.contains('rm-offline')")
    page.wait_for_function("rummi.client.socket !== null", timeout=5000)
    page.wait_for_function("!document.querySelector('#rummi').classList.contains('rm-offline')")


def test_it_shows_the_scores_between_rounds(new_page: Any, harness: str) -> None:
    page = new_page()
    page.goto(harness + "?scenario=midgame&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    page.wait_for_function("rummi.client.socket !== null")
    page.evaluate(
        """() => {
            mock.state.scores = [[-10, 15, -5]];
            mock.state.totals = [-10, 15, -5];
            mock.state.round = 2;
            const end = {kind: "RoundEnded", round: 1, reason: "going_out", winners: [1]};
            mock.broadcast([{...end, scores: [-10, 15, -5], racks: []}]);
        }"""
    )
    card = page.locator(".rm-end")
    card.wait_for()
    assert card.locator("h2").text_content() == "Round 1: Bob Marley went Rummi!"
    assert card.locator("tr.won th").text_content() == "Bob Marley"
    assert card.locator("a.rm-primary").is_hidden(), "the match goes on"
    card.get_by_role("button", name="Next round").click()
    assert card.is_hidden()
