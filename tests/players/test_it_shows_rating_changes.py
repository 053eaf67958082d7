"""Rating changes as players read them (players/changes.py, docs/api.md "Endpoints"): the end
dialog's JSON, each games list and the profile say "+12" or "−8" (a real minus sign) for a
rated seat and "unrated" with its reason for any other, never "+0"."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from ratings.models import RatingChange

from .conftest import each_person_draws, make_users, play_out, viewer

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


def signed(change: RatingChange) -> str:
    delta = change.shown_after - change.shown_before
    return f"+{delta}" if delta > 0 else f"{MINUS}{-delta}"


def test_a_rated_games_changes_answer_by_seat(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    won = RatingChange.objects.get(game=game, user=ann)
    lost = RatingChange.objects.get(game=game, user=ben)

    answer = Client().get(f"/api/ratings/game/{game.public_id}")

    assert answer.status_code == 200
    seats = answer.json()["seats"]
    assert [s["seat"] for s in seats] == [0, 1]
    assert seats[0] == {
        "seat": 0,
        "rated": True,
        "delta": won.shown_after - won.shown_before,
        "shown": signed(won),
        "before": won.shown_before,
        "after": won.shown_after,
        "reason": None,
        "fair_play": "",
    }
    assert seats[0]["delta"] > 0 and seats[1]["delta"] < 0
    assert seats[1]["shown"] == signed(lost) and seats[1]["shown"].startswith(MINUS)


def test_an_unrated_game_says_why_and_never_plus_nought(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = play_out(django_capture_on_commit_callbacks, [ann, ben], [1], rated=False)

    seats = Client().get(f"/api/ratings/game/{game.public_id}").json()["seats"]

    assert [s["rated"] for s in seats] == [False, False]
    assert {s["reason"] for s in seats} == {"unrated: casual game"}
    assert all(s["delta"] is None and s["shown"] == "unrated" for s in seats)


def test_a_bot_seat_of_a_rated_game_is_unrated_with_its_reason(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    (ann,) = make_users(django_user_model, "ann")
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            viewer(ann), {"mode": "parlor", "players": 2, "rated": True, "seats": ["bot:casual"]}
        )
        game.refresh_from_db()
        each_person_draws(game, {0: viewer(ann)})
        services.act(
            game.public_id, viewer(ann), "resign", {"expected_seq": game.seq, "key": "resign-key"}
        )

    seats = Client().get(f"/api/ratings/game/{game.public_id}").json()["seats"]

    assert seats[0]["rated"] is True and seats[0]["shown"].startswith(MINUS)
    assert seats[1]["rated"] is False and "bot" in seats[1]["reason"]


def test_no_game_and_a_game_not_over_are_404_with_a_sentence(
    django_user_model: Any,
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    running = services.create_game(viewer(ann), {"players": 2, "rated": True})
    services.join_game(viewer(ben), running.seats.get(index=1).invite_token)

    for gid, code in (("nosuchgame", "no_game"), (running.public_id, "not_over")):
        answer = Client().get(f"/api/ratings/game/{gid}")
        assert answer.status_code == 404
        assert answer.json()["error"] == code and answer.json()["message"].endswith(".")


def test_games_lists_and_the_profile_show_each_change(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    capture = django_capture_on_commit_callbacks
    won = play_out(capture, [ann, ben], [1])
    lost = play_out(capture, [ann, ben], [0])
    casual = play_out(capture, [ann, ben], [1], rated=False)
    up = signed(RatingChange.objects.get(game=won, user=ann))
    down = signed(RatingChange.objects.get(game=lost, user=ann))
    client = Client()
    client.force_login(ann)

    for url in ("/@/ann/", "/@/ann/games/", "/"):
        html = client.get(url).content.decode()
        assert f'data-rating-change="{up[1:]}">{up}<' in html, url
        assert f">{down}<" in html and down.startswith(MINUS), url
        assert 'data-rating-change="unrated"' in html and "casual game" in html, url
        assert ">+0<" not in html, url
    assert casual.public_id in client.get("/@/ann/games/").content.decode()
