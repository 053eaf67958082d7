"""A third game family, registered only here (tests/games/toy_family.py), plays a whole game
through the real site with no edit to the services, the push path, tournaments or matchmaking
(docs/design.md "Adding a game family"): created over HTTP with a bot seat, moved over the
socket, timed out, ended with result rows, replayed, exported and checked."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import families
from games.identity import Identity
from games.models import Game, GameResult, Status

from .conftest import client_for, key, post, viewer
from .test_it_pushes_frames_without_leaking_racks import cookie_of, socket
from .toy_family import TOY

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _toy() -> Iterator[None]:
    """The toy family for one test; its games go with it, each first checked as every game
    is (tests/games/conftest.py: its log replays to its cached state)."""
    families.register(TOY)
    yield
    for game in Game.objects.filter(family=TOY.name).exclude(state=None):
        events = [e.payload for e in game.events.order_by("seq")]
        assert TOY.replay(events) == TOY.state_from_record(game.state), game.public_id
    Game.objects.filter(family=TOY.name).delete()
    families.unregister(TOY.name)


async def _act_on_socket(gid: str, cookie: bytes, move: dict[str, Any], seq: int) -> Any:
    sock = socket(gid, cookie)
    assert (await sock.connect())[0]
    hello = await sock.receive_json_from(timeout=10)
    await sock.send_json_to(
        {"type": "act", "action": "toy", "move": move, "expected_seq": seq, "key": key()}
    )
    while True:
        message = await sock.receive_json_from(timeout=10)
        if message["type"] == "answer":
            await sock.disconnect()
            return hello, message


def _my_turn(game: Game) -> bool:
    return services.my_turn(game, 0)


def test_a_toy_game_is_played_to_its_end_through_the_site(alice: Any) -> None:
    client = client_for(alice, csrf=False)
    made = post(
        client, reverse("api_create"), {"mode": "toy", "players": 2, "seats": ["bot:casual"]}
    )
    assert made.status_code == 201, made.content
    gid = made.json()["gid"]
    game = Game.objects.get(public_id=gid)
    assert (game.family, game.mode, game.status, game.clock_seconds) == (
        "toy",
        "toy",
        "playing",
        30,
    )
    page = client.get(reverse("game", args=[gid]))
    assert page.status_code == 200 and b"The replay" in page.content

    cookie = cookie_of(client)
    moves = timeouts = 0
    for _ in range(200):
        game.refresh_from_db()
        if game.status == Status.FINISHED:
            break
        assert _my_turn(game), (
            "the bot seat moved by itself (eager tasks) until it was alice's turn"
        )
        view = services.game_summary(game, services.seat_of(game, viewer(alice)))["view"]
        if moves % 3 == 0:
            # Every third turn, from her first, alice lets her clock run out (a short deal may
            # end before her third turn): the family's clock rule plays it.
            assert services.timeout(gid, game.turn_number, now=game.deadline + timedelta(seconds=1))
            timeouts += 1
            moves += 1
            continue
        move: dict[str, Any] = {"what": "draw"}
        if view["drawn"]:
            rack = view["rack"]
            colours = {c: sum(t // 10 == c for t in rack) for c in range(3)}
            if max(colours.values()) == 4:
                move = {"what": "out"}
            else:
                move = {"what": "discard", "tile": min(rack, key=lambda t: colours[t // 10])}
        hello, answer = asyncio.run(_act_on_socket(gid, cookie, move, game.seq))
        assert hello["type"] == "hello" and answer["status"] == 200, answer
        # Alice's own rack is in her answer; the other seat's is a count only.
        assert answer["view"]["rack"] is not None
        moves += 1
    game.refresh_from_db()
    assert game.status == Status.FINISHED and timeouts >= 1

    results = GameResult.objects.filter(game=game).order_by("seat")
    assert [r.seat for r in results] == [0, 1]
    assert sorted(r.place for r in results)[0] == 1
    # Its rows fill the common columns and its own details, nothing of Rummikub's.
    assert all(set(r.details) == {"draws"} for r in results)
    assert sum(r.details["draws"] for r in results) == sum(
        p["kind"] == "ToyDrew" for p in game.events.values_list("payload", flat=True)
    )
    record = client.get(reverse("record", args=[gid])).json()
    assert record["mode"] == "toy" and record["events"][0]["kind"] == "ToyStarted"
    assert TOY.audit(record)[1]["commitment_matches"]
    replay = client.get(reverse("replay", args=[gid]))
    assert replay.status_code == 200 and len(replay.context["steps"]) == game.seq - 1
    verify = client.get(reverse("verify", args=[gid]))
    assert verify.context["check"]["commitment_matches"] is True
    end = client.get(reverse("api_end", args=[gid])).json()
    assert [line["place"] for line in end["scorecard"]] == sorted(
        line["place"] for line in end["scorecard"]
    )
    assert all("draws" in line and "melds_laid" not in line for line in end["scorecard"])


def test_a_stuck_toy_turn_is_timed_out_by_the_sweep_once(alice: Any) -> None:
    client = client_for(alice, csrf=False)
    gid = post(client, reverse("api_create"), {"mode": "toy", "players": 2}).json()["gid"]
    game = Game.objects.get(public_id=gid)
    assert game.status == Status.WAITING  # the second seat is an invite
    game = services.join_game(
        Identity(guest_key="guest-toy", name="Toy guest"), game.seats.get(index=1).invite_token
    )
    game.refresh_from_db()
    later = game.deadline + timedelta(seconds=5)
    assert services.due_timeouts(later) == [(gid, game.turn_number)]
    assert services.timeout(gid, game.turn_number, now=later)
    assert not services.timeout(gid, game.turn_number, now=later)  # keyed on the turn: once
    game.refresh_from_db()
    assert game.turn_number == 1 and game.deadline > timezone.now()
