"""The visual puzzle editor (issue 18): tiles dragged from the palette of the whole set onto the
table and the rack, each meld checked as it is built, the position saved and shared by link.

Built: the group R7 K7 Y7 and the run B4 B5 B6 on the table, B7 and B3 on the rack. On the way
B6 is dropped before B5, the run is flagged with the engine's reason and fixed by dragging B6
to its end. The link opens the puzzle on the board with that table and rack.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PHONE, shoot
from .helpers import centre, drag, rack_codes, table_codes

pytestmark = pytest.mark.browser


def palette(page: Any, code: str) -> Any:
    return page.locator(f'.ed-palette-tiles [data-code="{code}"]')


def meld(page: Any, index: int) -> Any:
    return page.locator(".ed-meld").nth(index)


def position(page: Any) -> tuple[list[list[str]], list[str]]:
    pos = page.evaluate("[rummiEditor.pos.melds, rummiEditor.pos.rack]")
    return pos[0], pos[1]


def test_it_builds_a_puzzle_by_dragging_flags_a_bad_meld_and_shares_it(
    new_page: Any, site: str
) -> None:
    page = new_page()
    page.goto(site + "/puzzles/editor/")
    page.wait_for_selector("#pz-editor[data-ready]")
    assert page.locator(".ed-palette-tiles .ed-tile").count() == 53  # 4 colours x 13 + joker

    # A group: the first tile starts a meld, the others join it.
    drag(page, palette(page, "R7"), page.locator(".ed-new-meld"))
    drag(page, palette(page, "K7"), meld(page, 0))
    assert "only 2 tiles" in meld(page, 0).locator(".ed-meld-note").inner_text()
    drag(page, palette(page, "Y7"), meld(page, 0))
    assert position(page)[0] == [["R7", "K7", "Y7"]]
    assert meld(page, 0).locator(".ed-meld-note").inner_text() == "✓ Valid meld."

    # A run built out of order: B6 dropped before B5 leaves a gap the editor names.
    drag(page, palette(page, "B4"), page.locator(".ed-new-meld"))
    drag(page, palette(page, "B6"), meld(page, 1))
    first = centre(meld(page, 1).locator('.ed-tile[data-code="B4"]'))
    drag(page, palette(page, "B5"), (first[0] + 60, first[1]))
    assert position(page)[0][1] == ["B4", "B6", "B5"]
    assert "bad" in (meld(page, 1).get_attribute("class") or "")
    note = meld(page, 1).locator(".ed-meld-note").inner_text()
    assert note.startswith("✗ B4 B6 B5") and "run" in note, note
    assert "not valid" in page.locator(".ed-status").inner_text()
    shoot(page, "editor-flagged-1280.png")

    # Fixed by dragging B6 to the end of its own meld (onto the meld's + place).
    drag(page, meld(page, 1).locator('.ed-tile[data-code="B6"]'), meld(page, 1).locator(".ed-put"))
    assert position(page)[0] == [["R7", "K7", "Y7"], ["B4", "B5", "B6"]]
    assert "good" in (meld(page, 1).get_attribute("class") or "")

    # The rack: one by drag, one by click-to-place; a used-up tile is greyed and counted.
    drag(page, palette(page, "B7"), page.locator(".ed-rack-zone"))
    palette(page, "B3").click()
    page.locator('.ed-rack [data-put="rack"]').click()
    assert position(page)[1] == ["B7", "B3"]
    assert palette(page, "B7").get_attribute("aria-label") == "blue 7, 1 of 2 left"
    # The text form follows what was built.
    assert page.locator("#editor-table").input_value() == "R7 K7 Y7\nB4 B5 B6"
    assert page.locator("#editor-rack").input_value() == "B7 B3"

    with page.expect_response(lambda r: r.url.endswith("/api/editor")) as checked:
        page.locator('[data-act="check"]').click()
    assert checked.value.json()["tiles_placeable"] == 2
    assert "2 of 2 rack tiles" in page.locator(".ed-verdict").inner_text()

    with page.expect_response(lambda r: r.url.endswith("/api/editor")) as saved:
        page.locator('[data-act="save"]').click()
    assert saved.value.status == 201
    link = page.locator(".ed-share-link")
    link.wait_for()
    url = link.get_attribute("href") or ""
    assert "/puzzles/s/" in url
    shoot(page, "editor-shared-1280.png")

    other = new_page()
    other.goto(url)
    other.wait_for_selector("#rummi[data-ready]")
    assert sorted(map(sorted, table_codes(other))) == [["B4", "B5", "B6"], ["K7", "R7", "Y7"]]
    assert sorted(rack_codes(other)) == ["B3", "B7"]


def test_it_builds_on_a_phone_by_touch_and_keys_without_scrolling_sideways(
    new_page: Any, site: str
) -> None:
    from .helpers import touch_path

    page = new_page(viewport=PHONE, touch=True)
    page.goto(site + "/puzzles/editor/")
    page.wait_for_selector("#pz-editor[data-ready]")
    # On a phone the set stays at the foot of the screen while the table scrolls above it.
    page.locator(".ed-board").evaluate("e => e.scrollIntoView({block: 'start'})")
    assert page.locator(".ed-palette").evaluate("e => getComputedStyle(e).position") == "sticky"
    touch_path(page, [centre(palette(page, "K1")), centre(page.locator(".ed-new-meld"))])
    touch_path(page, [centre(palette(page, "K2")), centre(meld(page, 0))])
    # The keyboard: Enter picks a tile, Enter on a meld's + place puts it there.
    palette(page, "J").focus()
    page.keyboard.press("Enter")
    meld(page, 0).locator(".ed-put").focus()
    page.keyboard.press("Enter")
    assert position(page)[0] == [["K1", "K2", "J"]]
    touch_path(page, [centre(palette(page, "K3")), centre(page.locator(".ed-rack-zone"))])
    # Delete takes a placed tile off again.
    page.locator('.ed-rack .ed-tile[data-code="K3"]').focus()
    page.keyboard.press("Delete")
    assert position(page)[1] == []
    touch_path(page, [centre(palette(page, "K4")), centre(page.locator(".ed-rack-zone"))])
    assert position(page) == ([["K1", "K2", "J"]], ["K4"])
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"scrolls sideways: {width} px"
    shoot(page, "editor-390.png")


def test_enter_right_after_a_drag_still_picks_a_tile(new_page: Any, site: str) -> None:
    """The click a drag leaves behind is skipped until a timer runs; a key's click that comes
    first (a busy page runs input before timers) is the player's and must pick the tile."""
    page = new_page()
    page.goto(site + "/puzzles/editor/")
    page.wait_for_selector("#pz-editor[data-ready]")
    pressed = page.evaluate(
        """() => {
        const tile = (code) => document.querySelector(`.ed-palette-tiles [data-code="${code}"]`);
        const at = (el) => {
            const box = el.getBoundingClientRect();
            return {clientX: box.left + box.width / 2, clientY: box.top + box.height / 2};
        };
        const pointer = (type, where, target) => target.dispatchEvent(new PointerEvent(
            type, {bubbles: true, pointerId: 7, button: 0, isPrimary: true, ...where}));
        const to = at(document.querySelector('.ed-new-meld'));
        pointer('pointerdown', at(tile('K1')), tile('K1'));
        pointer('pointermove', to, window);
        pointer('pointerup', to, window);
        // Enter on a focused button fires a click whose detail is 0, in this same task.
        tile('J').dispatchEvent(new MouseEvent('click', {bubbles: true, detail: 0}));
        return [rummiEditor.pos.melds, tile('J').getAttribute('aria-pressed')];
        }"""
    )
    assert pressed == [[["K1"]], "true"]
