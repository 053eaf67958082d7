"""Rated games between the same players, as
docs/fair-play.md "Rated games between the same players" sets them: at most three in a pool in
any 24 hours; past that the game starts unrated, the pages say so before it starts, and its
end says "unrated" and why, never "+0".

The first tests play the farming of Rummi issue #26 through the site's own endpoints: two
fresh accounts signed up, seeking the same pool, one resigning at once (aborted, so never
rated), or after one draw of its own (rated three times, then capped), again and again."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, Status
from matchmaking import services as matchmaking
from ratings import services as ratings
from ratings.models import PairLimited, Pool, Rating
from tests.players.conftest import make_users, play_out, viewer

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-rack-of-tiles"
# As many rounds as the old leaderboard minimum (10 rated games): without the limit, the
# winner would have been listed.
ROUNDS = ratings.BOARD_GAMES
CAPPED = "had played each other three times in 24 h in this pool"


def sign_up(name: str) -> Client:
    """A fresh account through the real sign-up form (no e-mail check), signed in."""
    client = Client()
    answer = client.post(
        reverse("account_signup"),
        {
            "email": f"{name}@example.com",
            "username": name,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:500]
    return client


def seek(client: Client) -> dict[str, Any]:
    answer = client.post(
        "/api/seek", {"mode": "parlor", "players": 2}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    return answer.json()


def farm_once(winner: Client, loser: Client, capture: Any, draw_first: bool = False) -> str:
    """Both seek a rated duel; the loser resigns, at once or (``draw_first``) after one draw of
    their own, each seat drawing in turn until then. The game's id."""
    seek(winner)
    state = seek(loser)
    if state["status"] != "matched":
        # The two ratings have drifted apart: their seeks meet once their windows have
        # widened, at beat's match ten minutes on.
        assert len(matchmaking.match(timezone.now() + timedelta(minutes=10))) == 1
        state = loser.get("/api/seek").json()
    assert state["status"] == "matched", state
    gid = state["game"].strip("/").split("/")[-1]
    with capture(execute=True):
        loser_drew = not draw_first
        while not loser_drew:
            found = loser.get(f"/api/games/{gid}/").json()
            mover = loser if found["view"]["turn"] == found["view"]["seat"] else winner
            answer = mover.post(
                f"/api/games/{gid}/draw",
                {"expected_seq": found["seq"], "key": uuid.uuid4().hex},
                content_type="application/json",
            )
            assert answer.status_code == 200, answer.content
            loser_drew = mover is loser
        seq = loser.get(f"/api/games/{gid}/").json()["seq"]
        answer = loser.post(
            f"/api/games/{gid}/resign",
            {"expected_seq": seq, "key": uuid.uuid4().hex},
            content_type="application/json",
        )
    assert answer.status_code == 200, answer.content
    return gid


def test_two_fresh_accounts_farming_by_instant_resignation_move_no_rating(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The issue's loop exactly: a resignation before any move of one's own aborts the game
    (docs/fair-play.md "Stand-ins, absence and aborts"), so no rating moves at all."""
    farmer, feeder = sign_up("farmer"), sign_up("feeder")
    for _ in range(4):
        gid = farm_once(farmer, feeder, django_capture_on_commit_callbacks)
        seats = Client().get(f"/api/ratings/game/{gid}").json()["seats"]
        assert all(not seat["rated"] and seat["delta"] is None for seat in seats), seats
        assert {seat["shown"] for seat in seats} == {"unrated (aborted)"}
    assert not Rating.objects.filter(games__gt=0).exists()
    board = Client().get("/leaderboard/").content.decode()
    assert "/@/farmer/" not in board


def test_two_fresh_accounts_farming_by_a_draw_then_resignation_stop_after_three_games(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The loop made to dodge the abort rule: the feeder draws once, then resigns. The pair's
    limit stops it after three rated games."""
    farmer, feeder = sign_up("farmer"), sign_up("feeder")
    ids = dict(django_user_model.objects.values_list("username", "pk"))
    shown: list[int] = []
    changes = []
    for round_ in range(ROUNDS):
        if round_ == ratings.PAIR_LIMIT:
            # Before the next seek, the panel's state says the game would be unrated.
            (limit,) = farmer.get("/api/seek").json()["unrated_with"]
            assert limit["pool"] == Pool.LIVE_DUEL and limit["name"] == "feeder"
            assert limit["notice"].startswith(
                "Unrated: you have played feeder three times in 24 h in this pool"
            )
        gid = farm_once(farmer, feeder, django_capture_on_commit_callbacks, draw_first=True)
        changes.append(Client().get(f"/api/ratings/game/{gid}").json()["seats"])
        shown.append(Rating.objects.get(user_id=ids["farmer"], pool=Pool.LIVE_DUEL).shown)

    # Three games rated: the farmer's rating went up each time (as the 1000 -> 1138).
    assert shown[0] > 1000 and shown[0] < shown[1] < shown[2]
    assert all(seat["rated"] for game in changes[:3] for seat in game)
    # Then it stopped: every later game unrated, for both, with the reason and never "+0".
    assert shown[3:] == [shown[2]] * (ROUNDS - 3)
    for game in changes[3:]:
        for seat in game:
            assert not seat["rated"] and seat["shown"] == "unrated" and seat["delta"] is None
            assert CAPPED in seat["reason"] and "farmer and feeder" in seat["reason"]
    assert Game.objects.filter(rated=True).count() == 3
    assert Game.objects.filter(rated=False, status=Status.FINISHED).count() == ROUNDS - 3
    for name in ("farmer", "feeder"):
        assert Rating.objects.get(user_id=ids[name]).games == 3
    # Neither reaches the leaderboard; its page says what it takes.
    board = Client().get("/leaderboard/").content.decode()
    assert "/@/farmer/" not in board and "/@/feeder/" not in board
    assert "10 rated games against 5 different opponents" in board
    # The farmer's games list and profile say why, never "+0".
    for page in ("/@/farmer/", "/@/farmer/games/"):
        html = farmer.get(page).content.decode()
        assert 'data-rating-change="unrated"' in html and ">+0<" not in html, page
        assert "had played each other three times" in html, page
    profile = farmer.get("/@/farmer/").content.decode()
    assert "Not on the" in profile and "7 more games and 4 more opponents" in profile


def test_the_fourth_game_in_24_hours_is_unrated_and_a_game_after_24_hours_rated_again(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    capture = django_capture_on_commit_callbacks
    first = [play_out(capture, [ann, ben], [n % 2]) for n in range(3)]
    assert all(g.rated for g in first)

    fourth = play_out(capture, [ann, ben], [1])

    assert not fourth.rated
    assert PairLimited.objects.get(game=fourth).pairs == [[0, 1, 3]]
    assert Rating.objects.get(user=ann, pool=Pool.LIVE_DUEL).games == 3
    (pair,) = ratings.pair_limit_reached([ben.pk, ann.pk], Pool.LIVE_DUEL)
    assert (pair.first, pair.second, pair.games) == (ann.pk, ben.pk, 3)
    assert pair.rated_again == first[0].started + timedelta(hours=24)
    # The window is any 24 hours up to now: the first game leaves it at 24 h.
    just_before = first[0].started + timedelta(hours=24) - timedelta(seconds=1)
    assert ratings.pair_limit_reached([ann.pk, ben.pk], Pool.LIVE_DUEL, just_before)
    assert not ratings.pair_limit_reached(
        [ann.pk, ben.pk], Pool.LIVE_DUEL, first[0].started + timedelta(hours=24)
    )
    # Another pool is not limited: a Rummy Rush game and a correspondence game are rated.
    assert play_out(capture, [ann, ben], [1], options={"mode": "rush"}).rated
    assert play_out(capture, [ann, ben], [1], options={"days": 3}).rated

    # 24 hours after the first game started, two rated games are left in the window.
    Game.objects.filter(pk=first[0].pk).update(started=F("started") - timedelta(hours=24))
    fifth = play_out(capture, [ann, ben], [1])

    assert fifth.rated and not PairLimited.objects.filter(game=fifth).exists()
    assert Rating.objects.get(user=ann, pool=Pool.LIVE_DUEL).games == 4
    # ... and that makes three again: the sixth is unrated.
    assert not play_out(capture, [ann, ben], [1]).rated


def test_a_pair_at_its_limit_makes_a_table_of_four_unrated(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben, cid, dee, eve = make_users(django_user_model, "ann", "ben", "cid", "dee", "eve")
    capture = django_capture_on_commit_callbacks
    # Ann and Ben meet at three tables of three (each pair at a table counts the game).
    for third in (cid, dee, eve):
        assert play_out(capture, [ann, ben, third], [2, 1]).rated
    assert ratings.pair_limit_reached([ann.pk, ben.pk, cid.pk], Pool.LIVE_TABLE)[0].games == 3

    table = play_out(capture, [cid, ann, dee, ben], [0, 2, 1])

    assert not table.rated
    assert PairLimited.objects.get(game=table).pairs == [[1, 3, 3]]
    seats = Client().get(f"/api/ratings/game/{table.public_id}").json()["seats"]
    assert len(seats) == 4
    for seat in seats:  # the whole table, Cid and Dee too
        assert not seat["rated"] and seat["shown"] == "unrated"
        assert f"ann and ben {CAPPED}" in seat["reason"]
    # A table without that pair is rated; so is Ann and Ben's duel (another pool).
    assert play_out(capture, [ann, cid, dee, eve], [0, 1, 2]).rated
    assert play_out(capture, [ann, ben], [1]).rated


def test_the_pages_say_unrated_before_the_game_starts(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben, cid = make_users(django_user_model, "ann", "ben", "cid")
    capture = django_capture_on_commit_callbacks
    for _ in range(3):
        play_out(capture, [ann, ben], [1])
    as_ann, as_ben, as_cid = Client(), Client(), Client()
    for client, user in ((as_ann, ann), (as_ben, ben), (as_cid, cid)):
        client.force_login(user)

    # The seek panel, before any seek: its state names Ben for the duel pool only.
    home = as_ann.get("/").content.decode()
    assert "Unrated: you have played ben three times in 24 h in this pool" in home
    assert as_cid.get("/api/seek").json()["unrated_with"] == []

    # An invite to Ann's rated duel: Ben is told before taking the seat, Cid is not.
    duel = services.create_game(viewer(ann), {"mode": "parlor", "players": 2, "rated": True})
    invite = f"/join/{duel.seats.get(index=1).invite_token}/"
    notice = "Unrated: you have played ann three times in 24 h in this pool, so this game will"
    assert notice in as_ben.get(invite).content.decode()
    assert "Unrated" not in as_cid.get(invite).content.decode()
    assert "Unrated" not in as_ann.get(duel.get_absolute_url()).content.decode()
    with capture(execute=True):
        assert as_ben.post(invite, {}).status_code == 302
    duel.refresh_from_db()
    assert duel.status == Status.PLAYING and not duel.rated
    board = as_ben.get(duel.get_absolute_url()).content.decode()
    assert "Unrated: you had played ann three times in 24 h in this pool." in board
    watched = as_cid.get(duel.get_absolute_url()).content.decode()
    assert "Unrated: ann and ben had played each other three times" in watched

    # A rated table of three, waiting for its third: both see it, and whoever else looks.
    body = {"key": uuid.uuid4().hex, "expected_seq": Game.objects.get(pk=duel.pk).seq}
    with capture(execute=True):
        services.act(duel.public_id, viewer(ben), "resign", body)
    for _ in range(3):
        play_out(capture, [ann, ben, cid], [2, 1])
    table = services.create_game(viewer(ann), {"mode": "parlor", "players": 3, "rated": True})
    services.join_game(viewer(ben), table.seats.get(index=1).invite_token)
    waiting = as_ann.get(table.get_absolute_url()).content.decode()
    assert "waiting for players" in waiting
    assert "Unrated: you have played ben three times in 24 h in this pool" in waiting
    other = as_cid.get(table.get_absolute_url()).content.decode()
    assert "Unrated: ann and ben have played each other three times" in other
    services.join_game(viewer(cid), table.seats.get(index=2).invite_token)
    table.refresh_from_db()
    assert table.status == Status.PLAYING and not table.rated


def test_a_rated_game_without_a_pair_at_its_limit_says_nothing(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    client = Client()
    client.force_login(ann)
    duel = services.create_game(viewer(ann), {"mode": "parlor", "players": 2, "rated": True})
    client_ben = Client()
    client_ben.force_login(ben)
    invite = f"/join/{duel.seats.get(index=1).invite_token}/"
    assert "Unrated" not in client_ben.get(invite).content.decode()
    assert client.get("/api/seek").json()["unrated_with"] == []
    assert "unrated-notice" not in client.get("/").content.decode()
