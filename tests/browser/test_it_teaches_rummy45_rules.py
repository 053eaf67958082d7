"""The rules page's teaching replays in Chromium (issue 29, "Teach with them";
docs/rules-45.md "Teaching replays"): the Rummy 45 section links each rule's replay; the
replay opens a few steps before the moment, ▶ steps to it, the board shows what the sentence
says (a stitched 1 in the stitcher's take-back pile and the run's end turned over; a board
game's winner), and the page leads on to the next rule. At 1280 and 390 px wide nothing
scrolls sideways and axe-core finds no serious violation."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, shoot
from .test_it_walks_every_page import AXE, SERIOUS

pytestmark = pytest.mark.browser


def step_to_the_moment(page: Any) -> int:
    """Press ▶ until the replay stands at its moment; the presses it took."""
    replay = page.locator("#replay")
    moment = int(replay.get_attribute("data-moment"))
    assert replay.get_attribute("data-at") == "0"
    for press in range(1, moment + 1):
        assert page.locator("#replay-lesson").is_hidden()
        page.click("[data-step='1']")
        page.wait_for_function(f"document.getElementById('replay').dataset.at === '{press}'")
    return moment


def problems_at(page: Any) -> list[str]:
    width = page.viewport_size["width"]
    found = []
    wide = page.evaluate("document.documentElement.scrollWidth")
    if wide > page.evaluate("innerWidth"):
        found.append(f"scrolls sideways at {width} ({wide} px)")
    assert AXE.exists(), "axe-core is missing: run make axe"
    page.add_script_tag(path=str(AXE))
    found += [f"axe at {width}: {v}" for v in page.evaluate(SERIOUS)]
    return found


def test_the_rules_page_opens_a_stitched_1_and_steps_to_it(new_page: Any, site: str) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto(site + "/how-to-play/")
    links = page.locator("#r45-replays + dd a[data-lesson]")
    assert links.count() == 4
    page.click("a[data-lesson='stitched-one']")
    page.wait_for_url("**/how-to-play/r45/stitched-one/")
    page.wait_for_selector("#replay[data-at]")
    assert page.locator("h1").inner_text() == "A stitched 1 taken back"
    before = page.locator("#replay-table .mini-tile.turned").count()
    assert before == 0

    step_to_the_moment(page)

    lesson = page.locator("#replay-lesson")
    assert lesson.is_visible()
    assert "take-back pile" in lesson.inner_text()
    label = page.locator("#replay-label").inner_text()
    assert "stitched K1" in label
    # Rummy 45 draws from the stock (docs/rules-45.md "Teaching replays"), not Rummikub's pool.
    assert " · stock " in label and "pool" not in label
    turned = page.locator("#replay-table .mini-tile.turned")
    assert turned.count() == 1
    assert turned.get_attribute("aria-label") == "K13, turned over"
    ana = page.locator("#replay-racks .mini-rack").first
    assert ana.inner_text().startswith("Ana")
    assert ana.locator(".takebacks .mini-tile").get_attribute("aria-label") == "K1"
    assert not problems_at(page)
    shoot(page, "teach-stitched-one-1280.png")

    page.click("[data-step='1']")
    assert lesson.is_hidden()
    assert page.locator("#replay-table .mini-tile.turned").count() == 1  # the end stays closed

    page.click("a[data-next]")
    page.wait_for_url("**/how-to-play/r45/board-game/")
    page.wait_for_selector("#replay[data-at='0']")
    page.click("a[data-jump]")
    page.wait_for_function("!document.getElementById('replay-lesson').hidden")
    assert "went out on the board" in page.locator("#replay-label").inner_text()
    assert "goes out on the board" in page.locator("#replay-lesson").inner_text()
    page.click("[data-step='1']")
    assert "Ana won" in page.locator("#replay-label").inner_text()


def test_a_train_break_reads_on_a_phone(new_page: Any, site: str) -> None:
    page = new_page(viewport=PHONE, touch=True)
    page.goto(site + "/how-to-play/r45/train-break/")
    page.wait_for_selector("#replay[data-at]")
    train = page.locator("#replay-train .mini-tile")
    moment = step_to_the_moment(page)
    assert "broke the train" in page.locator("#replay-label").inner_text()
    assert "may break the train" in page.locator("#replay-lesson").inner_text()
    after = train.count()
    page.click("[data-step='-1']")
    page.wait_for_function(f"document.getElementById('replay').dataset.at === '{moment - 1}'")
    before = [train.nth(i).get_attribute("aria-label") for i in range(train.count())]
    page.click("[data-step='1']")
    page.wait_for_function(f"document.getElementById('replay').dataset.at === '{moment}'")
    # The break took the train's last tiles (R5 B8) into the breaker's rack.
    assert before[-2:] == ["R5", "B8"] and after == len(before) - 2
    ana = page.locator("#replay-racks .mini-rack").first
    assert {"R5", "B8"} <= {
        ana.locator(".mini-tile").nth(i).get_attribute("aria-label")
        for i in range(ana.locator(".mini-tile").count())
    }
    assert not problems_at(page)
    shoot(page, "teach-train-break-390.png")
    page.click("a:text('Back to the rules')")
    page.wait_for_url("**/how-to-play/#r45-turn")
