"""Two people play a real Blitz game to its end in two browsers, against the real site.

Alice (desktop, mouse and keys) and Bob (a phone, touch) sit at a game whose deal is set:
Alice holds R9-R12 and K12 B12 Y12; the pool gives Bob K2, then Alice's timeout penalty
B4 B5 B6, then Bob K3. Alice opens with a run (after a swap, an undo and a reset), Bob draws,
Alice's clock runs out mid-change, Bob draws, and Alice goes out by laying a group, moving R12
from her run into it (a rearrangement by dragging) and laying B4-B6 by keyboard.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PHONE, ROOT, call, shoot
from .helpers import drag, edge, rack_codes, table_codes, tile

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ALICE = ["R9", "R10", "R11", "R12", "K12", "B12", "Y12"]
BOB = ["K1", "B3", "Y5", "R2", "K8", "B9", "Y1"]


def sign_in(new_page: Any, site: str, name: str, url: str, **kw: Any) -> Any:
    page = new_page(**kw)
    page.goto(f"{site}/__test__/login/{name}/?next={url}")
    page.wait_for_selector("#rummi[data-ready]")
    page.wait_for_function("rummi.client.socket && rummi.client.socket.readyState === 1")
    return page


def empty_table_spot(page: Any) -> tuple[float, float]:
    box = page.locator(".rm-table").bounding_box()
    return box["x"] + box["width"] - 60, box["y"] + box["height"] - 50


def wait_turn(page: Any, seat: int) -> None:
    page.wait_for_function(f"rummi.board.view.turn === {seat}", timeout=10_000)


def test_it_plays_a_blitz_game_to_the_end(new_page: Any, site: str) -> None:
    game = call(
        f"{site}/__test__/games",
        {
            "players": ["alice", "bob"],
            "options": {"mode": "blitz", "rounds": "one"},
            "racks": [ALICE, BOB],
            "pool_head": ["K2", "B4", "B5", "B6", "K3"],
            "first": 0,
        },
    )
    alice = sign_in(new_page, site, "alice", game["url"])
    bob = sign_in(new_page, site, "bob", game["url"], viewport=PHONE, touch=True)
    posted: list[str] = []
    for page in (alice, bob):
        page.on("request", lambda r: r.method == "POST" and posted.append(r.url))
    check_the_page_is_light_and_quick(alice, site + game["url"])

    # Turn 1, Alice: a swap, an undo, a reset, then the opening run, ended with Space.
    before = rack_codes(alice)
    drag(alice, tile(alice, "yellow 12", ".rm-rack"), tile(alice, "black 12", ".rm-rack"))
    after = rack_codes(alice)
    assert (after.index("Y12"), after.index("K12")) == (before.index("K12"), before.index("Y12"))
    drag(alice, tile(alice, "red 9", ".rm-rack"), empty_table_spot(alice))
    assert table_codes(alice) == [["R9"]]
    alice.keyboard.press("z")
    assert table_codes(alice) == [] and "R9" in rack_codes(alice)
    drag(alice, tile(alice, "red 9", ".rm-rack"), empty_table_spot(alice))
    drag(alice, tile(alice, "red 10", ".rm-rack"), edge(tile(alice, "red 9", ".rm-table"), "right"))
    alice.keyboard.press("r")
    assert table_codes(alice) == [] and len(rack_codes(alice)) == 7
    for n in (9, 10, 11, 12):
        tile(alice, f"red {n}", ".rm-rack").click()
    drag(alice, tile(alice, "red 9", ".rm-rack"), empty_table_spot(alice))
    assert table_codes(alice) == [["R9", "R10", "R11", "R12"]]
    assert alice.locator(".rm-opening-text").text_content() == "Initial meld 42 / 30"
    alice.keyboard.press("Space")
    wait_turn(alice, 1)
    wait_turn(bob, 1)
    assert table_codes(bob) == [["R9", "R10", "R11", "R12"]]
    assert bob.locator(".rm-table .tile.chg-new").count() == 4, "Alice's new run is marked"
    assert bob.locator(".rm-turn").text_content() == "Your turn"

    # Turn 2, Bob: a draw, tapped.
    bob.locator('[data-act="draw"]').tap()
    wait_turn(bob, 0)
    wait_turn(alice, 0)
    assert len(rack_codes(bob)) == 8
    assert alice.locator(".rm-player").nth(1).locator(".rm-pcount b").text_content() == "8"

    # Turn 3, Alice: her clock runs out with K12 out on the table.
    alice.wait_for_function("document.querySelector('.rm-secs').textContent.endsWith('s')")
    drag(alice, tile(alice, "black 12", ".rm-rack"), empty_table_spot(alice))
    assert alice.locator('[data-act="draw"]').is_disabled(), "no drawing with a changed table"
    assert call(f"{site}/__test__/expire/{game['gid']}")["timed_out"] is True
    wait_turn(alice, 1)
    assert table_codes(alice) == [["R9", "R10", "R11", "R12"]], "the table went back"
    assert sorted(rack_codes(alice)) == sorted(["K12", "B12", "Y12", "B4", "B5", "B6"])
    assert alice.locator(".rm-message").text_content().startswith("You ran out of time and drew 3")
    wait_turn(bob, 1)

    # Turn 4, Bob draws again.
    bob.locator('[data-act="draw"]').tap()
    wait_turn(alice, 0)

    # Turn 5, Alice goes out: a group, R12 dragged from the run into it, B4-B6 by keys.
    for name in ("black 12", "blue 12", "yellow 12"):
        tile(alice, name, ".rm-rack").click()
    drag(alice, tile(alice, "black 12", ".rm-rack"), empty_table_spot(alice))
    drag(
        alice,
        tile(alice, "red 12", ".rm-table"),
        edge(tile(alice, "yellow 12", ".rm-table"), "right"),
    )
    shoot(alice, "board-1280x800.png")
    shoot(bob, "board-390x844.png")
    for name in ("blue 4", "blue 5", "blue 6"):
        alice.focus(".rm-rack")
        for _ in range(10):
            if alice.evaluate("document.activeElement.getAttribute('aria-label')") == name:
                break
            alice.keyboard.press("ArrowRight")
        alice.keyboard.press("Enter")
    alice.keyboard.press("n")
    table = table_codes(alice)
    assert table[0] == ["R9", "R10", "R11"]
    assert sorted(table[1]) == sorted(["K12", "B12", "Y12", "R12"])
    assert table[2] == ["B4", "B5", "B6"]
    assert rack_codes(alice) == []
    assert alice.locator(".meld.ok").count() == 3

    alice.keyboard.press("Space")
    alice.locator(".rm-end").wait_for()
    bob.locator(".rm-end").wait_for()
    # Each reads their own outcome, once the scorecard has come.
    alice.wait_for_selector("#rummi[data-ended]")
    bob.wait_for_selector("#rummi[data-ended]")
    assert alice.locator(".rm-end h2").text_content() == "You won!"
    assert bob.locator(".rm-end h2").text_content() == "You finished in place 2 of 2"
    assert bob.locator(".rm-scores tr.won th").text_content() == "alice"
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(alice, "game-over-1280x800.png")
    # With their sockets open, the boards sent every move on the socket, none by POST.
    assert not [url for url in posted if "/api/games/" in url], posted


def check_the_page_is_light_and_quick(signed_in: Any, url: str) -> None:
    """Issue 6's figures: JS + CSS under 150 KB, and the board marks when it is usable (a
    signed-in player, the browser cache empty, the server warm). The 500 ms target itself is
    a benchmark's to measure on a quiet machine, not this test's."""
    times = []
    for _ in range(3):
        page = signed_in.context.new_page()
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        page.goto(url)
        page.wait_for_selector("#rummi[data-ready]")
        sizes = page.evaluate(
            """performance.getEntriesByType("resource")
                .filter((r) => /\\.(js|css)$/.test(new URL(r.name).pathname))
                .map((r) => [new URL(r.name).pathname, r.encodedBodySize])"""
        )
        times.append(page.evaluate("performance.getEntriesByName('rummi-ready')[0].startTime"))
        page.close()
    total = sum(size for _, size in sizes)
    assert len(sizes) >= 9, sizes
    assert total < 150_000, sizes
    # The time to a usable board is a benchmark figure, not a test's (it follows the machine's
    # load); here the mark must exist and be positive, so the board reports it.
    assert all(t > 0 for t in times), times
    (ROOT / "var").mkdir(exist_ok=True)
    (ROOT / "var" / "board-figures.txt").write_text(
        f"js+css bytes {total}\nready ms {sorted(round(t) for t in times)}\nfiles {sizes}\n"
    )
