"""A page open on a table that waits for players hears each seat taken or given back
(docs/design.md "Waiting tables"): the creator sees a friend sit down at once, not at the
page's next 30 s reload; the last seat taken starts the game, whose first frame says so."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import services
from games.models import Game, Status

from .conftest import client_for, post, viewer
from .test_it_pushes_frames_without_leaking_racks import cookie_of, socket

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_pages_on_a_waiting_table_hear_each_seat_taken_or_given_back(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 3, "days": 3})
    tokens = [s.invite_token for s in game.seats.order_by("index")][1:]
    creator = Client()
    creator.force_login(alice)

    async def scenario() -> list[dict[str, Any]]:
        page = socket(game.public_id, cookie_of(creator))
        watcher = socket(game.public_id, None)
        heard: list[dict[str, Any]] = []
        for sock in (page, watcher):
            connected, _ = await sock.connect()
            assert connected
            assert (await sock.receive_json_from())["type"] == "hello"
        await sync_to_async(services.join_game)(viewer(bob), tokens[0])
        for sock in (page, watcher):
            heard.append(await sock.receive_json_from(timeout=10))
        await sync_to_async(services.leave_table)(game.public_id, viewer(bob))
        heard.append(await page.receive_json_from(timeout=10))
        # Joining twice changes nothing, and tells nobody anything.
        await sync_to_async(services.join_game)(viewer(carol), tokens[1])
        heard.append(await page.receive_json_from(timeout=10))
        await sync_to_async(services.join_game)(viewer(carol), tokens[1])
        assert await page.receive_nothing(timeout=0.5)
        # The last seat starts the game: its frame is the game's, not a seats note.
        await sync_to_async(services.join_game)(viewer(bob), tokens[0])
        heard.append(await page.receive_json_from(timeout=10))
        for sock in (page, watcher):
            await sock.disconnect()
        return heard

    heard = asyncio.run(scenario())

    seats = {"type": "seats", "gid": game.public_id}
    assert heard[:4] == [seats, seats, seats, seats]
    assert heard[4]["type"] == "update" and heard[4]["view"]["seat"] == 0
    assert Game.objects.get(pk=game.pk).status == Status.PLAYING


def test_a_socket_follows_its_viewer_from_seat_to_seat_and_never_gets_anothers_rack(
    alice: Any, bob: Any, carol: Any
) -> None:
    """Found on 2026-12-07: a socket kept the seat it opened with. Bob opened his board in
    seat 1, left, sat down again in seat 2, and Carol took seat 1: Bob's first socket got seat
    1's frames, Carol's rack in them, for the whole game."""
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 3, "days": 3})
    tokens = [s.invite_token for s in game.seats.order_by("index")][1:]
    services.join_game(viewer(bob), tokens[0])
    bobs = Client()
    bobs.force_login(bob)

    async def scenario() -> list[dict[str, Any]]:
        sock = socket(game.public_id, cookie_of(bobs))
        connected, _ = await sock.connect()
        assert connected
        assert (await sock.receive_json_from())["me"] == 1
        await sync_to_async(services.leave_table)(game.public_id, viewer(bob))
        await sync_to_async(services.join_game)(viewer(bob), tokens[1])
        await sync_to_async(services.join_game)(viewer(carol), tokens[0])
        heard = [await sock.receive_json_from(timeout=10) for _ in range(3)]
        await sock.disconnect()
        return heard

    heard = asyncio.run(scenario())

    assert [frame["type"] for frame in heard] == ["seats", "seats", "update"]
    started = Game.objects.get(pk=game.pk)
    state = services.load_state(started)
    assert state is not None
    assert heard[2]["view"]["seat"] == 2
    assert heard[2]["view"]["rack"] == list(state.racks[2])


def test_an_invite_racing_its_tables_close_is_refused_with_a_sentence(
    alice: Any, bob: Any, monkeypatch: Any
) -> None:
    """Found on 2026-12-07: a join read the seat, the creator's close deleted the game, and the
    join's lock found no game: a 500. Here the close lands between the two."""
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2, "days": 3})
    token = game.seats.get(index=1).invite_token
    real = Game.objects.select_for_update
    closed: list[bool] = []

    def closing_first(*args: Any, **kwargs: Any) -> Any:
        if not closed:
            closed.append(True)
            services.leave_table(game.public_id, viewer(alice))
        return real(*args, **kwargs)

    monkeypatch.setattr(Game.objects, "select_for_update", closing_first)
    answer = post(client_for(bob), f"/api/join/{token}", {})
    assert closed and answer.status_code == 404
    assert answer.json() == {
        "error": "no_such_invite",
        "message": "The table was closed before the game started: "
        "its invite links are no longer valid.",
    }
