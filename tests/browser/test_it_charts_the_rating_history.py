"""The profile's rating history is a real chart (static/players/rating-chart.js, drawn with
the vendored Chart.js): after ONE rated game it shows that game's point, with dated axes and
values; after several, a point per game that the mouse and the keyboard both reach, readable
on a phone, with a table of the same numbers for screen readers."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, call, shoot

pytestmark = pytest.mark.browser

CHART = """(canvas) => {
  const chart = Chart.getChart(canvas);
  const area = chart.chartArea;
  const points = chart.getDatasetMeta(0).data.map((p) => ({ x: p.x, y: p.y }));
  const x = chart.scales.x, y = chart.scales.y;
  return {
    points,
    inside: points.every((p) => p.x >= area.left && p.x <= area.right
      && p.y >= area.top && p.y <= area.bottom),
    xLabels: x.ticks.map((t) => x.getLabelForValue(t.value)),
    yTicks: y.ticks.length,
    xTitle: x.options.title.text,
    yTitle: y.options.title.text,
    active: chart.tooltip.getActiveElements().map((e) => e.index),
    width: canvas.getBoundingClientRect().width,
  };
}"""


def play(site: str, winner: str, loser: str, count: int) -> None:
    """``count`` rated games that ``loser`` resigns."""
    for _ in range(count):
        game = call(
            site + "/__test__/games", {"players": [winner, loser], "options": {"rated": True}}
        )
        call(site + f"/__test__/resign/{game['gid']}/{loser}")


def test_one_game_draws_its_point_on_a_phone(new_page: Any, site: str) -> None:
    play(site, "solo", "solofoe", 1)
    page = new_page(PHONE, touch=True)

    page.goto(f"{site}/@/solo/")

    box = page.locator("[data-rating-chart]")
    expect(box).to_have_attribute("data-drawn", "1")
    canvas = box.locator("canvas")
    drawn = canvas.evaluate(CHART)
    assert len(drawn["points"]) == 1 and drawn["inside"], drawn
    # One day's games: the axis title names the day, each point its time.
    assert re.fullmatch(r"Game finished, \d{4}-\d\d-\d\d", drawn["xTitle"]), drawn
    assert drawn["yTitle"] == "Rating"
    assert all(re.fullmatch(r"\d\d:\d\d", label) for label in drawn["xLabels"]), drawn
    assert drawn["xLabels"]
    assert drawn["yTicks"] >= 3
    assert drawn["width"] > 300
    caption = box.locator("figcaption").inner_text()
    assert "after 1 game" in caption and "1 games" not in caption
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The same numbers as a table, for screen readers (and pages without script).
    assert box.locator(".rating-table tbody tr").count() == 1
    shoot(page, "profile-one-game-390x844.png")


def test_several_games_reach_each_point_by_mouse_and_keyboard(new_page: Any, site: str) -> None:
    # Five rated games: at most three with one opponent a day, as
    # docs/fair-play.md "Rated games between the same players" says.
    play(site, "regular", "regularfoe", 3)
    play(site, "regular", "regularfoe2", 1)
    play(site, "regularfoe2", "regular", 1)
    page = new_page(DESKTOP)
    page.goto(f"{site}/@/regular/")
    box = page.locator("[data-rating-chart]")
    expect(box).to_have_attribute("data-drawn", "5")
    canvas = box.locator("canvas")
    drawn = canvas.evaluate(CHART)
    assert len(drawn["points"]) == 5 and drawn["inside"]
    xs = [p["x"] for p in drawn["points"]]
    assert xs == sorted(xs) and len(set(xs)) == 5

    # Keyboard: Tab reaches the chart, which says its last point; arrows walk the others.
    said = box.locator("[data-chart-focus]")
    page.locator(".player-card h1").click()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") == "CANVAS":
            break
    expect(said).to_contain_text("Game 5 of 5")
    assert canvas.evaluate(CHART)["active"] == [4]
    page.keyboard.press("ArrowLeft")
    expect(said).to_contain_text("Game 4 of 5")
    assert canvas.evaluate(CHART)["active"] == [3]
    page.keyboard.press("Home")
    expect(said).to_contain_text("Game 1 of 5")
    shoot(page, "profile-chart-focus-1280x800.png")

    # Hover: the mouse over the second point shows its tooltip.
    page.locator(".player-card h1").click()
    corner = canvas.bounding_box()
    second = drawn["points"][1]
    page.mouse.move(corner["x"] + second["x"], corner["y"] + second["y"])
    page.wait_for_function(
        "(c) => Chart.getChart(c).tooltip.getActiveElements().length === 1",
        arg=canvas.element_handle(),
    )
    assert canvas.evaluate(CHART)["active"] == [1]
    assert box.locator(".rating-table tbody tr").count() == 5
    shoot(page, "profile-chart-1280x800.png")
