"""A table waiting for players does not wait for ever (docs/design.md "Waiting tables"): its
creator closes it, anyone else seated leaves it (their seat opens again), one nobody fills
closes by itself; and the table a person waits at counts as their one live game
(docs/fair-play.md "One live game at a time"), so one person cannot make two live tables that
both fill and start."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services, signals
from games.errors import Conflict
from games.models import Game, Seat, Status

from .conftest import client_for, key, post, viewer

pytestmark = pytest.mark.django_db
LIVE = {"mode": "parlor", "players": 2, "listed": False}


def aged(game: Game, by: timedelta) -> None:
    Game.objects.filter(pk=game.pk).update(created=timezone.now() - by)


def leave(client: Client, game: Game, body: dict[str, Any] | None = None) -> Any:
    return post(client, reverse("api_leave", args=[game.public_id]), body or {})


class Heard:
    """The ``table_closed`` signals sent while it listens."""

    def __init__(self) -> None:
        self.told: list[tuple[str, str]] = []

    def __call__(self, sender: Any, gid: str, reason: str, **kwargs: Any) -> None:
        self.told.append((gid, reason))

    def __enter__(self) -> Heard:
        signals.table_closed.connect(self, sender=Game, dispatch_uid="test.closed")
        return self

    def __exit__(self, *exc: object) -> None:
        signals.table_closed.disconnect(sender=Game, dispatch_uid="test.closed")


def test_a_guest_cannot_wait_at_two_live_tables_and_play_both() -> None:
    """The bypass found on 2026-12-07: two tables made while neither had started both filled,
    and their one creator played two live games at once."""
    dan = Client()
    first = post(dan, "/api/games/", {**LIVE, "name": "Dan"})
    assert first.status_code == 201

    second = post(dan, "/api/games/", {**LIVE, "name": "Dan"})

    assert second.status_code == 409
    assert second.json()["error"] == "live_game_running"
    assert second.json()["message"].startswith("You are waiting at a live table already")
    assert second.json()["url"] == first.json()["url"]
    assert Game.objects.count() == 1
    # A correspondence table is not limited.
    assert post(dan, "/api/games/", {**LIVE, "name": "Dan", "days": 3}).status_code == 201


def test_waiting_at_a_live_table_refuses_joining_another(alice: Any, bob: Any) -> None:
    mine = services.create_game(viewer(bob), LIVE)
    other = services.create_game(viewer(alice), LIVE)

    answer = post(client_for(bob), f"/api/join/{other.seats.get(index=1).invite_token}", {})

    assert answer.status_code == 409 and answer.json()["url"] == mine.get_absolute_url()
    assert other.seats.get(index=1).joined is None


def test_the_creator_closes_the_table_and_may_start_another(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = services.create_game(viewer(alice), {**LIVE, "players": 3})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    url = game.get_absolute_url()

    with Heard() as heard, django_capture_on_commit_callbacks(execute=True):
        answer = leave(client_for(alice), game)

    assert answer.status_code == 200
    assert answer.json() == {"gid": game.public_id, "closed": True}
    assert heard.told == [(game.public_id, "cancelled")]
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Seat.objects.filter(game_id=game.pk).exists()  # gone from everyone's lists
    page = client_for(bob).get(url)
    assert page.status_code == 410
    assert "The table was closed" in page.content.decode()
    assert "closed it before every seat was taken" in page.content.decode()
    # Both may sit at a live table again.
    assert services.create_game(viewer(alice), LIVE).status == Status.WAITING
    assert services.create_game(viewer(bob), LIVE).status == Status.WAITING


def test_anyone_else_leaving_opens_their_seat_again(alice: Any, bob: Any, carol: Any) -> None:
    game = services.create_game(viewer(alice), {**LIVE, "players": 3})
    token = game.seats.get(index=1).invite_token
    services.join_game(viewer(bob), token)

    answer = leave(client_for(bob), game)

    assert answer.status_code == 200 and answer.json()["closed"] is False
    seat = Seat.objects.get(game=game, index=1)
    assert (seat.user_id, seat.name, seat.joined) == (None, "", None)
    assert services.live_game_of(viewer(bob)) is None
    # The same link seats the next person.
    services.join_game(viewer(carol), token)
    assert Seat.objects.get(game=game, index=1).user_id == carol.pk


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        ("carol", {}, 403, "not_seated"),
        ("alice", {"now": True}, 400, "bad_field"),
    ],
)
def test_leaving_is_refused_with_a_sentence(
    alice: Any, carol: Any, who: str, body: dict[str, Any], status: int, code: str
) -> None:
    game = services.create_game(viewer(alice), LIVE)
    user = {"alice": alice, "carol": carol}[who]

    answer = leave(client_for(user), game, body)

    assert answer.status_code == status and answer.json()["error"] == code
    assert Game.objects.filter(pk=game.pk, status=Status.WAITING).exists()


def test_a_started_game_is_resigned_not_left(duel: Game, alice: Any) -> None:
    answer = leave(client_for(alice), duel)

    assert answer.status_code == 409 and answer.json()["error"] == "not_waiting"
    assert "resigned, not left" in answer.json()["message"]
    assert post(client_for(alice), "/api/games/nosuchgame00/leave", {}).status_code == 404


def test_an_unfilled_table_closes_after_an_hour_or_a_week(
    alice: Any, bob: Any, carol: Any, django_capture_on_commit_callbacks: Any
) -> None:
    live = services.create_game(viewer(alice), LIVE)
    by_post = services.create_game(viewer(bob), {**LIVE, "days": 3})
    full = services.create_game(viewer(carol), {**LIVE, "seats": ["bot:casual"]})
    for game in (live, by_post, full):
        aged(game, timedelta(minutes=59))
    assert services.expire_waiting_tables() == []

    for game in (live, by_post, full):
        aged(game, timedelta(hours=1, seconds=1))
    with Heard() as heard, django_capture_on_commit_callbacks(execute=True):
        assert services.expire_waiting_tables() == [live.public_id]
    assert heard.told == [(live.public_id, "unfilled")]
    page = client_for(alice).get(live.get_absolute_url())
    assert page.status_code == 410 and "Nobody took its open seats in time" in page.content.decode()

    aged(by_post, timedelta(days=6, hours=23))
    assert services.expire_waiting_tables() == []
    aged(by_post, timedelta(days=7, seconds=1))
    assert services.expire_waiting_tables() == [by_post.public_id]
    # A game that started is never touched, however old.
    assert Game.objects.get(pk=full.pk).status == Status.PLAYING


def test_the_waiting_page_says_when_it_closes_and_offers_the_right_button(
    alice: Any, bob: Any
) -> None:
    game = services.create_game(viewer(alice), {**LIVE, "players": 3})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    closes = (game.created + timedelta(hours=1)).isoformat()

    mine = client_for(alice).get(game.get_absolute_url()).content.decode()
    theirs = client_for(bob).get(game.get_absolute_url()).content.decode()
    stranger = Client().get(game.get_absolute_url()).content.decode()

    assert f'Unfilled, the table closes at <time datetime="{closes}"' in mine
    # With its date, not a weekday alone (found on 2026-12-08: a week's table made on a Tuesday
    # said it closed "Tue 00:45", which read as past that same day).
    shown = (game.created + timedelta(hours=1)).strftime("%a %-d %b %H:%M")
    assert f"data-local-time>{shown} UTC</time>" in mine
    assert "Close this table" in mine and "Leave this table" not in mine
    assert "Leave this table" in theirs and "Close this table" not in theirs
    assert "Close this table" not in stranger and "Leave this table" not in stranger


def test_the_waiting_pages_button_leaves_and_says_so(alice: Any, bob: Any, carol: Any) -> None:
    game = services.create_game(viewer(alice), {**LIVE, "players": 3})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    client = client_for(bob, csrf=True)
    client.get(game.get_absolute_url())  # the page sets the CSRF cookie its form sends

    answer = client.post(
        reverse("leave", args=[game.public_id]),
        {"csrfmiddlewaretoken": client.cookies["csrftoken"].value},
    )

    assert answer.status_code == 302 and answer["Location"] == reverse("home")
    home = client.get(reverse("home")).content.decode()
    assert "You left the table: your seat is open again." in home
    assert Seat.objects.get(game=game, index=1).joined is None
    # A game that has started answers the site's error page, and nothing changes.
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    services.join_game(viewer(carol), game.seats.get(index=2).invite_token)
    token = client.cookies["csrftoken"].value
    again = client.post(reverse("leave", args=[game.public_id]), {"csrfmiddlewaretoken": token})
    assert again.status_code == 409 and "resigned, not left" in again.content.decode()
    assert Game.objects.get(pk=game.pk).status == Status.PLAYING


def test_leaving_a_rematch_offer_calls_it_off(alice: Any, bob: Any) -> None:
    game = services.create_game(viewer(alice), LIVE)
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    game.refresh_from_db()
    services.act(game.public_id, viewer(bob), "resign", {"key": key(), "expected_seq": game.seq})
    offer = services.offer_rematch(game.public_id, viewer(alice))

    assert leave(client_for(alice), offer).json() == {"gid": offer.public_id, "closed": True}

    assert not Game.objects.filter(pk=offer.pk).exists()
    assert services.rematch_state(game, viewer(bob))["offered"] is False
    assert client_for(bob).get(offer.get_absolute_url()).status_code == 410


def test_a_game_being_played_is_named_before_a_waiting_table(alice: Any) -> None:
    """A game being played comes before a table waiting: it is the one to finish."""
    waiting = services.create_game(viewer(alice), {**LIVE, "days": 3})
    assert services.live_game_of(viewer(alice)) is None
    Game.objects.filter(pk=waiting.pk).update(correspondence_days=None, clock_seconds=60)
    playing = services.create_game(viewer(alice), {**LIVE, "days": 3, "seats": ["bot:casual"]})
    Game.objects.filter(pk=playing.pk).update(correspondence_days=None, clock_seconds=60)

    with pytest.raises(Conflict, match="You are playing a live game already"):
        services.refuse_a_second_live_game(viewer(alice))
