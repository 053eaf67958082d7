"""Undo, reset, draw and end turn: buttons and keys (seed 001), with the service's answers.

The dev harness's opening deal gives seat 0 R10 R11 R12 (33 points) among 14 tiles."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .helpers import drag, edge, rack_codes, table_codes, tile

pytestmark = pytest.mark.browser

OPENING = "?scenario=opening&botDelay=600000"
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def open_board(new_page: Any, harness: str, query: str) -> Any:
    page = new_page()
    page.goto(harness + query)
    page.wait_for_selector("#rummi[data-ready]")
    return page


def lay_opening(page: Any) -> None:
    table = page.locator(".rm-table").bounding_box()
    drag(page, tile(page, "red 10", ".rm-rack"), (table["x"] + 100, table["y"] + 100))
    drag(page, tile(page, "red 11", ".rm-rack"), edge(tile(page, "red 10", ".rm-table"), "right"))
    drag(page, tile(page, "red 12", ".rm-rack"), edge(tile(page, "red 11", ".rm-table"), "right"))


def test_it_counts_the_initial_meld_and_undoes_and_resets(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness, OPENING)
    end, draw = page.locator('[data-act="end"]'), page.locator('[data-act="draw"]')
    assert page.locator(".rm-opening-text").text_content() == "Initial meld 0 / 30"
    assert end.is_disabled() and draw.is_enabled()
    lay_opening(page)
    assert table_codes(page) == [["R10", "R11", "R12"]]
    assert page.locator(".rm-opening-text").text_content() == "Initial meld 33 / 30"
    assert end.is_enabled() and draw.is_disabled()

    page.keyboard.press("z")
    assert table_codes(page) == [["R10", "R11"]]
    assert "R12" in rack_codes(page)
    assert end.is_disabled()
    page.locator('[data-act="undo"]').click()
    assert table_codes(page) == [["R10"]]

    page.keyboard.press("r")
    assert table_codes(page) == []
    assert len(rack_codes(page)) == 14
    assert draw.is_enabled()

    lay_opening(page)
    page.locator('[data-act="reset"]').click()
    assert table_codes(page) == []


def test_it_ends_the_turn_with_space_sending_the_table(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness, OPENING)
    lay_opening(page)
    page.keyboard.press("Space")
    page.wait_for_function("rummi.board.view.turn === 1")
    request = page.evaluate("mockRequests.find(r => r.path.endsWith('/play'))")
    assert request["method"] == "POST"
    assert request["headers"]["X-CSRFToken"] == "dev-csrf-token"
    assert request["body"]["expected_seq"] == 1
    assert UUID.match(request["body"]["key"])
    codes = page.evaluate("rummi.board.codes")
    assert [[codes[i] for i in meld] for meld in request["body"]["table"]] == [
        ["R10", "R11", "R12"]
    ]
    assert page.locator(".rm-turn").text_content().startswith("Bob Marley is playing")
    assert page.locator('[data-act="end"]').is_disabled()


def test_it_refuses_to_end_an_invalid_turn(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness, OPENING)
    table = page.locator(".rm-table").bounding_box()
    drag(page, tile(page, "black 5", ".rm-rack"), (table["x"] + 100, table["y"] + 100))
    drag(page, tile(page, "blue 5", ".rm-rack"), edge(tile(page, "black 5", ".rm-table"), "right"))
    drag(page, tile(page, "yellow 5", ".rm-rack"), edge(tile(page, "blue 5", ".rm-table"), "right"))
    assert page.locator(".rm-opening-text").text_content() == "Initial meld 15 / 30"
    page.keyboard.press("Space")
    assert page.locator(".rm-message").text_content() == (
        "Your initial meld is worth 15; it must be worth at least 30."
    )
    assert not page.evaluate("mockRequests.some(r => r.path.endsWith('/play'))")


def test_it_draws_and_sorts_the_rack(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness, "?scenario=midgame&botDelay=600000")
    page.locator('[data-act="sort-number"]').click()
    numbers = [int(code[1:]) for code in rack_codes(page) if code != "J"]
    assert numbers == sorted(numbers)
    page.locator('[data-act="sort-colour"]').click()
    colours = [code[0] for code in rack_codes(page)]
    assert colours == sorted(colours, key="KBRY".index)
    page.locator('[data-act="draw"]').click()
    page.wait_for_function("rummi.board.view.turn === 1")
    assert len(rack_codes(page)) == 15
    assert page.locator(".rm-rack .tile.fresh").count() == 1


def test_it_shows_the_servers_sentence_when_it_refuses_a_turn(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness, "?scenario=midgame&reject=1&botDelay=600000")
    drag(page, tile(page, "red 7", ".rm-rack"), edge(tile(page, "red 6", ".rm-table"), "right"))
    page.keyboard.press("Space")
    message = page.locator('.rm-message[data-kind="error"]')
    message.wait_for()
    assert message.text_content().startswith("A table joker stood for Y3")
    assert table_codes(page)[0] == ["R3", "R4", "R5", "R6", "R7"], "the draft is kept"


def test_it_resyncs_from_a_stale_answer_and_then_plays(new_page: Any, harness: str) -> None:
    page = open_board(new_page, harness, "?scenario=midgame&botDelay=600000")
    drag(page, tile(page, "red 7", ".rm-rack"), edge(tile(page, "red 6", ".rm-table"), "right"))
    page.evaluate("mock.state.seq += 1")  # a change this page has not heard of
    page.keyboard.press("Space")
    page.wait_for_function("rummi.client.seq === mock.state.seq")
    assert "moved on" in page.locator(".rm-message").text_content()
    assert table_codes(page)[0] == ["R3", "R4", "R5", "R6", "R7"], "same turn, same table"
    page.keyboard.press("Space")
    page.wait_for_function("rummi.board.view.turn === 1")
    assert page.evaluate("mock.state.table.length") == 6
