"""Stand-in turns and aborted games (docs/fair-play.md "Stand-ins, absence and aborts"): a
player seen and then gone keeps their stand-in, but nothing it plays earns a trophy and the
scorecard says so; a game resigned before a real move is aborted: unrated, no trophy, out of
the win counts. Past games are marked and their trophies taken back by the commands."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine.state import state_from_record
from games.models import Game, GameResult, Seat
from players import stats
from players.cosmetics import settings_of
from players.models import PlayerProfile, TrophyAward
from players.moments import moments
from ratings.models import Rating, RatingChange

from .conftest import act, make_users, play_out, viewer

pytestmark = pytest.mark.django_db


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def rated_table(ann: Any, ben: Any) -> Game:
    """A live tournament-like table of two accounts, rated, with stand-ins."""
    seats = [{"user_id": ann.pk, "name": "ann"}, {"user_id": ben.pk, "name": "ben"}]
    return services.create_seated_game(
        {"mode": "parlor", "clock": 60}, seats, rated=True, stand_in=True
    )


def turn_of(game: Game) -> int:
    game.refresh_from_db()
    return int(state_from_record(game.state).turn)


def test_a_stand_ins_turns_earn_no_trophy_and_the_scorecard_says_so(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    users = {0: ann, 1: ben}
    with django_capture_on_commit_callbacks(execute=True):
        game = rated_table(ann, ben)
        now = timezone.now()
        for seat in (0, 1):
            services.seen(game.pk, seat, now)
        # Each draws once, in turn: both were there and moved.
        for _ in range(2):
            act(game, users[turn_of(game)], "draw")
        gone = turn_of(game)
        stayed = 1 - gone
        # The player whose turn it is left a minute ago: the stand-in plays their turns.
        Seat.objects.filter(game=game, index=gone).update(last_seen=now - timedelta(minutes=2))
        game.refresh_from_db()
        before = game.seq
        assert services.play_stand_in_turn(game.public_id, game.turn_number)
        game.refresh_from_db()
        stood = set(range(before + 1, game.seq + 1))
        assert services.stand_in_seqs(game) == {gone: stood}, "the stand-in's events, by seat"
        # The one who stayed resigns: the gone player, stood in for, wins.
        act(game, users[stayed], "resign")
    game.refresh_from_db()
    row = GameResult.objects.get(game=game, seat=gone)
    assert (row.place, row.stand_in_turns, row.absent, row.aborted) == (1, 1, False, False)

    # Their win and everything the whole game counts were partly the stand-in's: no trophy;
    # their rating counts (they played).
    held = set(TrophyAward.objects.filter(user=users[gone]).values_list("key", flat=True))
    assert not held & {"first_win", "rated_game"}, held
    assert RatingChange.objects.filter(game=game, user=users[gone]).exists()

    # The end dialog's scorecard, the rating answer and the profile say it.
    end = client_of(users[gone]).get(f"/api/games/{game.public_id}/end").json()
    line = next(x for x in end["scorecard"] if x["seat"] == gone)
    assert line["fair_play"] == "played by a stand-in for 1 turn"
    assert line["stand_in_turns"] == 1 and not end["aborted"]
    rating = Client().get(f"/api/ratings/game/{game.public_id}").json()
    mine = next(x for x in rating["seats"] if x["seat"] == gone)
    assert mine["rated"] and mine["fair_play"] == "played by a stand-in for 1 turn"
    profile = Client().get(f"/@/{users[gone].username}/").content.decode()
    assert "played by a stand-in for 1 turn" in profile
    replay = Client().get(reverse("replay", args=[game.public_id])).content.decode()
    assert "(played by a stand-in for 1 turn)" in replay and "(stand-in)" in replay


def test_the_same_win_without_a_stand_in_earns_its_trophies(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The control: the test above fails if stand-in turns earned what a person's do."""
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    assert GameResult.objects.get(game=game, seat=0).fair_play == ""
    held = set(TrophyAward.objects.filter(user=ann).values_list("key", flat=True))
    assert {"first_win", "rated_game"} <= held


def test_a_stand_ins_plays_are_nobodys_moments(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The moments reader skips the stand-in's plays (Ten in a turn, Joker thief...)."""
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    logged = list(game.events.order_by("seq").values_list("seq", "payload"))
    plays = [seq for seq, p in logged if p["kind"] in ("TilesPlayed", "TileDrawn")]
    assert moments(logged).rounds == moments(logged, frozenset(plays)).rounds
    everything = frozenset(seq for seq, _ in logged)
    assert all(
        m.big_turn is None and m.full_rack is None and m.opening_50 is None
        for m in moments(logged, everything).seats.values()
    )


def test_resigning_at_turn_zero_aborts_the_game(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = play_out(django_capture_on_commit_callbacks, [ann, ben], [1], moved=False)
    rows = list(GameResult.objects.filter(game=game))
    assert rows and all(r.aborted for r in rows)
    # Unrated, with its reason in words, never "+0".
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(user__in=[ann, ben]).exists()
    seats = Client().get(f"/api/ratings/game/{game.public_id}").json()["seats"]
    assert {s["shown"] for s in seats} == {"unrated (aborted)"}
    # No trophy, and not in the win counts.
    assert not TrophyAward.objects.filter(user__in=[ann, ben]).exists()
    assert stats.streaks(ann.pk) == {"current": 0, "best": 0}
    assert stats.per_mode(ann.pk) == []
    assert stats.totals(ann.pk)["games"] == 0
    # The end dialog and the profile's list say it.
    end = client_of(ann).get(f"/api/games/{game.public_id}/end").json()
    assert end["aborted"] and {x["fair_play"] for x in end["scorecard"]} == {"aborted"}
    profile = Client().get("/@/ann/").content.decode()
    assert "aborted" in profile and "unrated (aborted)" in profile

    # A game where both moved first is an ordinary rated game.
    played = play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    assert not GameResult.objects.filter(game=played, aborted=True).exists()
    assert RatingChange.objects.filter(game=played).count() == 2
    assert stats.streaks(ann.pk)["best"] == 1


def test_timing_out_without_a_move_aborts_the_game(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The clock's penalty is not a move: a seat that only timed out, then resigned."""
    ann, ben = make_users(django_user_model, "ann", "ben")
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            viewer(ann), {"mode": "parlor", "players": 2, "rated": True, "clock": 60}
        )
        services.join_game(viewer(ben), game.seats.get(index=1).invite_token)
        users = {0: ann, 1: ben}
        mover = turn_of(game)
        act(game, users[mover], "draw")
        game.refresh_from_db()
        assert services.timeout(
            game.public_id, game.turn_number, game.deadline + timedelta(minutes=1)
        )
        act(game, users[1 - mover], "resign")
    assert all(r.aborted for r in GameResult.objects.filter(game=game))
    assert not RatingChange.objects.filter(game=game).exists()


def test_past_games_are_marked_and_their_trophies_taken_back(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Games finished before the marks: ``recomputeratings`` marks them and skips the aborted;
    ``awardtrophies --take-back`` takes back what they gave, and the felt it unlocked."""
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = play_out(django_capture_on_commit_callbacks, [ann, ben], [1], moved=False)
    # As a game finished before the rules: unmarked, rated, its trophies given.
    GameResult.objects.filter(game=game).update(aborted=False)
    call_command("awardtrophies", stdout=io.StringIO())
    assert TrophyAward.objects.filter(user=ann, key="first_win").exists()
    profile = PlayerProfile.of(ann)
    profile.board = {"felt": "slate"}  # unlocked by First win
    profile.save()

    out = io.StringIO()
    call_command("recomputeratings", stdout=out)
    assert "rated 0 games" in out.getvalue()
    assert all(r.aborted for r in GameResult.objects.filter(game=game))

    out = io.StringIO()
    call_command("awardtrophies", "--take-back", stdout=out)
    assert "ann: took back First win (first_win)" in out.getvalue()
    assert not TrophyAward.objects.filter(user=ann, key="first_win").exists()
    profile.refresh_from_db()
    assert settings_of(profile)["felt"] == "green"
    again = io.StringIO()
    call_command("awardtrophies", "--take-back", stdout=again)
    assert "took back 0 trophies" in again.getvalue()
    assert again.getvalue().strip().endswith("awarded 0 trophies")


def test_a_stand_in_from_before_first_sighting_counts_as_absent_if_never_seen(
    django_user_model: Any,
) -> None:
    """A seat never seen at all, stood in for from the start, is absent when the marks are
    rewritten; one that was seen (before ``first_seen`` was kept) is not."""
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = rated_table(ann, ben)
    started = timezone.now() - timedelta(minutes=5)
    Game.objects.filter(pk=game.pk).update(started=started)
    Seat.objects.filter(game=game, user=ann).update(last_seen=timezone.now())
    game.refresh_from_db()
    ben_seat = Seat.objects.get(game=game, user=ben).index
    if turn_of(game) == ben_seat:
        assert services.play_stand_in_turn(game.public_id, game.turn_number)
    assert services.end_game(game.public_id, "test over")
    rows = {r.user_id: r for r in GameResult.objects.filter(game=game)}
    assert rows[ben.pk].absent and not rows[ann.pk].absent
    assert rows[ben.pk].place == 2 and rows[ann.pk].place == 1
