"""A board keeps its socket alive as its hello says (rummi_site/pings.py). A watcher's board
sends nothing and hears the web process's beat: a socket with no frame for the hello's
``silent_s`` is given up and made again. A seat at a table with stand-ins pings every 25 s (each
ping records that the player is there), and a socket that left a ping unanswered until the next
one is given up and made again (a dead connection would otherwise leave the board silently
stale). On the real site, the page's clock run forward by Playwright; the server's own beats
held back on their way to the page (one may come at any real moment), the test's given in their
place; a dead socket made by dropping the server's answers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummi_site import pings

from .conftest import call

pytestmark = pytest.mark.browser


def quiet_game(site: str, player: str, stand_in: bool = False) -> dict[str, Any]:
    """A game against a bot whose first turn is the player's: nothing moves on its own, and
    the table is empty (a bot dealt the first turn may have played before the deal was set:
    another game then)."""
    spec = {
        "players": [player],
        "stand_in": stand_in,
        "options": {"players": 2, "seats": ["bot:beginner"]},
        "racks": [["R10", "R11", "R12", "K1"], ["B3", "Y5", "R2", "K8"]],
        "first": 0,
    }
    for _ in range(20):
        game = dict(call(f"{site}/__test__/games", spec))
        if not game.get("moved"):
            return game
    raise AssertionError("the bot moved first in 20 games")


def open_board(
    new_page: Any, site: str, game: dict[str, Any], viewer: str, drop_pongs: bool
) -> Any:
    """``viewer``'s page of the game, its clock under the test's hand; what its sockets sent and
    received, and how many it opened, kept on the page object, and ``page.beat()`` to give the
    page a beat as the server would. The server's own beats are held back (one may come at
    any real moment of the test), and its pongs too with ``drop_pongs``."""
    page = new_page()
    page.sent, page.got, page.opened = [], [], 0

    def route(ws: Any) -> None:
        page.opened += 1
        server = ws.connect_to_server()

        def to_server(message: Any) -> None:
            page.sent.append(message)
            server.send(message)

        def to_page(message: Any) -> None:
            if message == pings.BEAT or (drop_pongs and message == pings.PONG):
                return  # as if the connection had died after the ping left
            page.got.append(message)
            ws.send(message)

        def beat() -> None:
            page.got.append(pings.BEAT)
            ws.send(pings.BEAT)

        page.beat = beat
        ws.on_message(to_server)
        server.on_message(to_page)

    page.route_web_socket("**/ws/games/**", route)
    page.clock.install()
    page.goto(f"{site}/__test__/login/{viewer}/?next={game['url']}")
    page.wait_for_selector("#rummi[data-ready]")
    page.wait_for_function("rummi.client.socket !== null && rummi.client.socket.readyState === 1")
    wait_until(page, lambda: any('"hello"' in m for m in page.got))
    return page


def wait_until(page: Any, check: Any) -> None:
    """Let the page's real event loop turn until ``check()`` holds (frames cross a real socket)."""
    for _ in range(200):
        if check():
            return
        page.wait_for_timeout(50)
    assert check()


def hello_of(page: Any) -> dict[str, Any]:
    return dict(next(json.loads(m) for m in page.got if '"hello"' in m))


def test_a_watchers_board_sends_nothing_and_gives_up_a_socket_silent_for_two_beats(
    new_page: Any, site: str
) -> None:
    page = open_board(new_page, site, quiet_game(site, "beaten"), "watcher", drop_pongs=False)
    hello = hello_of(page)
    assert (hello["ping_s"], hello["silent_s"]) == (0, 120)
    page.clock.run_for(100_000)  # past the 25 s a board pinged at before its hello
    page.wait_for_timeout(200)
    assert page.sent == [] and page.opened == 1  # not a ping: the server beats
    page.beat()  # as the server's beat at 55 s would
    page.clock.run_for(100_000)  # 200 s in all, 100 s since the beat: alive
    page.wait_for_timeout(200)
    assert page.sent == [] and page.opened == 1
    assert page.evaluate("rummi.client.socket.readyState") == 1
    page.clock.run_for(30_000)  # 130 s since the last frame: two beats lost, a dead socket
    page.clock.run_for(2_000)  # the reconnect's back-off (0.5 s, jittered)
    wait_until(page, lambda: page.opened == 2)
    wait_until(page, lambda: sum('"hello"' in m for m in page.got) == 2)
    page.wait_for_function("rummi.client.socket !== null && rummi.client.socket.readyState === 1")
    assert not page.locator("#rummi").evaluate("el => el.classList.contains('rm-offline')")
    assert page.sent == []


def test_a_seat_at_a_table_with_stand_ins_pings_every_25_s_and_hears_the_answer(
    new_page: Any, site: str
) -> None:
    game = quiet_game(site, "present", stand_in=True)
    page = open_board(new_page, site, game, "present", drop_pongs=False)
    assert hello_of(page)["ping_s"] == pings.PRESENCE_EVERY_S == 25
    page.clock.run_for(26_000)
    wait_until(page, lambda: pings.PONG in page.got)
    assert page.sent.count(pings.PING) == 1
    page.clock.run_for(25_000)  # answered: the same socket pings again
    wait_until(page, lambda: page.got.count(pings.PONG) == 2)
    assert page.opened == 1 and page.evaluate("rummi.client.socket.readyState") == 1


def test_a_socket_whose_ping_goes_unanswered_is_made_again(new_page: Any, site: str) -> None:
    game = quiet_game(site, "unanswered", stand_in=True)
    page = open_board(new_page, site, game, "unanswered", drop_pongs=True)
    page.clock.run_for(26_000)
    wait_until(page, lambda: page.sent.count(pings.PING) == 1)
    page.clock.run_for(25_000)  # the next ping's turn: the last went unanswered
    page.clock.run_for(2_000)  # the reconnect's back-off (0.5 s, jittered)
    wait_until(page, lambda: page.opened == 2)
    wait_until(page, lambda: sum('"hello"' in m for m in page.got) == 2)
    page.wait_for_function("rummi.client.socket !== null && rummi.client.socket.readyState === 1")
    assert not page.locator("#rummi").evaluate("el => el.classList.contains('rm-offline')")
