"""The Rummy 45 board honours the account's board settings (issue 25): the felt, the tile back,
the colour-blind symbols and mute, chosen in its own settings panel, are saved on the account
and dress the board in a browser that has never seen them; its sounds play, and stop when
muted. Sounds are counted as the tones the page asks WebAudio for."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import sit_down

pytestmark = pytest.mark.browser

COUNT_TONES = """(() => {
  window.__tones = 0;
  const Ctx = window.AudioContext;
  if (!Ctx) return;
  const make = Ctx.prototype.createOscillator;
  Ctx.prototype.createOscillator = function () { window.__tones++; return make.call(this); };
})()"""


READY = "#r45[data-ready][data-settings-follow]"


def counting(new_page: Any) -> Any:
    page = new_page()
    page.add_init_script(COUNT_TONES)
    return page


def tones_after_a_pick(page: Any) -> int:
    """Pick a tile of the hand and put it down again (a tick each): the tones played."""
    before = page.evaluate("window.__tones")
    tile = page.locator("#r45-hand .tile").first
    tile.click()
    page.wait_for_selector("#r45-hand .r45-selected")
    page.locator("#r45-hand .r45-selected").click()
    page.wait_for_selector("#r45-hand .r45-selected", state="detached")
    return int(page.evaluate("window.__tones")) - before


def test_the_accounts_settings_dress_the_rummy45_board(new_page: Any, site: str) -> None:
    options = {"mode": "r45", "players": 2, "seats": ["bot:beginner"]}
    game, page = sit_down(new_page, site, "felicity", options, READY, counting(new_page))
    board = page.locator("#r45")
    assert board.get_attribute("data-felt") == "green"
    assert tones_after_a_pick(page) > 0

    page.click("#r45-gear")
    panel = page.locator("#r45-settings")
    assert panel.is_visible()
    assert "D draw from the stack" in panel.inner_text()  # the keys are in the help
    for label in ("Midnight blue", "Mahogany", "Colour-blind symbols", "Mute sounds"):
        with page.expect_response("**/api/me/settings") as answer:
            page.locator("#r45-settings label", has_text=label).click()
        assert answer.value.ok
    page.keyboard.press("Escape")
    assert panel.is_hidden()
    assert tones_after_a_pick(page) == 0

    # A browser that has never seen them: the account's settings dress the board.
    fresh = counting(new_page)
    fresh.goto(f"{site}/__test__/login/felicity/?next={game['url']}")
    fresh.wait_for_selector(READY)
    board = fresh.locator("#r45")
    fresh.wait_for_function("document.getElementById('r45').dataset.felt === 'blue'")
    assert board.get_attribute("data-back") == "mahogany"
    assert "rm-cb" in (board.get_attribute("class") or "")
    dressed = fresh.evaluate(
        """() => {
          const root = document.getElementById('r45');
          const back = getComputedStyle(root.querySelector('.rm-stack i')).backgroundImage;
          const tile = root.querySelector('#r45-hand .tile:not(.joker)');
          const width = (el) => el.getBoundingClientRect().width;
          const mark = width(tile.querySelector('i')) / width(tile);
          return {felt: getComputedStyle(root).getPropertyValue('--felt-1').trim(), back, mark};
        }"""
    )
    assert dressed["felt"] == "#2b5784"
    assert "100deg" in dressed["back"]  # the mahogany grain, not the brass lattice's 45deg
    assert dressed["mark"] > 0.2  # the colour-blind shape, larger than the plain dot (.16)
    assert fresh.locator("#r45-settings input[name=mute]").is_checked()
    assert tones_after_a_pick(fresh) == 0
