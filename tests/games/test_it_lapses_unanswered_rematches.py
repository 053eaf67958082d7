"""A rematch offer nobody answers lapses (docs/design.md "Rematches"): 10 minutes after a live
game, 3 days after a correspondence one. The sweep deletes the waiting game, stuck ones from
before included; the finished game offers a rematch again; the offer's address says it lapsed;
a rematch that has started is never touched."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services, signals, tasks
from games.models import Game, Seat, Status

from .conftest import client_for, key, post, viewer

pytestmark = pytest.mark.django_db


def finished(alice: Any, bob: Any, options: dict[str, Any]) -> Game:
    game = services.create_game(viewer(alice), {"players": 2, **options})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    game.refresh_from_db()
    services.act(game.public_id, viewer(bob), "resign", {"key": key(), "expected_seq": game.seq})
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    return game


def aged(game: Game, by: timedelta) -> None:
    """Make the offer ``by`` older (its creation time is set when it is made)."""
    Game.objects.filter(pk=game.pk).update(created=timezone.now() - by)


def test_a_live_games_offer_lapses_after_ten_minutes(alice: Any, bob: Any) -> None:
    game = finished(alice, bob, {"mode": "parlor"})
    offer = services.offer_rematch(game.public_id, viewer(alice))
    state = services.rematch_state(game, viewer(bob))
    expires = offer.created + timedelta(minutes=10)
    assert state["offered"] and state["expires"] == expires.isoformat()

    aged(offer, timedelta(minutes=9, seconds=50))
    assert services.expire_rematches() == []  # not yet
    aged(offer, timedelta(minutes=10, seconds=1))
    assert services.expire_rematches() == [offer.public_id]

    assert not Game.objects.filter(pk=offer.pk).exists()
    assert not Seat.objects.filter(game_id=offer.pk).exists()  # gone from everyone's lists
    # The finished game's end offers a rematch again, and asking makes a fresh one.
    assert services.rematch_state(game, viewer(bob)) == {
        "offered": False,
        "can_offer": True,
        "open_minutes": 10,
    }
    again = services.offer_rematch(game.public_id, viewer(bob))
    assert again.pk != offer.pk and again.status == Status.WAITING


def test_a_correspondence_games_offer_stays_three_days(alice: Any, bob: Any) -> None:
    game = finished(alice, bob, {"mode": "parlor", "days": 3})
    offer = services.offer_rematch(game.public_id, viewer(alice))
    assert services.rematch_state(game, viewer(alice))["expires"] == (
        (offer.created + timedelta(days=3)).isoformat()
    )

    aged(offer, timedelta(days=2, hours=23))
    assert services.expire_rematches() == []
    aged(offer, timedelta(days=3, minutes=1))
    assert services.expire_rematches() == [offer.public_id]


def test_the_sweep_clears_offers_stuck_from_before(alice: Any, bob: Any, carol: Any) -> None:
    """Offers made before offers lapsed sit waiting for weeks: the first sweep (the beat task
    itself) deletes them, and nothing else."""
    stuck = [
        services.offer_rematch(finished(alice, bob, {"mode": "parlor"}).public_id, viewer(alice)),
        services.offer_rematch(
            finished(alice, carol, {"mode": "parlor", "days": 1}).public_id, viewer(carol)
        ),
    ]
    for offer in stuck:
        aged(offer, timedelta(days=40))
    fresh = services.offer_rematch(finished(bob, carol, {"mode": "parlor"}).public_id, viewer(bob))
    plain = services.create_game(viewer(carol), {"mode": "parlor", "players": 2})
    aged(plain, timedelta(days=40))  # an old open table is not a rematch: not this sweep's

    assert tasks.expire_rematches() == 2

    assert set(Game.objects.filter(status=Status.WAITING).values_list("pk", flat=True)) == {
        fresh.pk,
        plain.pk,
    }


def test_a_rematch_that_has_started_is_never_touched(alice: Any, bob: Any) -> None:
    game = finished(alice, bob, {"mode": "parlor"})
    offer = services.offer_rematch(game.public_id, viewer(alice))
    services.offer_rematch(game.public_id, viewer(bob))
    aged(offer, timedelta(days=400))

    assert services.expire_rematches() == []

    offer.refresh_from_db()
    assert offer.status == Status.PLAYING
    assert services.rematch_state(game, viewer(bob))["mine"]


def test_accepting_a_lapsed_offer_before_the_sweep_makes_a_new_one(alice: Any, bob: Any) -> None:
    game = finished(alice, bob, {"mode": "parlor"})
    offer = services.offer_rematch(game.public_id, viewer(alice))
    aged(offer, timedelta(minutes=11))
    # Past its time the offer is no offer, even before the sweep ran.
    assert not services.rematch_state(game, viewer(bob))["offered"]

    new = services.offer_rematch(game.public_id, viewer(bob))

    assert new.pk != offer.pk and new.status == Status.WAITING
    assert not Game.objects.filter(pk=offer.pk).exists()
    assert [s.joined is not None for s in new.seats.order_by("index")] == [False, True]


def test_the_lapsed_offers_page_says_so_and_leads_back(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = finished(alice, bob, {"mode": "parlor"})
    url = post(client_for(alice), reverse("api_rematch", args=[game.public_id]), {}).json()["url"]
    waiting = client_for(bob).get(url).content.decode()
    assert "The offer is open for 10 minutes, until" in waiting
    offer = Game.objects.get(rematch_of=game)
    aged(offer, timedelta(minutes=10))
    told: list[dict[str, Any]] = []

    def hear(sender: Any, **kwargs: Any) -> None:
        told.append(kwargs)

    signals.rematch_lapsed.connect(hear, sender=Game, dispatch_uid="test.lapsed")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.expire_rematches()
    finally:
        signals.rematch_lapsed.disconnect(dispatch_uid="test.lapsed", sender=Game)

    assert [(t["gid"], t["rematch_of"]) for t in told] == [(offer.public_id, game.public_id)]
    response = client_for(bob).get(url)
    assert response.status_code == 410
    page = response.content.decode()
    assert "The rematch offer lapsed" in page
    assert f'href="{game.get_absolute_url()}"' in page
    # An address that never was a game is still a plain 404.
    assert client_for(bob).get(reverse("game", args=["nosuchgame00"])).status_code == 404


def test_a_tournaments_game_offers_no_rematch(alice: Any, bob: Any) -> None:
    game = finished(alice, bob, {"mode": "parlor"})
    Game.objects.filter(pk=game.pk).update(occasion="Winter cup, round 1")
    game.refresh_from_db()

    assert not services.rematch_state(game, viewer(alice))["can_offer"]
    response = post(client_for(alice), reverse("api_rematch", args=[game.public_id]), {})
    assert response.status_code == 409 and response.json()["error"] == "no_rematch"
    assert "Winter cup, round 1 has no rematch" in response.json()["message"]
