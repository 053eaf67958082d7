"""Actions sent on the game socket: the same service, checks and answers as the JSON API."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import services
from games.engine.state import state_from_record
from games.models import Game

from .conftest import key, viewer
from .test_it_pushes_frames_without_leaking_racks import assert_private, cookie_of, socket

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def until_answer(sock: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read the socket until the action's answer; return it and the frames read on the way."""
    frames = []
    while True:
        message = await sock.receive_json_from(timeout=10)
        if message["type"] == "answer":
            return message, frames
        frames.append(message)


def blitz_duel(first: Any, second: Any) -> tuple[Game, int]:
    """A started 2-player blitz game of ``first`` and ``second``, and the seat to move."""
    game = services.create_game(viewer(first), {"mode": "blitz", "players": 2})
    services.join_game(viewer(second), game.seats.get(index=1).invite_token)
    game = Game.objects.get(pk=game.pk)
    return game, state_from_record(game.state).turn


def test_the_mover_acts_on_the_socket_and_every_viewer_gets_its_own_frame(
    alice: Any, bob: Any, outsider: Any
) -> None:
    game, mover = blitz_duel(alice, bob)
    cookies = {n: cookie_of(logged_in(u)) for n, u in (("0", alice), ("1", bob), ("x", outsider))}

    async def scenario() -> dict[str, Any]:
        socks = {n: socket(game.public_id, c) for n, c in cookies.items()}
        for sock in socks.values():
            assert (await sock.connect())[0]
            await sock.receive_json_from()  # hello
        me, other = socks[str(mover)], socks[str(1 - mover)]
        draw = {"type": "act", "action": "draw", "expected_seq": game.seq, "key": key()}
        await me.send_json_to(draw)
        answer, mine = await until_answer(me)
        if not mine:
            mine = [await me.receive_json_from(timeout=10)]
        theirs = await other.receive_json_from(timeout=10)
        watcher = await socks["x"].receive_json_from(timeout=10)
        # The same key again: the first answer back, nothing new happens.
        await me.send_json_to(draw)
        again, _ = await until_answer(me)
        # A stale seq from the other player, who is not to move anyway: refused with the state.
        await other.send_json_to({**draw, "key": key()})
        stale, _ = await until_answer(other)
        await socks["x"].send_json_to({**draw, "expected_seq": answer["seq"], "key": key()})
        outsider_answer, _ = await until_answer(socks["x"])
        await me.send_to(text_data="not json")
        garbled = await me.receive_json_from(timeout=10)
        await me.send_to(text_data='{"type": "fly"}')
        unknown = await me.receive_json_from(timeout=10)
        await me.send_to(text_data='{"type": "act", "n": 1e400}')
        huge = await me.receive_json_from(timeout=10)
        await me.send_to(text_data='{"type": "act", "action": "draw\x00"}')
        nul = await me.receive_json_from(timeout=10)
        await me.send_to(text_data='{"type":"ping"}')
        still_open = await me.receive_json_from(timeout=10)
        for sock in socks.values():
            assert await sock.receive_nothing()
            await sock.disconnect()
        return {
            "answer": answer,
            "mine": mine[0],
            "theirs": theirs,
            "watcher": watcher,
            "again": again,
            "stale": stale,
            "outsider": outsider_answer,
            "garbled": garbled,
            "unknown": unknown,
            "huge": huge,
            "nul": nul,
            "still_open": still_open,
        }

    got = asyncio.run(scenario())
    game.refresh_from_db()
    state = state_from_record(game.state)
    assert got["answer"]["status"] == 200 and got["answer"]["seq"] == game.seq
    assert got["answer"]["view"]["rack"] == list(state.racks[mover])
    assert got["again"] == got["answer"]
    assert game.events.filter(kind="TileDrawn").count() == 1
    assert_private(got["mine"], mover, list(state.racks[mover]))
    assert_private(got["theirs"], 1 - mover, list(state.racks[1 - mover]))
    assert_private(got["watcher"], None, [])
    assert got["stale"]["status"] == 409 and got["stale"]["error"] == "stale"
    assert got["stale"]["view"]["rack"] == list(state.racks[1 - mover])
    assert got["outsider"]["status"] == 403 and got["outsider"]["error"] == "not_a_player"
    assert "view" not in got["outsider"]
    assert got["garbled"]["type"] == "error" and got["garbled"]["error"] == "bad_json"
    assert got["garbled"]["status"] == 400
    assert got["garbled"]["message"] == "The message is not valid JSON."  # a message, not a body
    assert got["unknown"]["type"] == "error" and got["unknown"]["error"] == "bad_message"
    assert got["huge"]["error"] == "bad_number" and got["still_open"] == {"type": "pong"}
    # A raw NUL in a message is named as such, as in a body (docs/api.md), not as bad JSON.
    assert got["nul"]["error"] == "nul_character" and got["nul"]["status"] == 400


def test_an_illegal_play_on_the_socket_gets_the_engines_code_and_changes_nothing(
    alice: Any, bob: Any
) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    game = Game.objects.get(pk=game.pk)
    state = state_from_record(game.state)
    mover = state.turn
    cookie = cookie_of(logged_in([alice, bob][mover]))
    two = [list(state.racks[mover][:2])]

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        sock = socket(game.public_id, cookie)
        await sock.connect()
        await sock.receive_json_from()
        message = {"type": "act", "action": "play", "table": two, "expected_seq": game.seq}
        await sock.send_json_to({**message, "key": key()})
        illegal, _ = await until_answer(sock)
        await sock.send_json_to({**message, "action": "castle", "key": key()})
        unknown, _ = await until_answer(sock)
        await sock.send_json_to({**message, "action": "draw", "key": key()})
        misfit, _ = await until_answer(sock)
        await sock.disconnect()
        return illegal, unknown, misfit

    illegal, unknown, misfit = asyncio.run(scenario())
    assert illegal["status"] == 422 and illegal["error"] and illegal["message"]
    assert unknown["status"] == 404 and unknown["error"] == "no_such_action"
    # A draw takes no table: refused with the same sentence as a POST, nothing drawn.
    assert misfit["status"] == 400 and misfit["error"] == "bad_field"
    assert (
        misfit["message"] == "table is not a field of the draw action; they are key, expected_seq."
    )
    after = Game.objects.get(pk=game.pk)
    assert after.seq == game.seq and after.state == game.state


def test_a_socket_action_reaches_sockets_of_players_who_act_by_post_too(
    alice: Any, bob: Any
) -> None:
    """Both paths feed the same log: a POSTed move and a socket move interleave in order."""
    game = services.create_game(viewer(alice), {"mode": "sandbox", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    clients = [logged_in(alice), logged_in(bob)]

    async def scenario() -> list[list[int]]:
        socks = [socket(game.public_id, cookie_of(c)) for c in clients]
        for sock in socks:
            await sock.connect()
            await sock.receive_json_from()
        seen: list[list[int]] = [[], []]
        for n in range(4):
            current = await sync_to_async(Game.objects.get)(pk=game.pk)
            turn = state_from_record(current.state).turn
            body = {"expected_seq": current.seq, "key": key()}
            if n % 2:
                await socks[turn].send_json_to({"type": "act", "action": "draw", **body})
                answer, frames = await until_answer(socks[turn])
                assert answer["status"] == 200
                seen[turn] += [f["seq"] for f in frames]
            else:
                response = await sync_to_async(clients[turn].post)(
                    f"/api/games/{game.public_id}/draw", body, content_type="application/json"
                )
                assert response.status_code == 200
        for index, sock in enumerate(socks):
            while not await sock.receive_nothing(timeout=0.5):
                seen[index].append((await sock.receive_json_from())["seq"])
            await sock.disconnect()
        return seen

    seen = asyncio.run(scenario())
    game.refresh_from_db()
    assert game.seq == 2 + 4  # the deal, then one event per draw
    assert seen[0] == seen[1] == [3, 4, 5, 6]


def test_a_move_waiting_on_one_game_does_not_hold_up_another_game(alice: Any, bob: Any) -> None:
    """Socket moves run on several threads: one stuck on a locked game row (a slow commit, a
    racing writer) leaves the other games of the process free to move."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL; SQLite writers share one lock and one thread")
    import threading
    import time

    import psycopg

    games = []
    # A live game and a correspondence one: a person plays one live game at a time.
    for options in ({"mode": "blitz"}, {"mode": "parlor", "days": 3}):
        game = services.create_game(viewer(alice), {"players": 2, **options})
        services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
        games.append(Game.objects.get(pk=game.pk))
    cookies = {0: cookie_of(logged_in(alice)), 1: cookie_of(logged_in(bob))}
    locked, release = threading.Event(), threading.Event()
    db = connection.settings_dict

    def hold_row_lock() -> None:
        with psycopg.connect(
            dbname=db["NAME"], user=db["USER"], host=db["HOST"], port=db["PORT"]
        ) as conn:
            conn.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", (games[0].pk,))
            locked.set()
            release.wait(30)

    def wait_for_a_blocked_writer() -> None:
        """Until the first game's move waits for the row lock in the database."""
        with psycopg.connect(
            dbname=db["NAME"], user=db["USER"], host=db["HOST"], port=db["PORT"]
        ) as conn:
            for _ in range(200):
                waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                if conn.execute(waiting).fetchone()[0]:
                    return
                time.sleep(0.05)
        raise AssertionError("the first game's move never waited for its row")

    holder = threading.Thread(target=hold_row_lock)
    holder.start()
    assert locked.wait(10)

    async def scenario() -> tuple[int, int]:
        socks = []
        for game in games:
            mover = state_from_record(game.state).turn
            sock = socket(game.public_id, cookies[mover])
            assert (await sock.connect())[0]
            await sock.receive_json_from()  # hello
            socks.append(sock)
        draw = {"type": "act", "action": "draw", "key": key()}
        await socks[0].send_json_to({**draw, "expected_seq": games[0].seq})
        await sync_to_async(wait_for_a_blocked_writer, thread_sensitive=False)()
        await socks[1].send_json_to({**draw, "expected_seq": games[1].seq, "key": key()})
        free, _ = await until_answer(socks[1])  # while the first game's row stays locked
        assert not release.is_set()
        release.set()
        stuck, _ = await until_answer(socks[0])
        for sock in socks:
            await sock.disconnect()
        return free["status"], stuck["status"]

    try:
        assert asyncio.run(scenario()) == (200, 200)
    finally:
        release.set()
        holder.join()
