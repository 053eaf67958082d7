"""Correspondence notices: digests at most twice a day, an 80% clock warning, opt-out."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import services
from games.engine.state import state_from_record
from games.models import Game, Notice
from games.notices import (
    send_digests,
    set_turn_emails,
    turn_emails_on,
    unsubscribe_url,
    warn_clocks,
)

from .conftest import key, viewer

pytestmark = pytest.mark.django_db


def correspondence_duel(alice: Any, bob: Any, capture: Any, days: int = 3) -> Game:
    with capture(execute=True):
        game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2, "days": days})
        services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    return Game.objects.get(pk=game.pk)


def move(game: Game, users: list[Any], capture: Any) -> None:
    game.refresh_from_db()
    seat = state_from_record(game.state).turn
    with capture(execute=True):
        services.act(
            game.public_id, viewer(users[seat]), "draw", {"expected_seq": game.seq, "key": key()}
        )


def test_a_turn_notice_becomes_one_digest_and_then_waits_12_hours(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    first = correspondence_duel(alice, bob, capture)
    second = correspondence_duel(alice, bob, capture)
    to_move = state_from_record(first.state).turn
    player = [alice, bob][to_move]
    assert Notice.objects.filter(user=player, sent=None).count() >= 1
    assert send_digests() >= 1
    digest = [m for m in mail.outbox if m.to == [player.email]]
    assert len(digest) == 1 and f"/g/{first.public_id}/" in digest[0].body
    assert "unsubscribe" in digest[0].body
    mail.outbox.clear()
    # New turns for the same player within 12 hours wait for the next digest.
    move(first, [alice, bob], capture)
    move(first, [alice, bob], capture)
    send_digests()
    assert all(m.to != [player.email] for m in mail.outbox)
    later = timezone.now() + timedelta(hours=12, minutes=1)
    send_digests(now=later)
    assert [m.to for m in mail.outbox].count([player.email]) == 1
    assert second.public_id  # both games stayed in play


def test_no_notice_for_live_games_and_none_after_the_turn_is_played(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        live = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
        services.join_game(viewer(bob), live.seats.get(index=1).invite_token)
    assert Notice.objects.count() == 0
    game = correspondence_duel(alice, bob, capture)
    first = [alice, bob][state_from_record(game.state).turn]
    move(game, [alice, bob], capture)  # both moved before any digest went out
    move(game, [alice, bob], capture)
    send_digests()
    # The other player's turn is over: only the first player, waited for again, is told.
    assert [m.to for m in mail.outbox] == [[first.email]]
    assert Notice.objects.filter(sent=None).count() == 0


def test_opting_out_stops_the_emails(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    for user in (alice, bob):
        set_turn_emails(user.pk, False)
    correspondence_duel(alice, bob, django_capture_on_commit_callbacks)
    send_digests()
    assert mail.outbox == []
    assert Notice.objects.filter(sent=None).count() == 0


def test_the_unsubscribe_link_and_the_preferences_page(alice: Any) -> None:
    url = unsubscribe_url(alice.pk).split("8000", 1)[-1]
    client = Client()
    assert client.get(url).status_code == 200
    assert client.post(url).status_code == 200
    assert turn_emails_on(alice.pk) is False
    assert client.get("/accounts/unsubscribe/forged/").status_code == 400
    client.force_login(alice)
    assert client.post("/accounts/preferences/", {"email_turn_notices": "on"}).status_code == 302
    assert turn_emails_on(alice.pk) is True


def test_a_clock_80_percent_gone_warns_once(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = correspondence_duel(alice, bob, django_capture_on_commit_callbacks, days=1)
    assert warn_clocks() == 0  # a full day left
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(hours=4))
    assert warn_clocks() == 1
    assert warn_clocks() == 0
    player = [alice, bob][state_from_record(game.state).turn]
    assert mail.outbox[-1].to == [player.email] and "running out" in mail.outbox[-1].subject
