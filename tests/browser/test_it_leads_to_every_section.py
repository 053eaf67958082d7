"""Finding things (issue 28): the home page leads to Rummy 45, tournaments and leaderboards;
on a phone every page's header, the board's included, opens a menu of every section that the
keyboard works too; an invite link has a Copy button."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, call, shoot

pytestmark = pytest.mark.browser

SECTIONS = ["Play", "Puzzles", "Daily", "Editor", "Leaderboard", "Tournaments", "How to play"]


def test_home_has_an_entry_for_each_section(new_page: Any, site: str) -> None:
    page = new_page()
    page.goto(site + "/")
    for entry, heading in (
        ("r45", "Rummy 45"),
        ("tournaments", "Tournaments"),
        ("leaderboards", "Leaderboards"),
    ):
        expect(page.locator(f"[data-entry={entry}]")).to_contain_text(heading)
    page.locator("[data-entry=r45]").click()
    expect(page.locator("#mode")).to_have_value("r45")
    page.goto(site + "/")
    page.locator("[data-entry=tournaments]").click()
    page.wait_for_url("**/tournaments/")
    page.goto(site + "/")
    page.locator("[data-entry=leaderboards]").click()
    page.wait_for_url("**/leaderboard/")


def test_the_new_game_forms_boxes_stand_level(new_page: Any, site: str) -> None:
    """A text box (a guest's name, the target score) is as tall as a select beside it: with the
    site's line height a text box stood 4 px taller, and the boxes of a row were not level."""
    page = new_page()
    page.goto(site + "/")
    heights = page.evaluate(
        """[...document.querySelectorAll(
            '#new-game input:not([type=checkbox]):not([type=hidden]), #new-game select')]
            .filter((e) => e.offsetParent).map((e) => [e.name, e.getBoundingClientRect().height])"""
    )
    names = {name for name, _ in heights}
    assert {"name", "target", "mode", "clock"} <= names, names
    assert len({round(height) for _, height in heights}) == 1, heights


def test_a_phone_reaches_every_section_from_the_board(new_page: Any, site: str) -> None:
    game = call(
        site + "/__test__/games",
        {"players": ["menuplayer"], "options": {"players": 2, "seats": ["bot:beginner"]}},
    )
    page = new_page(PHONE, touch=True)
    page.goto(f"{site}/__test__/login/menuplayer/?next={game['url']}")
    page.wait_for_selector("#rummi[data-ready]")
    nav = page.get_by_role("navigation", name="Site")
    toggle = nav.get_by_role("button", name="Menu")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    for name in SECTIONS:
        expect(nav.get_by_role("link", name=name, exact=True)).to_be_hidden()

    toggle.click()

    expect(toggle).to_have_attribute("aria-expanded", "true")
    for name in SECTIONS + ["Account", "Settings"]:
        link = nav.get_by_role("link", name=name, exact=True)
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], name
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "menu-on-the-board-390x844.png")
    nav.get_by_role("link", name="Tournaments", exact=True).click()
    page.wait_for_url("**/tournaments/")


def test_the_menu_works_from_the_keyboard(new_page: Any, site: str) -> None:
    page = new_page(PHONE)
    page.goto(site + "/")
    toggle = page.get_by_role("button", name="Menu")
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Play"
    page.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    assert page.evaluate("document.activeElement.classList.contains('menu-toggle')")
    page.keyboard.press("Space")
    expect(page.get_by_role("link", name="Leaderboard", exact=True)).to_be_visible()


def test_an_invite_link_copies_with_one_button(new_page: Any, site: str) -> None:
    waiting = call(site + "/__test__/games", {"players": ["inviter"], "options": {"players": 3}})
    page = new_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    page.goto(f"{site}/__test__/login/inviter/?next={waiting['url']}")
    field = page.get_by_role("textbox", name="Invite link for seat 3")

    page.get_by_role("button", name="Copy the invite link for seat 3").click()

    expect(page.locator(".copied")).to_have_text("Invite link for seat 3 copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == field.input_value() and re.search(r"/join/\S+$", copied)
    shoot(page, "invite-copy-1280x800.png")
