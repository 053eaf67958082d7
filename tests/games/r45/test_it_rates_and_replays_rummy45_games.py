"""A finished Rummy 45 game: its result rows, its rating in the r45 pool when rated, its replay,
its record and its seed check, as for Rummikub."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import services
from games.engine.r45 import bots
from games.models import Game, GameResult, Status
from ratings.models import Pool, Rating, RatingChange

from ..conftest import client_for, key, viewer
from .conftest import move

pytestmark = pytest.mark.django_db


def duel_to_the_end(capture: Any, alice: Any, bob: Any, rated: bool) -> Game:
    with capture(execute=True):
        game = services.create_game(viewer(alice), {"mode": "r45", "players": 2, "rated": rated})
        services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    people = [viewer(alice), viewer(bob)]
    for step in range(3000):
        game.refresh_from_db()
        if game.status == Status.FINISHED:
            return game
        state = game.state
        assert state is not None
        seat = services.game_summary(game, people[0])["view"]["to_act"][0]
        summary = services.game_summary(game, people[seat])
        action = bots.choose_action(summary["view"], random.Random(step), "hard")
        body = {"move": move(action), "key": key(), "expected_seq": summary["seq"]}
        with capture(execute=True):
            services.act(game.public_id, people[seat], "r45", body)
    raise AssertionError("the game did not end")


def test_a_rated_game_moves_ratings_in_the_r45_pool(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any, caplog: Any
) -> None:
    game = duel_to_the_end(django_capture_on_commit_callbacks, alice, bob, rated=True)
    # Every receiver of the lifecycle signals (frames, ratings, trophies) ran without a fault.
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
    rows = {r.seat: r for r in GameResult.objects.filter(game=game)}
    assert set(rows) == {0, 1} and rows[0].user_id == alice.pk
    changes = RatingChange.objects.filter(game=game)
    assert {c.pool for c in changes} == {Pool.RUMMY45} and changes.count() == 2
    ratings = {r.user_id: r for r in Rating.objects.filter(pool=Pool.RUMMY45)}
    assert set(ratings) == {alice.pk, bob.pk}
    if rows[0].place != rows[1].place:
        winner, loser = (alice, bob) if rows[0].place == 1 else (bob, alice)
        assert ratings[winner.pk].mu > ratings[loser.pk].mu


def test_an_unrated_game_rates_nobody_and_is_replayed_and_checked(
    alice: Any, bob: Any, outsider: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = duel_to_the_end(django_capture_on_commit_callbacks, alice, bob, rated=False)
    assert not RatingChange.objects.filter(game=game).exists()
    client = client_for(outsider)
    replay = client.get(f"/g/{game.public_id}/replay/")
    assert replay.status_code == 200
    steps = replay.context["steps"]
    assert len(steps) == game.seq - 1 and steps[-1]["text"].startswith("Game over")
    assert all(rack["tiles"] for rack in steps[0]["racks"])  # over: every board is shown
    record = client.get(f"/g/{game.public_id}/record.json").json()
    assert record["mode"] == "r45" and record["events"][0]["kind"] == "R45Started"
    verify = client.get(f"/g/{game.public_id}/verify/")
    assert verify.context["check"]["commitment_matches"] is True
    assert verify.context["check"]["deals_match"] is True
    end = client_for(alice).get(f"/api/games/{game.public_id}/end").json()
    # The end table is sorted by place; each line's total is its seat's score.
    assert [line["place"] for line in end["scorecard"]] == sorted(
        line["place"] for line in end["scorecard"]
    )
    assert {line["seat"]: line["total"] for line in end["scorecard"]} == dict(
        enumerate(game.state["scores"])
    )


def test_a_running_game_replays_without_its_boards(r45_duel: Game, outsider: Any) -> None:
    steps = client_for(outsider).get(f"/g/{r45_duel.public_id}/replay/").context["steps"]
    assert steps and all(rack["tiles"] == [] for step in steps for rack in step["racks"])
    verify = client_for(outsider).get(f"/g/{r45_duel.public_id}/verify/")
    assert verify.status_code == 200 and verify.context["check"] is None
