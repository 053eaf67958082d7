"""The end of a game and the clock say plainly what a player needs (issue 28), on the dev
harness's board (static/games/dev/): a three-round scorecard for four fits the end dialog at
1280 px and scrolls sideways on a phone, its names are never cut with an ellipsis, the rating
changes sit on each line; and the side that waits in a correspondence game sees whose turn it
is and how long the mover has left."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import PHONE

pytestmark = pytest.mark.browser

# The shape of GET /api/games/<gid>/end (docs/api.md) after three rounds, four players.
CARD = """(() => {
  const line = (seat, name, place, extra = {}) => ({seat, name, username: null, place,
    total: 40 - place * 30, rounds: [12, -30, 58], melds_laid: 7, tiles_played: 21,
    jokers_played: 1, average_turn_seconds: 23.4, went_out: place === 1, resigned: false,
    ...extra});
  const scorecard = [line(1, "Bartholomew Fitzwilliam", 2), line(0, "Alice", 3, {resigned: true}),
    line(2, "Carol", 1), line(3, "Gina Lollobrigida", 4)];
  const changes = new Map([[0, {text: "−8", rated: true, delta: -8}],
    [2, {text: "+12", rated: true, delta: 12}], [1, {text: "unrated: casual game", rated: false}]]);
  rummi.ui.showScores("Round 3", [], () => "", false);
  rummi.ui.showEnd(
    {scorecard, links: {replay: "#r", record: "#c", verify: "#v"}, rematch: {can_offer: true}},
    {title: "You resigned: place 3 of 4", changes});
})()"""

MEASURE = """() => {
  const wrap = document.querySelector(".rm-end .rm-scores-wrap");
  const names = [...wrap.querySelectorAll("tbody th")];
  return {
    scroll: wrap.scrollWidth, client: wrap.clientWidth, overflow: getComputedStyle(wrap).overflowX,
    cut: names.filter((th) => th.scrollWidth > th.clientWidth + 1
      || getComputedStyle(th).textOverflow === "ellipsis").map((th) => th.textContent),
    heads: [...wrap.querySelectorAll("thead th")].map((th) => th.textContent),
    names: names.map((th) => th.textContent),
    rows: [...wrap.querySelectorAll("tbody tr")].map((tr) => tr.textContent),
  };
}"""


def test_a_three_round_scorecard_shows_every_column_and_whole_names(
    new_page: Any, harness: str
) -> None:
    page = new_page()
    page.goto(harness)
    page.wait_for_selector("#rummi[data-ready]")
    page.evaluate(CARD)
    seen = page.evaluate(MEASURE)
    # The rating change sits beside the total (a phone shows it before the card scrolls).
    assert seen["heads"][-6:] == ["Total", "Rating", "Melds", "Tiles", "Jokers", "Turn"]
    # At 1280 px every column is in view: nothing to scroll to, nothing cut.
    assert seen["scroll"] <= seen["client"], seen
    assert seen["cut"] == [], seen
    # In place order, each line with its rating change (or why it was not rated).
    assert seen["names"] == [
        "Carol",
        "Bartholomew Fitzwilliam",
        "Alice (resigned)",
        "Gina Lollobrigida",
    ]
    assert "+12" in seen["rows"][0] and "unrated: casual game" in seen["rows"][1]
    assert "−8" in seen["rows"][2] and "(resigned)" in seen["rows"][2]
    assert page.locator("#rm-end-title").inner_text() == "You resigned: place 3 of 4"

    # On a phone the card scrolls sideways to its last column, names still whole.
    page.set_viewport_size(PHONE)
    seen = page.evaluate(MEASURE)
    assert seen["overflow"] == "auto" and seen["scroll"] > seen["client"], seen
    assert seen["cut"] == [], seen
    wrap = page.locator(".rm-end .rm-scores-wrap")
    wrap.evaluate("(w) => { w.scrollLeft = w.scrollWidth; }")
    last = page.locator(".rm-end .rm-scores thead th").last.bounding_box()
    box = wrap.bounding_box()
    assert last is not None and box is not None
    assert last["x"] + last["width"] <= box["x"] + box["width"] + 1


def test_the_waiting_side_sees_whose_turn_and_the_movers_time_left(
    new_page: Any, harness: str
) -> None:
    page = new_page()
    # Bob Marley (seat 1) to move in a correspondence game of three days a move.
    page.goto(f"{harness}?scenario=midgame&turn=1&correspondence&clock=259200&botDelay=600000")
    page.wait_for_selector("#rummi[data-ready]")
    page.wait_for_function("document.querySelector('.rm-left').textContent !== ''")
    status = page.locator(".rm-status").inner_text()
    assert status.startswith("Bob Marley is playing"), status
    assert re.search(r"· (3d 0h|2d 23h) left", status), status
