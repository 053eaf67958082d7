"""Tournament trophies (players/trophies.py): the entrant, the podium and the win, awarded to
signed-in entrants from ``tournament_finished`` by the final standings, once; the backfill
(``manage.py awardtrophies``) gives exactly what the live award gave; the profile links the
tournament; the felt the win unlocks is offered."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from games.models import Game
from games.signals import tournament_finished
from players.cosmetics import catalogue
from players.models import TrophyAward
from tournaments import services
from tournaments.models import Entry, Table

from .conftest import play

pytestmark = pytest.mark.django_db(transaction=True)


def held() -> list[tuple[Any, ...]]:
    return sorted(TrophyAward.objects.values_list("user_id", "key", "earned", "link", "game_id"))


def one_round_of_people(make_tournament: Any, queue: Any, names: list[str], bots: int) -> Any:
    """A one-round Swiss at tables of two of these people and bots; every table with a person
    is adjudicated (scored as if blocked), the bots play theirs out."""
    t = make_tournament(rounds=1, bots=bots)
    users = [get_user_model().objects.create_user(n, f"{n}@example.com", "pw") for n in names]
    for user in users:
        services.join(user, t.pk)
    services.start(None, t.pk)
    for table in Table.objects.filter(round__tournament=t, seats__entry__user__isnull=False):
        services.adjudicate(None, table, "the test ends it")
    play(queue)
    t.refresh_from_db()
    assert t.state == "finished"
    return t, users


def test_the_podium_the_win_and_a_place_are_awarded_once_and_backfill_the_same(
    make_tournament: Any, queue: Any
) -> None:
    t, users = one_round_of_people(
        make_tournament, queue, ["ann", "ben", "cat", "dan", "eve", "fay"], 0
    )
    ranks = dict(Entry.objects.filter(tournament=t, user__isnull=False).values_list("user", "rank"))
    keys = {
        u.username: set(TrophyAward.objects.filter(user=u).values_list("key", flat=True))
        for u in users
    }
    for user in users:
        rank = ranks[user.pk]
        mine = keys[user.username] & {"tournament_played", "tournament_podium", "tournament_win"}
        expected = {"tournament_played"} | ({"tournament_podium"} if rank <= 3 else set())
        expected |= {"tournament_win"} if rank == 1 else set()
        assert mine == expected, (user.username, rank, mine)
    assert sum("tournament_win" in k for k in keys.values()) == 1
    live = held()

    # A second delivery awards nothing more.
    tournament_finished.send(Game, tournament_id=t.pk, name=t.name, places=[])
    assert held() == live

    # The backfill from the stored standings gives exactly the live awards, and then nothing.
    TrophyAward.objects.all().delete()
    out = io.StringIO()
    call_command("awardtrophies", stdout=out)
    assert held() == live
    assert f"awarded {len(live)} trophies" in out.getvalue()
    again = io.StringIO()
    call_command("awardtrophies", stdout=again)
    assert again.getvalue().strip().endswith("awarded 0 trophies")

    # The profile says where: the tournament's page. The win unlocks the champion's felt.
    winner = next(u for u in users if ranks[u.pk] == 1)
    page = Client().get(f"/@/{winner.username}/").content.decode()
    assert "Tournament champion" in page
    assert f'href="{t.get_absolute_url()}">the tournament</a>' in page
    felts = {f["key"]: f for f in catalogue(winner.pk)["felts"]}
    assert felts["champion"]["locked"] is False
    loser = next(u for u in users if ranks[u.pk] > 3)
    assert {f["key"]: f for f in catalogue(loser.pk)["felts"]}["champion"]["locked"] is True


def test_a_small_field_earns_no_podium_and_a_withdrawn_entrant_nothing(
    make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(rounds=1)
    users = [get_user_model().objects.create_user(n, f"{n}@example.com", "pw") for n in "xyw"]
    for user in users:
        services.join(user, t.pk)
    services.withdraw_self(users[2], t.pk)  # three entered, one withdrew: a field of two

    services.start(None, t.pk)
    for table in Table.objects.filter(round__tournament=t):
        services.adjudicate(None, table, "the test ends it")
    play(queue)
    t.refresh_from_db()
    assert t.state == "finished"
    for user in users[:2]:
        got = set(TrophyAward.objects.filter(user=user).values_list("key", flat=True))
        assert "tournament_played" in got
        assert not got & {"tournament_podium", "tournament_win"}, (user, got)
    assert not TrophyAward.objects.filter(user=users[2], key__startswith="tournament").exists()
