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

from .conftest import viewer
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
