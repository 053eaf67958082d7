"""Alice plays a whole Rummy 45 game against a strong bot in the browser, to its scorecard.

The page's own controls play the setup and her first turns (Ready; Draw from the stack; a
discard dragged onto the train, then one selected and sent with the Discard button); after
that the engine's hard bot chooses her moves, played with the page's controls where there is
one (draw, discard, display, a stitch by dragging) and the rest through the page's own client
(the same POST the buttons send). The deal is fixed (``SEED``), so the game is the same every
run. The end dialog's scorecard must agree with the final view. Screenshots at 1280 and 390
px wide.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import expect

from games.engine.r45 import bots
from games.engine.r45.state import Discard, Display, Draw, Stitch

from .conftest import PHONE, call, shoot
from .r45_play import move_of, my_turn, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


# One JavaScript task finds both ends of a drag: the tile (brought into view first) and the
# zone's point (its centre, or just inside the end of a meld). Measured apart, by locators, the
# page's poll (every 2 s) could redraw the hand between the two and leave a handle detached.
AIM = """([tile, zone, end]) => {
    const el = document.querySelector(`#r45-hand [data-tile="${tile}"]`);
    const target = document.querySelector(zone);
    if (!el || !target) return null;
    el.scrollIntoView({block: "nearest", inline: "nearest"});
    const a = el.getBoundingClientRect(), b = target.getBoundingClientRect();
    const x = end === "low" ? b.left + 4 : end === "high" ? b.right - 4 : b.left + b.width / 2;
    return {from: [a.left + a.width / 2, a.top + a.height / 2], to: [x, b.top + b.height / 2]};
}"""


# One deal, the same every run, so the same game (the bot's choices follow the seed, hers the
# hard bot's with a fixed generator): a random deal ended once before her third turn (the
# strong bot went out), leaving the page's controls nothing to play after her first two. In
# this one she draws, discards, displays and stitches with them.
SEED = "6666666666666666666666666666666666666666666666666666666666666666"


def drag_until_sent(page: Any, tile: int, zone: str, end: str = "") -> None:
    """Drag our tile onto the drop zone ``zone`` (a selector; ``end`` "low" or "high" aims
    just inside that end of it) and let go once the page lights the zone under the tile
    (``r45-over``): the state the page drops on, not a point measured before the drag. From
    the press on, the page holds the hand still (static/kit/drag.js). Then wait for the move:
    ``r45.busy`` or a new seq, measured once no move of hers was on its way (a draw whose
    socket frame came before its answer leaves ``busy`` set). A drag whose zone never lit is
    let go and made again; three fail saying what lay under the tile and the zone."""
    for _ in range(3):
        until(page, "!r45.busy")
        seq = page.evaluate("r45.client.seq")
        aim = page.evaluate(AIM, [tile, zone, end])
        assert aim is not None, f"no tile {tile} in the hand, or no {zone}"
        (x0, y0), (x1, y1) = aim["from"], aim["to"]
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x0 + 8, y0 + 8, steps=2)
        page.mouse.move(x1, y1, steps=8)
        try:
            page.wait_for_function(
                f"document.querySelector({zone!r})?.classList.contains('r45-over')",
                timeout=5_000,
            )
        except Exception:
            page.mouse.move(x0, y0, steps=2)  # let go over the hand, where a drop does nothing
        page.mouse.up()
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
        [tile, zone],
    )
    raise AssertionError(f"three drags of tile {tile} sent nothing; the page shows {seen}")


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
        end = "low" if action.end == "low" else "high"
        drag_until_sent(page, action.tile, f"#r45-players [data-meld='{action.meld}']", end)
    else:
        return False
    until(page, f"r45.client.seq > {seq}")
    assert page.locator("#r45-error").inner_text() == ""
    return True


def test_it_plays_rummy45_against_bots(new_page: Any, site: str) -> None:
    game = call(
        f"{site}/__test__/games",
        {
            "players": ["alice"],
            "options": {"mode": "r45", "players": 2, "seats": ["bot:strong"]},
            "seed": SEED,
        },
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
    # Her Ready is on its way: until it lands, her stale view still has her to act in setup.
    until(page, "r45.view.phase !== 'setup' || r45.view.ready[0]")
    shoot(page, "r45-setup-1280.png")

    # Her first two turns with the page's controls: draw, then a drag onto the train; draw,
    # then a click-selected tile and the Discard button.
    for turn in range(2):
        view = my_turn(page)
        if view["phase"] == "over":
            break
        assert view["phase"] == "play"
        if not view["taken"]:  # the first player holds 15 and lays the locomotive at once
            if view["first_round"]:
                expect(page.locator("#r45-status")).to_contain_text(
                    "Your turn, first round: draw from the stack, then discard"
                )
            page.click("#r45-draw")
            page.wait_for_function("r45.view.taken")
        if view["first_round"]:
            # Nothing but the discard: not the later turns' list of what may be done.
            expect(page.locator("#r45-status")).to_contain_text(
                "Your turn, first round: discard one tile"
            )
            assert "display, stitch" not in page.locator("#r45-status").inner_text()
        seq = page.evaluate("r45.client.seq")
        rack = page.evaluate("r45.view.rack")
        page.wait_for_function(
            f"document.querySelectorAll('#r45-hand .r45-tile').length === {len(rack)}"
        )
        tile = int(page.locator("#r45-hand .r45-tile").first.get_attribute("data-tile"))
        chosen = page.locator(f'#r45-hand [data-tile="{tile}"]')
        chosen.wait_for(state="visible")
        if turn == 0:
            drag_until_sent(page, tile, "#r45-train")
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
    assert {"Draw", "Discard", "Display", "Stitch"} <= set(by_hand), by_hand

    page.wait_for_selector("#r45[data-ended]")
    final = page.evaluate("r45.view")
    # The scorecard's lines come in place order; each says its seat.
    rows = page.locator("#r45-scorecard tbody tr")
    assert rows.count() == 2
    seats = [int(rows.nth(i).get_attribute("data-seat")) for i in range(2)]
    cells = [rows.nth(i).locator("td").all_inner_texts() for i in range(2)]
    assert [int(c[2]) for c in cells] == [final["scores"][s] for s in seats]
    assert [int(c[0]) for c in cells] == sorted(int(c[0]) for c in cells)
    best = max(final["scores"])
    assert [c[0] == "1" for c in cells] == [final["scores"][s] == best for s in seats]
    assert page.locator("#r45-end-links a", has_text="Check the shuffle").count() == 1
    # Not a tournament's game: the way back is the parlor's, and a rematch is offered.
    assert page.locator("#r45-back").get_attribute("href") == "/"
    assert page.locator("#r45-back").inner_text() == "Back to the parlor"
    assert page.locator("#r45-end .rm-rematch").inner_text() == "Rematch"
    # Alice's name links to her profile, on the scorecard and over her displays; the bot's
    # is text (issue 19).
    names = [rows.nth(seats.index(s)).locator("td").nth(1) for s in range(2)]
    assert names[0].locator("a").get_attribute("href") == "/@/alice/"
    assert names[1].locator("a").count() == 0 and names[1].inner_text().endswith("bot")
    heads = page.locator("#r45-players h3")
    assert heads.nth(0).locator("a").get_attribute("href") == "/@/alice/"
    assert heads.nth(1).locator("a").count() == 0
    assert "racks" not in source or '"racks": null' in source
    # On a desktop the whole scorecard shows, its Rating column too, with nothing to scroll.
    wrap = page.locator(".r45-score-wrap")
    assert wrap.evaluate("(e) => e.scrollWidth <= e.clientWidth"), wrap.evaluate(
        "(e) => [e.scrollWidth, e.clientWidth]"
    )
    shoot(page, "r45-end-1280.png")
    phone = new_page(viewport=PHONE, touch=True)
    phone.goto(f"{site}/__test__/login/alice/?next={game['url']}")
    phone.wait_for_selector("#r45[data-ended]")
    assert phone.locator("#r45-scorecard tbody tr").count() == 2
    shoot(phone, "r45-end-390.png")
    print("played with the page's controls:", by_hand)
