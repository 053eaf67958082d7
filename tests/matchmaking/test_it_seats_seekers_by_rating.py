"""Seekers near each other's rating are seated together in a rated game; far apart they wait
until their windows widen; bots fill a table only for those who allowed it, after their wait;
a player has one open seek, and can cancel it; beat seats those whose wait has passed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services as games
from games.models import Game, SeatKind, Status
from matchmaking import services, tasks
from matchmaking.models import Seek

from .conftest import later, viewer

pytestmark = pytest.mark.django_db


def duel(**extra: Any) -> dict[str, Any]:
    return {"mode": "parlor", "players": 2, **extra}


def test_two_seekers_near_in_rating_share_a_rated_game(alice: Any, bob: Any, rated: Any) -> None:
    rated(alice, "live2", 1200)
    rated(bob, "live2", 1260)

    first = services.seek(viewer(alice), duel())
    second = services.seek(viewer(bob), duel())

    assert first["status"] == "open" and first["waiting"] == 1 and first["window"] == 100
    assert second["status"] == "matched"
    game = Game.objects.get()
    assert second["game"] == game.get_absolute_url()
    assert services.status(viewer(alice))["game"] == game.get_absolute_url()
    assert game.rated and not game.listed and game.status == Status.PLAYING
    assert game.mode == "parlor" and game.clock_seconds == 60
    assert sorted(s.user_id for s in game.seats.all()) == sorted([alice.pk, bob.pk])
    assert {s.game_id for s in Seek.objects.all()} == {game.pk}
    Game.objects.filter(pk=game.pk).update(status=Status.FINISHED)
    assert services.status(viewer(alice))["status"] == "none"  # nothing to go back to


def test_far_ratings_wait_until_the_window_widens(alice: Any, bob: Any, rated: Any) -> None:
    rated(alice, "live2", 1000)
    rated(bob, "live2", 1320)  # 320 apart: a window of 320 takes 50 s of waiting
    start = timezone.now()
    services.seek(viewer(alice), duel(), now=start)
    services.seek(viewer(bob), duel(), now=start)

    assert services.status(viewer(bob), later(start, 30))["window"] == 250
    assert services.match(later(start, 30)) == []
    assert services.match(later(start, 49)) == []
    made = services.match(later(start, 50))

    assert len(made) == 1 and made[0].players == 2
    assert services.status(viewer(alice))["status"] == "matched"


def test_both_windows_must_reach(alice: Any, bob: Any, rated: Any) -> None:
    """A long-waiting seeker's wide window does not pull in a newcomer whose own is narrow."""
    rated(alice, "live2", 1000)
    rated(bob, "live2", 1300)
    start = timezone.now()
    services.seek(viewer(alice), duel(), now=start)
    services.seek(viewer(bob), duel(), now=later(start, 100))

    assert services.match(later(start, 101)) == []
    assert len(services.match(later(start, 140))) == 1


def test_a_table_of_three_seats_the_nearest(
    alice: Any, bob: Any, carol: Any, outsider: Any, rated: Any
) -> None:
    for user, shown in ((alice, 1000), (bob, 1400), (carol, 1050), (outsider, 1080)):
        rated(user, "live36", shown)
    table = {"mode": "lan", "players": 3}
    for user in (alice, bob, carol, outsider):
        services.seek(viewer(user), table)

    game = Game.objects.get()
    assert sorted(s.user_id for s in game.seats.all()) == sorted([alice.pk, carol.pk, outsider.pk])
    assert game.clock_seconds == 60  # LAN rules have no clock unless set; a seek's game has one
    assert services.status(viewer(bob))["status"] == "open"


def test_different_games_do_not_meet(alice: Any, bob: Any) -> None:
    services.seek(viewer(alice), duel())
    services.seek(viewer(bob), {"mode": "blitz", "players": 2})

    assert not Game.objects.exists()
    counts = {(r["mode"], r["players"]): r["count"] for r in services.seeking()}
    assert counts == {("parlor", 2): 1, ("blitz", 2): 1}


def test_bots_fill_the_table_after_the_chosen_wait(alice: Any) -> None:
    start = timezone.now()
    services.seek(
        viewer(alice), {**duel(players=3), "bots_after": 60, "bot_strength": "strong"}, now=start
    )

    assert services.match(later(start, 59)) == []
    made = services.match(later(start, 60))

    assert len(made) == 1
    seats = list(made[0].seats.order_by("index"))
    assert [s.user_id for s in seats] == [alice.pk, None, None]
    assert [s.bot_strength for s in seats if s.kind == SeatKind.BOT] == ["strong", "strong"]
    assert [s.name for s in seats][1:] == ["Strong bot 1", "Strong bot 2"]
    assert made[0].rated and made[0].status == Status.PLAYING


def test_no_bots_for_a_seeker_who_did_not_allow_them(alice: Any) -> None:
    start = timezone.now()
    services.seek(viewer(alice), duel(), now=start)

    assert services.match(later(start, 3600)) == []
    assert services.status(viewer(alice), later(start, 3600))["status"] == "open"


def test_bots_sit_only_with_those_ready_for_them(alice: Any, bob: Any, carol: Any) -> None:
    start = timezone.now()
    services.seek(viewer(alice), {**duel(players=4), "bots_after": 30}, now=start)
    services.seek(viewer(bob), duel(players=4), now=start)
    services.seek(viewer(carol), {**duel(players=4), "bots_after": 120}, now=start)

    made = services.match(later(start, 30))

    assert len(made) == 1
    humans = [s.user_id for s in made[0].seats.all() if s.kind == SeatKind.HUMAN]
    assert humans == [alice.pk]
    assert {s["mode"] for s in services.seeking()} == {"parlor"}
    assert services.status(viewer(bob), later(start, 30))["waiting"] == 2


def test_one_open_seek_per_player(alice: Any) -> None:
    services.seek(viewer(alice), duel())
    services.seek(viewer(alice), {"mode": "rush", "players": 2})

    assert Seek.objects.filter(user=alice, status="open").count() == 1
    assert services.status(viewer(alice))["mode"] == "rush"
    assert not Game.objects.exists()  # never seated against oneself


def test_a_cancelled_seek_is_never_seated(alice: Any, bob: Any) -> None:
    services.seek(viewer(alice), duel())
    after = services.cancel(viewer(alice))
    services.seek(viewer(bob), duel())

    assert after["status"] == "none" and after["seeking"] == []
    assert not Game.objects.exists()
    assert services.status(viewer(bob))["status"] == "open"


def test_the_rating_is_read_from_the_pool_of_the_game(alice: Any, rated: Any) -> None:
    rated(alice, "live2", 1500)
    rated(alice, "live36", 900)

    assert services.seek(viewer(alice), duel())["rating"] == 1500
    assert services.seek(viewer(alice), duel(players=4))["rating"] == 900
    assert services.seek(viewer(alice), {"mode": "rush", "players": 2})["rating"] == 1000


def test_beat_seats_a_seeker_whose_bot_wait_has_passed(alice: Any, settings: Any) -> None:
    services.seek(viewer(alice), {**duel(), "bots_after": 30})
    Seek.objects.update(created=timezone.now() - timedelta(seconds=31))

    beat = settings.CELERY_BEAT_SCHEDULE["matchmaking-match"]
    assert beat["task"] == tasks.match.name and beat["schedule"] <= 5
    assert tasks.match() == 1
    assert services.status(viewer(alice))["status"] == "matched"


def test_a_seeker_who_sat_down_at_a_live_table_since_is_not_seated_again(
    alice: Any, bob: Any, carol: Any
) -> None:
    """One live game at a time (docs/fair-play.md): alice seeks, then makes a live table of
    her own; when bob's seek would meet hers, hers is withdrawn instead of seating her twice."""
    services.seek(viewer(alice), duel())
    table = games.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    # A correspondence table is not her live game: carol's seek still meets bob's.
    games.create_game(viewer(carol), {"mode": "parlor", "players": 2, "days": 3})

    assert services.seek(viewer(bob), duel())["status"] == "open"
    assert services.status(viewer(alice))["status"] == "none"
    assert Seek.objects.get(user=alice).status == "cancelled"
    assert list(Game.objects.exclude(pk=table.pk).filter(status=Status.PLAYING)) == []
    assert services.seek(viewer(carol), duel())["status"] == "matched"
