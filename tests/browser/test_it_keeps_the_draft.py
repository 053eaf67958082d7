"""The draft turn survives a reload; a plan made while waiting (correspondence) is carried
onto the new table when the turn comes, or dropped when the table under it changed."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import drag, edge, rack_codes, table_codes, tile

pytestmark = pytest.mark.browser

PLANNING = "?scenario=midgame&turn=1&correspondence&botDelay=600000"


def open_board(page: Any, harness: str, query: str) -> None:
    page.goto(harness + query)
    page.wait_for_selector("#rummi[data-ready]")


def test_it_keeps_the_turn_through_a_reload(new_page: Any, harness: str) -> None:
    page = new_page()
    query = "?scenario=midgame&botDelay=600000"
    open_board(page, harness, query)
    drag(page, tile(page, "red 7", ".rm-rack"), edge(tile(page, "red 6", ".rm-table"), "right"))
    page.reload()
    page.wait_for_selector("#rummi[data-ready]")
    assert table_codes(page)[0] == ["R3", "R4", "R5", "R6", "R7"]
    assert "R7" not in rack_codes(page)
    page.keyboard.press("r")
    page.reload()
    page.wait_for_selector("#rummi[data-ready]")
    assert table_codes(page)[0] == ["R3", "R4", "R5", "R6"]


def plan_r7(page: Any) -> None:
    drag(page, tile(page, "red 7", ".rm-rack"), edge(tile(page, "red 6", ".rm-table"), "right"))
    assert table_codes(page)[0] == ["R3", "R4", "R5", "R6", "R7"]
    assert "plan" in page.locator(".rm-turn").text_content()


def test_it_carries_a_plan_onto_the_new_table(new_page: Any, harness: str) -> None:
    page = new_page()
    open_board(page, harness, PLANNING)
    plan_r7(page)
    # Bob lays a new meld elsewhere; Carol draws; the turn comes to us.
    page.evaluate(
        """() => {
            const s = mock.state;
            const inPool = (code) => s.pool.find((id) => mock.codes[id] === code);
            let ids = null;
            for (const c of "KBRY") for (let n = 1; n <= 11 && !ids; n++) {
                const run = [n, n + 1, n + 2].map((k) => inPool(c + k));
                if (run.every((id) => id !== undefined)) ids = run;
            }
            s.pool = s.pool.filter((id) => !ids.includes(id));
            s.table.push(ids);
            const played = {kind: "TilesPlayed", seat: 1, turn: s.turn_number, table: s.table};
            mock.advance([{...played, played: ids}]);
            mock.botMove();
        }"""
    )
    page.wait_for_function("rummi.board.myTurn")
    table = table_codes(page)
    assert table[0] == ["R3", "R4", "R5", "R6", "R7"]
    assert len(table) == 7
    assert page.locator(".rm-message").text_content() == (
        "Your planned move was carried over to the new table."
    )
    assert page.locator('[data-act="end"]').is_enabled()


def test_it_drops_a_plan_whose_table_tiles_moved(new_page: Any, harness: str) -> None:
    page = new_page()
    open_board(page, harness, PLANNING)
    plan_r7(page)
    # Bob adds to the very run the plan extends.
    page.evaluate(
        """() => {
            const s = mock.state;
            const id = s.racks[1].shift();
            s.table[0].unshift(id);
            const played = {kind: "TilesPlayed", seat: 1, turn: s.turn_number, table: s.table};
            mock.advance([{...played, played: [id]}]);
        }"""
    )
    page.wait_for_function("rummi.board.view.turn === 2")
    assert len(table_codes(page)[0]) == 5 and "R7" in rack_codes(page)
    assert "dropped" in page.locator(".rm-message").text_content()
