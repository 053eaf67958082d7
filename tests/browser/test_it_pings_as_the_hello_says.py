"""A board pings as often as its socket's hello says (rummi_site/pings.py): a watcher's every
50 s, not 25; and a socket that left a ping unanswered until the next one is given up and made
again (a dead connection would otherwise leave the board silently stale). On the real site,
the page's clock run forward by Playwright; the dead socket made by dropping the server's
answers on their way to the page."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummi_site import pings

from .conftest import call

pytestmark = pytest.mark.browser


def quiet_game(site: str, player: str) -> dict[str, Any]:
    """A game against a bot whose first turn is the player's: nothing moves on its own, and
    the table is empty (a bot dealt the first turn may have played before the deal was set:
    another game then)."""
    spec = {
        "players": [player],
        "options": {"players": 2, "seats": ["bot:beginner"]},
        "racks": [["R10", "R11", "R12", "K1"], ["B3", "Y5", "R2", "K8"]],
        "first": 0,
    }
    for _ in range(20):
        game = dict(call(f"{site}/__test__/games", spec))
        if not game.get("moved"):
            return game
    raise AssertionError("the bot moved first in 20 games")


def open_watching(new_page: Any, site: str, game: dict[str, Any], drop_pongs: bool) -> Any:
    """A watcher's page of the game, its clock under the test's hand; what its sockets sent and
    received, and how many it opened, kept on the page object."""
    page = new_page()
    page.sent, page.got, page.opened = [], [], 0

    def route(ws: Any) -> None:
        page.opened += 1
        server = ws.connect_to_server()

        def to_server(message: Any) -> None:
            page.sent.append(message)
            server.send(message)

        def to_page(message: Any) -> None:
            if drop_pongs and message == pings.PONG:
                return  # as if the connection had died after the ping left
            page.got.append(message)
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    page.route_web_socket("**/ws/games/**", route)
    page.clock.install()
    page.goto(f"{site}/__test__/login/watcher/?next={game['url']}")
    page.wait_for_selector("#rummi[data-ready]")
    page.wait_for_function("rummi.client.socket !== null && rummi.client.socket.readyState === 1")
    return page


def wait_until(page: Any, check: Any) -> None:
    """Let the page's real event loop turn until ``check()`` holds (frames cross a real socket)."""
    for _ in range(200):
        if check():
            return
        page.wait_for_timeout(50)
    assert check()


def test_a_watchers_board_pings_every_50_s_and_hears_the_answer(new_page: Any, site: str) -> None:
    page = open_watching(new_page, site, quiet_game(site, "pinged"), drop_pongs=False)
    wait_until(page, lambda: any('"hello"' in m for m in page.got))
    hello = next(json.loads(m) for m in page.got if '"hello"' in m)
    assert hello["ping_s"] == pings.EVERY_S == 50
    page.clock.run_for(30_000)  # past the 25 s a board pinged at before its hello
    page.wait_for_timeout(200)
    assert pings.PING not in page.sent
    page.clock.run_for(21_000)
    wait_until(page, lambda: pings.PONG in page.got)
    assert page.sent.count(pings.PING) == 1
    page.clock.run_for(50_000)  # answered: the same socket pings again
    wait_until(page, lambda: page.got.count(pings.PONG) == 2)
    assert page.opened == 1 and page.evaluate("rummi.client.socket.readyState") == 1


def test_a_socket_whose_ping_goes_unanswered_is_made_again(new_page: Any, site: str) -> None:
    page = open_watching(new_page, site, quiet_game(site, "unanswered"), drop_pongs=True)
    wait_until(page, lambda: any('"hello"' in m for m in page.got))
    page.clock.run_for(51_000)
    wait_until(page, lambda: page.sent.count(pings.PING) == 1)
    page.clock.run_for(50_000)  # the next ping's turn: the last went unanswered
    page.clock.run_for(2_000)  # the reconnect's back-off (0.5 s, jittered)
    wait_until(page, lambda: page.opened == 2)
    wait_until(page, lambda: sum('"hello"' in m for m in page.got) == 2)
    page.wait_for_function("rummi.client.socket !== null && rummi.client.socket.readyState === 1")
    assert not page.locator("#rummi").evaluate("el => el.classList.contains('rm-offline')")
