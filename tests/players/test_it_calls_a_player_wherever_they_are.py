"""The signed-in player's own socket (rummi_site/me.py): a tournament's call to a new table and
"your move" in a correspondence game reach every page the player has open, through the one push
path, and nobody else's."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Game
from rummi_site.asgi import application
from tests.games.conftest import key, viewer
from tests.games.test_it_pushes_frames_without_leaking_racks import closing
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def cookie_of(user: Any) -> bytes:
    """A signed-in session's cookie (made outside the event loop: it writes the session)."""
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def socket(cookie: bytes | None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, "/ws/me/", headers=headers)


async def heard(sock: WebsocketCommunicator) -> dict[str, Any]:
    return dict(json.loads(await sock.receive_from(timeout=10)))


def test_a_visitor_who_is_not_signed_in_gets_no_socket() -> None:
    # Accepted, then closed with 4401, which the page reads as "nothing to hear" and does not
    # open again (static/players/notices.js); a refused handshake would read as 1006.
    assert asyncio.run(closing(socket(None))) == ("closed", 4401)


def test_a_correspondence_move_calls_the_next_player_on_every_open_page(
    alice: Any, bob: Any
) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2, "days": 3})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    game.refresh_from_db()
    mover, waiter = (alice, bob) if game.state["turn"] == 0 else (bob, alice)
    waiter_cookie, mover_cookie = cookie_of(waiter), cookie_of(mover)

    async def scenario() -> tuple[list[dict[str, Any]], bool, bool]:
        pages = [socket(waiter_cookie), socket(waiter_cookie)]
        other = socket(mover_cookie)
        for sock in [*pages, other]:
            assert (await sock.connect())[0]
        await sync_to_async(services.act)(
            game.public_id, viewer(mover), "draw", {"expected_seq": game.seq, "key": key()}
        )
        notices = [await heard(sock) for sock in pages]
        mover_heard = not await other.receive_nothing(timeout=0.5)
        # A ping still answers: the socket lives on after a notice.
        await pages[0].send_to(text_data='{"type":"ping"}')
        pong = json.loads(await pages[0].receive_from(timeout=10)) == {"type": "pong"}
        for sock in [*pages, other]:
            await sock.disconnect()
        return notices, mover_heard, pong

    notices, mover_heard, pong = asyncio.run(scenario())
    game.refresh_from_db()
    for notice in notices:
        assert notice["kind"] == "turn" and notice["game"] == game.public_id
        assert notice["url"] == game.get_absolute_url()
        assert notice["against"] == [mover.username] and notice["turn"] == game.turn_number
    assert not mover_heard, "the mover is not called to their own move"
    assert pong


def test_a_new_round_calls_each_entrant_to_their_table(alice: Any, bob: Any) -> None:
    t = Tournament.objects.create(
        name="Winter cup",
        format="swiss",
        mode="lan",
        table_size=2,
        rounds=1,
        starts_at=timezone.now() + timedelta(hours=1),
        clock_seconds=60,
    )
    tournaments.join(alice, t.pk)
    tournaments.join(bob, t.pk)
    cookies = [cookie_of(alice), cookie_of(bob)]

    async def scenario() -> list[dict[str, Any]]:
        sockets = [socket(cookie) for cookie in cookies]
        for sock in sockets:
            assert (await sock.connect())[0]
        await sync_to_async(tournaments.start)(None, t.pk)
        calls = [await heard(sock) for sock in sockets]
        for sock in sockets:
            await sock.disconnect()
        return calls

    calls = asyncio.run(scenario())
    (game,) = Game.objects.all()
    for call in calls:
        assert call["kind"] == "table" and call["game"] == game.public_id
        assert call["url"] == game.get_absolute_url()
        assert call["tournament"] == "Winter cup" and call["round"] == 1 and call["table"] == 1
