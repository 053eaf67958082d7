"""Alice plays a whole Rummy 45 game against a strong bot in the browser, to its scorecard.

The page's own controls play the setup and her first turns (Ready; Draw from the stack; a
discard dragged onto the train, then one selected and sent with the Discard button); after
that a helper plays her seat with the engine's hard bot through the page's own client (the
same POST the buttons send), for speed. The end dialog's scorecard must agree with the final
view. Screenshots at 1280 and 390 px wide.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.r45 import bots
from games.engine.r45.state import Discard, Display, Draw, Stitch

from .conftest import PHONE, call, shoot
from .helpers import drag

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def until(page: Any, condition: str, timeout: float = 30_000) -> None:
    """Wait for ``condition`` (JavaScript) to hold; on a timeout, say what the page shows."""
    try:
        page.wait_for_function(condition, timeout=timeout)
    except Exception as error:
        shown = page.evaluate(
            """() => ({seq: r45.client.seq, busy: r45.busy, phase: r45.view?.phase,
                to_act: r45.view?.to_act, turn: r45.view?.turn_number, taken: r45.view?.taken,
                error: document.getElementById('r45-error').textContent,
                status: document.getElementById('r45-status').textContent})"""
        )
        raise AssertionError(f"waited for {condition}; the page shows {shown}") from error


def drag_until_sent(page: Any, tile: int, target: Any) -> None:
    """Drag our tile onto ``target`` (a locator, or a function giving the point to drop on)
    until the page sends the move. A drag that starts as the page moves under the pointer (a
    status line wrapping after a poll) misses, as it would for a person, who would drag again;
    the failure says what was under the tile and the target."""
    seq = page.evaluate("r45.client.seq")
    for _ in range(3):
        source = page.locator(f'#r45-hand [data-tile="{tile}"]')
        # The mouse works on what is on screen: bring the tile into view before aiming (the
        # page is taller than the window when a notice, such as a trophy's, tops it).
        source.scroll_into_view_if_needed()
        drag(page, source, target() if callable(target) else target)
        try:
            page.wait_for_function(f"r45.busy || r45.client.seq > {seq}", timeout=5_000)
            return
        except Exception:
            continue
    shoot(page, "r45-drag-missed-1280.png")
    seen = page.evaluate(
        """([tile, target]) => {
            const el = document.querySelector(`#r45-hand [data-tile="${tile}"]`);
            const box = el && el.getBoundingClientRect();
            const at = (x, y) => document.elementFromPoint(x, y)?.outerHTML.slice(0, 120);
            const t = document.querySelector(target)?.getBoundingClientRect();
            return {tile: box && [box.x, box.y, box.width, box.height],
                    onTile: box && at(box.x + box.width / 2, box.y + box.height / 2),
                    onTarget: t && at(t.x + t.width / 2, t.y + t.height / 2),
                    scroll: [scrollX, scrollY, innerWidth, innerHeight]};
        }""",
        [tile, "#r45-train"],
    )
    raise AssertionError(f"three drags of tile {tile} sent nothing; the page shows {seen}")


def my_turn(page: Any) -> Any:
    # The bot thinks (its turn runs in the site's one thread for sync views, beside the other
    # tests' work): wait on the state, with room for a loaded machine.
    until(page, "r45.view && (r45.view.phase === 'over' || r45.view.to_act.includes(0))", 60_000)
    return page.evaluate("r45.view")


def move_of(action: Any) -> dict[str, Any]:
    fields = {n: getattr(action, n) for n in action.__dataclass_fields__ if n != "seat"}
    plain = {
        n: [list(v) if isinstance(v, tuple) else v for v in x] if isinstance(x, tuple) else x
        for n, x in fields.items()
    }
    return {"action": type(action).__name__, **plain}


def by_controls(page: Any, action: Any, view: dict[str, Any]) -> bool:
    """Play ``action`` with the page's own controls if it has one; wait for it to land."""
    seq = page.evaluate("r45.client.seq")
    hand = "#r45-hand [data-tile='{}']".format
    if isinstance(action, Draw):
        page.click("#r45-draw")
    elif isinstance(action, Discard):
        page.click(hand(action.tile))
        page.wait_for_selector(hand(action.tile) + ".r45-selected")
        page.click("#r45-discard")
    elif isinstance(action, Display):
        for meld in action.melds:
            for tile in meld:
                page.click(hand(tile))
                page.wait_for_selector(hand(tile) + ".r45-selected")
            page.click("#r45-meld")
        assert page.evaluate("r45.drafts") == [list(m) for m in action.melds]
        page.click("#r45-play")
    elif isinstance(action, Stitch):

        def end_of_meld() -> tuple[float, float]:
            box = page.locator(f"#r45-players [data-meld='{action.meld}']").bounding_box()
            assert box is not None
            x = box["x"] + (4 if action.end == "low" else box["width"] - 4)
            return x, box["y"] + box["height"] / 2

        drag_until_sent(page, action.tile, end_of_meld)
    else:
        return False
    until(page, f"r45.client.seq > {seq}")
    assert page.locator("#r45-error").inner_text() == ""
    return True


def test_it_plays_rummy45_against_bots(new_page: Any, site: str) -> None:
    game = call(
        f"{site}/__test__/games",
        {"players": ["alice"], "options": {"mode": "r45", "players": 2, "seats": ["bot:strong"]}},
    )
    page = new_page()
    page.goto(f"{site}/__test__/login/alice/?next={game['url']}")
    page.wait_for_selector("#r45[data-ready]")
    source = page.content()
    view = page.evaluate("r45.view")
    assert view["phase"] == "setup" and len(view["rack"]) in (14, 15)
    assert view["racks"] is None  # nobody's board but her own reaches her page

    # Setup: the trump's twin if she holds it, then Ready.
    if not page.locator("#r45-show-trump").is_hidden():
        page.click("#r45-show-trump")
        page.wait_for_function("r45.view.trump_shown === 0")
    page.click("#r45-ready")
    shoot(page, "r45-setup-1280.png")

    # Her first two turns with the page's controls: draw, then a drag onto the train; draw,
    # then a click-selected tile and the Discard button.
    for turn in range(2):
        view = my_turn(page)
        if view["phase"] == "over":
            break
        assert view["phase"] == "play"
        if not view["taken"]:  # the first player holds 15 and lays the locomotive at once
            page.click("#r45-draw")
            page.wait_for_function("r45.view.taken")
        seq = page.evaluate("r45.client.seq")
        rack = page.evaluate("r45.view.rack")
        page.wait_for_function(
            f"document.querySelectorAll('#r45-hand .r45-tile').length === {len(rack)}"
        )
        tile = int(page.locator("#r45-hand .r45-tile").first.get_attribute("data-tile"))
        chosen = page.locator(f'#r45-hand [data-tile="{tile}"]')
        chosen.wait_for(state="visible")
        if turn == 0:
            drag_until_sent(page, tile, page.locator("#r45-train"))
        else:
            chosen.click()
            page.wait_for_selector(f'#r45-hand .r45-selected[data-tile="{tile}"]')
            page.click("#r45-discard")
        until(page, f"r45.view.turn_number > {view['turn_number']}")
        # That tile went onto the train (the bot, next, may take it at once).
        events = page.evaluate(f"r45.client.events({seq})")["events"]
        laid = [e["event"] for e in events if e["event"]["kind"] == "Discarded"]
        assert laid[0]["seat"] == 0 and laid[0]["tile"] == tile, (tile, events)
    shoot(page, "r45-play-1280.png")
    phone = new_page(viewport=PHONE, touch=True)
    phone.goto(f"{site}/__test__/login/alice/?next={game['url']}")
    phone.wait_for_selector("#r45[data-ready]")
    shoot(phone, "r45-play-390.png")
    phone.close()

    # The rest of the game: the hard bot's choices for her seat, played with the page's
    # controls where there is one (draw, discard, display, stitch by dragging), the others
    # sent through the page's client.
    by_hand: dict[str, int] = {}
    for step in range(2000):
        view = my_turn(page)
        if view["phase"] == "over":
            break
        action = bots.choose_action(view, random.Random(step), "hard")
        if by_controls(page, action, view):
            by_hand[type(action).__name__] = by_hand.get(type(action).__name__, 0) + 1
            continue
        answer = page.evaluate("(move) => r45.client.post('r45', {move})", move_of(action))
        assert answer["ok"], answer
    else:
        raise AssertionError("the game did not end")
    assert by_hand.get("Draw", 0) and by_hand.get("Discard", 0), by_hand

    page.wait_for_selector("#r45[data-ended]")
    final = page.evaluate("r45.view")
    rows = page.locator("#r45-scorecard tbody tr")
    assert rows.count() == 2
    cells = [rows.nth(i).locator("td").all_inner_texts() for i in range(2)]
    assert [int(c[2]) for c in cells] == final["scores"]
    best = max(final["scores"])
    assert [c[0] == "1" for c in cells] == [s == best for s in final["scores"]]
    assert page.locator("#r45-end-links a", has_text="Check the shuffle").count() == 1
    # Alice's name links to her profile, on the scorecard and over her displays; the bot's
    # is text (issue 19).
    names = [rows.nth(i).locator("td").nth(1) for i in range(2)]
    assert names[0].locator("a").get_attribute("href") == "/@/alice/"
    assert names[1].locator("a").count() == 0 and names[1].inner_text().endswith("bot")
    heads = page.locator("#r45-players h3")
    assert heads.nth(0).locator("a").get_attribute("href") == "/@/alice/"
    assert heads.nth(1).locator("a").count() == 0
    assert "racks" not in source or '"racks": null' in source
    shoot(page, "r45-end-1280.png")
    phone = new_page(viewport=PHONE, touch=True)
    phone.goto(f"{site}/__test__/login/alice/?next={game['url']}")
    phone.wait_for_selector("#r45[data-ended]")
    assert phone.locator("#r45-scorecard tbody tr").count() == 2
    shoot(phone, "r45-end-390.png")
    print("played with the page's controls:", by_hand)
