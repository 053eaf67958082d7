"""An absent entrant (docs/fair-play.md "Stand-ins, absence and aborts"): the issue's rated
Swiss of Rummy Rush, two accounts and two bots, where one account never opens its table. The
stand-in keeps its table moving, but the account is absent in each game it is paired in: the
table's last place with zero points, withdrawn after the missed round, no rated result, no
trophy, no unlock; it can join again, through the tournament's own page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import services as games
from games.engine.state import state_from_record
from games.models import Game, GameResult, Seat
from players.cosmetics import catalogue
from players.models import TrophyAward
from players.stats import counted_of
from ratings.models import RatingChange
from tournaments import services
from tournaments.management.commands.simulatetournament import drain
from tournaments.models import Action, Entry, Table, TableSeat, Tournament

from .conftest import play

pytestmark = pytest.mark.django_db(transaction=True)


def settle_people_tables(t: Tournament, present: Any) -> list[str]:
    """Each unfinished table of the current round with a person: the game started two minutes
    ago; the present player opened it at once, the absent one never did; a stand-in plays the
    absent player's turn if it is theirs; the organiser then ends the table. The games."""
    ended = []
    tables = Table.objects.filter(
        round__tournament=t, done=False, seats__entry__user__isnull=False
    ).distinct()
    for table in tables:
        game = Game.objects.get(pk=table.game_id)
        started = game.started - timedelta(minutes=2)
        Game.objects.filter(pk=game.pk).update(started=started)
        for seat in Seat.objects.filter(game=game, user=present):
            games.seen(game.pk, seat.index, started + timedelta(seconds=5))
        later = started + timedelta(minutes=3)
        if (game.public_id, game.turn_number) in games.due_stand_ins(later):
            assert games.play_stand_in_turn(game.public_id, game.turn_number, later)
        services.adjudicate(None, Table.objects.get(pk=table.pk), "the test ends it")
        ended.append(game.public_id)
    return ended


def test_an_account_that_never_opens_its_table_is_absent_last_and_withdrawn(
    make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(mode="rush", bots=2, rated=True, rounds=3)
    ann, ben = (
        get_user_model().objects.create_user(n, f"{n}@example.com", "pw") for n in ("ann", "ben")
    )
    ben_client = Client()
    ben_client.force_login(ben)
    services.join(ann, t.pk)
    assert ben_client.post(reverse("tournament_join", args=[t.pk])).status_code == 302
    services.start(None, t.pk)

    rejoined = []

    def come_back() -> None:
        """Ben sees he was withdrawn and joins again on the page, while round 2 is played."""
        if not rejoined and Entry.objects.filter(tournament=t, user=ben, withdrawn=True).exists():
            assert Action.objects.filter(tournament=t, verb="withdrawn: absent").exists()
            answer = ben_client.post(reverse("tournament_join", args=[t.pk]))
            assert answer.status_code == 302
            assert not Entry.objects.get(tournament=t, user=ben).withdrawn
            rejoined.append(True)

    settle_people_tables(t, ann)
    drain(queue, after=come_back)
    come_back()  # round 2 may be waiting on ann alone, with no task left to run
    assert rejoined, "missing round 1 withdrew ben, and he came back"
    for _ in range(3):
        settle_people_tables(t, ann)
        play(queue)
    t.refresh_from_db()
    assert t.state == "finished"

    mine = list(GameResult.objects.filter(user=ben))
    assert len(mine) == 2, "round 1, then (after rejoining) round 3"
    for row in mine:
        assert row.absent and not row.aborted
        size = GameResult.objects.filter(game_id=row.game_id).count()
        assert row.place == size, "the table's last place"
        seat = TableSeat.objects.get(table__game_id=row.game_id, entry__user=ben)
        assert seat.points == 0
        assert seat.place == size
        # The end dialog and the rating answer say so.
        gid = Game.objects.get(pk=row.game_id).public_id
        end = ben_client.get(f"/api/games/{gid}/end").json()
        line = next(x for x in end["scorecard"] if x["seat"] == row.seat)
        assert line["absent"] and line["fair_play"] == "absent"
        rating = Client().get(f"/api/ratings/game/{gid}").json()
        change = next(x for x in rating["seats"] if x["seat"] == row.seat)
        assert (change["rated"], change["shown"]) == (False, "unrated (absent)")
    entry = Entry.objects.get(tournament=t, user=ben)
    assert entry.withdrawn and entry.points == 0, "withdrawn again after round 3"
    assert not RatingChange.objects.filter(user=ben).exists()
    assert RatingChange.objects.filter(user=ann).exists(), "ann's games were rated"
    assert not TrophyAward.objects.filter(user=ben).exists()
    assert all(row["locked"] for row in catalogue(ben.pk)["felts"] if row["how"])
    assert all(row["locked"] for row in catalogue(ben.pk)["backs"] if row["how"])
    assert TrophyAward.objects.filter(user=ann, key="tournament_played").exists()

    # The standings, the tables and the profile say "absent".
    page = Client().get(reverse("tournament", args=[t.pk])).content.decode()
    assert "(absent from 2 games)" in page
    assert page.count(">absent</span>") == 2
    profile = Client().get(reverse("player_profile", args=["ben"])).content.decode()
    assert "absent" in profile and "unrated (absent)" in profile


def test_a_present_player_keeps_their_place_against_an_absent_one(
    make_tournament: Any, queue: Any
) -> None:
    """At a table of two people, the one who came is first, whatever the stand-in did."""
    t = make_tournament(mode="rush", rated=True, rounds=1)
    ann, ben = (
        get_user_model().objects.create_user(n, f"{n}@example.com", "pw") for n in ("ann", "ben")
    )
    for user in (ann, ben):
        services.join(user, t.pk)
    services.start(None, t.pk)
    (gid,) = settle_people_tables(t, ann)
    play(queue)
    places = dict(GameResult.objects.filter(game__public_id=gid).values_list("user", "place"))
    assert places == {ann.pk: 1, ben.pk: 2}
    points = dict(
        TableSeat.objects.filter(table__game__public_id=gid).values_list("entry__user", "points")
    )
    assert points[ben.pk] == 0 and points[ann.pk] > 0
    game = Game.objects.get(public_id=gid)
    assert state_from_record(game.state).finished
    # A win over nobody is a forfeit (found on 2026-12-07: a second account that never came
    # gave the first a rated win, +184, and the First win trophy with its felt): unrated, no
    # trophy, not a win in the player's counts.
    assert not RatingChange.objects.filter(game=game).exists()
    # Only the Entrant trophy: she did come to her tournament.
    assert list(TrophyAward.objects.filter(user=ann).values_list("key", flat=True)) == [
        "tournament_played"
    ]
    changes = Client().get(reverse("api_rating_changes", args=[gid])).json()
    assert "unrated (forfeit)" in str(changes) and "unrated (absent)" in str(changes)
    assert counted_of(ann.pk).count() == 0
    # In the tiebreaks the forfeit is a bye: ann met nobody and added no match total (until
    # 2026-12-08 she met the absent ben and his stand-in's total counted for her).
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=t)}
    assert entries[ann.pk].points > 0 and entries[ann.pk].rank == 1
    for user in (ann, ben):
        e = entries[user.pk]
        assert (e.score, e.buchholz, e.sonneborn_berger) == (0, 0.0, 0.0)
