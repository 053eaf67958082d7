"""Aborted games in tournaments (docs/tournaments.md "Aborted games"): a second account that
resigns every table at once, without a real move, gives its partner nothing in an arena and no
more than a bye in a Swiss; the seat that did not move is last with zero; an entrant whose
every game was aborted places nowhere and earns no tournament trophy."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services as games
from games.engine.state import state_from_record
from games.identity import Identity
from games.models import Game, GameResult
from players.models import TrophyAward
from tournaments import services
from tournaments.models import Action, Entry, Table, TableSeat, Tournament

from .conftest import play

pytestmark = pytest.mark.django_db(transaction=True)


def act(game: Game, user: Any, name: str) -> None:
    game.refresh_from_db()
    body = {"expected_seq": game.seq, "key": uuid.uuid4().hex}
    games.act(game.public_id, Identity(user_id=user.pk, name=user.username), name, body)


def open_game(t: Tournament) -> Game:
    table = Table.objects.get(round__tournament=t, done=False)
    return Game.objects.get(pk=table.game_id)


def people(*names: str) -> list[Any]:
    return [get_user_model().objects.create_user(n, f"{n}@example.com", "pw") for n in names]


def test_an_arena_gives_nothing_for_tables_resigned_at_once(
    make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(format="arena", rounds=None, duration_minutes=60)
    farmer, helper = people("farmer", "helper")
    for user in (farmer, helper):
        services.join(user, t.pk)
    services.start(None, t.pk)
    for n in range(4):
        game = open_game(t)
        if n % 2:  # the farmer makes a real move first at every other table
            mover = state_from_record(game.state).turn
            if game.seats.get(index=mover).user_id == farmer.pk:
                act(game, farmer, "draw")
        act(game, helper, "resign")
        play(queue)
        assert GameResult.objects.filter(game=game, aborted=True).exists()
        # Resigning without a move withdraws the helper, who joins again for the next table.
        assert Entry.objects.get(tournament=t, user=helper).withdrawn
        services.join(helper, t.pk)
        seats = dict(
            TableSeat.objects.filter(table__game=game).values_list("entry__user", "points")
        )
        assert seats == {farmer.pk: 0.0, helper.pk: 0.0}
    assert Entry.objects.get(tournament=t, user=farmer).points == 0
    # Time is up; the last table is resigned too, and the arena finishes.
    Tournament.objects.filter(pk=t.pk).update(started=timezone.now() - timedelta(hours=2))
    act(open_game(t), helper, "resign")
    play(queue)
    t.refresh_from_db()
    assert t.state == "finished"
    final = services.final_places(t.pk)
    assert final is not None and final.places == []
    assert not TrophyAward.objects.filter(
        user__in=[farmer, helper], key__startswith="tournament"
    ).exists()


def started_swiss(make_tournament: Any, rounds: int) -> tuple[Tournament, Game, Any, Any]:
    """A Swiss of ann and ben, started: the tournament, its first game, the one to play first
    and the other."""
    t = make_tournament(rounds=rounds)
    ann, ben = people("ann", "ben")
    for user in (ann, ben):
        services.join(user, t.pk)
    services.start(None, t.pk)
    game = open_game(t)
    mover = state_from_record(game.state).turn
    first, second = (ann, ben) if game.seats.get(index=mover).user_id == ann.pk else (ben, ann)
    return t, game, first, second


def aborted_swiss(make_tournament: Any, rounds: int = 1) -> tuple[Tournament, Game, Any, Any]:
    """A Swiss of ann and ben (one round) whose first game is aborted: the first to play draws
    (a real move), the other resigns with none. The tournament, the game, the mover, the idle
    one."""
    t, game, first, second = started_swiss(make_tournament, rounds)
    act(game, first, "draw")  # a real move
    act(game, second, "resign")  # none
    return t, game, first, second


def test_a_swiss_scores_the_seat_that_never_moved_last_and_the_other_a_bye(
    make_tournament: Any, queue: Any
) -> None:
    t, game, first, second = aborted_swiss(make_tournament)
    play(queue)
    assert GameResult.objects.filter(game=game, aborted=True).exists()
    seats = {
        s.entry.user_id: (s.place, s.points)
        for s in TableSeat.objects.filter(table__game=game).select_related("entry")
    }
    assert seats == {first.pk: (1, 0.5), second.pk: (2, 0.0)}, "a bye's half point at most"
    # After the last round nobody is withdrawn: there is no pairing left to keep them from.
    assert not Entry.objects.filter(tournament=t, withdrawn=True).exists()
    # In the tiebreaks the aborted game is a bye too: no match total, no opponent met.
    totals = dict(TableSeat.objects.filter(table__game=game).values_list("entry__user", "total"))
    assert totals[first.pk] != 0
    for user in (first, second):
        entry = Entry.objects.get(tournament=t, user=user)
        assert (entry.score, entry.buchholz, entry.sonneborn_berger) == (0, 0.0, 0.0)
    t.refresh_from_db()
    assert t.state == "finished"
    final = services.final_places(t.pk)
    assert final is not None and final.places == [], "nobody played a game that counts"


def test_a_stand_ins_win_is_last_with_nothing_when_the_person_never_moved(
    make_tournament: Any, queue: Any
) -> None:
    """Places come from the game, but a seat without a real move of its own in an aborted
    game is put last: the one who moved is first with a bye's points."""
    t, game, first, second = aborted_swiss(make_tournament)
    # As if the game had named the idle seat first (a stand-in's win): it is still last.
    GameResult.objects.filter(game=game, user=second).update(place=1)
    GameResult.objects.filter(game=game, user=first).update(place=2)
    Table.objects.filter(game=game).update(done=False)
    TableSeat.objects.filter(table__game=game).update(place=None, points=None)
    services.table_finished(game.public_id)
    seats = {
        s.entry.user_id: (s.place, s.points)
        for s in TableSeat.objects.filter(table__game=game).select_related("entry")
    }
    assert seats[second.pk] == (2, 0.0)
    assert seats[first.pk] == (1, 0.5)


def test_a_swiss_withdraws_the_entrant_who_ended_their_game_without_a_move(
    make_tournament: Any, queue: Any
) -> None:
    """As an absent entrant is (docs/fair-play.md "Stand-ins, absence and aborts"): one who
    came and resigned with no move of their own did not play the round either, and is paired
    no more until they join again; the one who moved plays on."""
    t, game, first, second = aborted_swiss(make_tournament, rounds=2)
    play(queue)
    assert Entry.objects.get(tournament=t, user=second).withdrawn
    assert not Entry.objects.get(tournament=t, user=first).withdrawn
    said = Action.objects.get(tournament=t, verb="withdrawn: no move")
    ended = "ended their game of round 1 without a move of their own"
    assert said.detail == f"{second.username} {ended}"
    assert not Action.objects.filter(tournament=t, verb="withdrawn: absent").exists()
    # Round 2 pairs the one left with a bye.
    t.refresh_from_db()
    assert t.state == "finished"
    assert not TableSeat.objects.filter(table__round__number=2, entry__user=second).exists()


def test_the_seat_whose_turn_never_came_is_not_withdrawn(make_tournament: Any, queue: Any) -> None:
    """The first to play resigns at once: the game is aborted, and the other seat, which never
    had a turn, has no move either; it is last with nothing (the rule of aborted games) but it
    did not end the game, so it stays in."""
    t, game, first, second = started_swiss(make_tournament, rounds=2)
    act(game, first, "resign")
    play(queue)
    assert GameResult.objects.filter(game=game, aborted=True).exists()
    assert Entry.objects.get(tournament=t, user=first).withdrawn
    assert not Entry.objects.get(tournament=t, user=second).withdrawn
