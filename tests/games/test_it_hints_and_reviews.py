"""The solver at the table: hints only where they are allowed, and the post-game review."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from games import services
from games.engine.state import state_from_record
from games.engine.turn import check_turn
from games.models import Game

from .conftest import client_for, key, post, viewer

pytestmark = pytest.mark.django_db


def sandbox_duel(alice: Any, bob: Any, seed: str = "ab" * 32) -> Game:
    game = services.create_game(viewer(alice), {"mode": "sandbox", "players": 2})
    Game.objects.filter(pk=game.pk).update(seed=seed)  # a fixed deal, so the test is exact
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    return Game.objects.get(pk=game.pk)


def test_a_hint_is_the_solvers_legal_best_play(alice: Any, bob: Any) -> None:
    game = sandbox_duel(alice, bob)
    state = state_from_record(game.state)
    for seat, user in enumerate((alice, bob)):
        answer = client_for(user).get(f"/api/games/{game.public_id}/hint")
        assert answer.status_code == 200
        hint = answer.json()
        assert hint["seq"] == game.seq
        if hint["tiles_played"]:
            result = check_turn(
                state.rules, state.kinds, state.table, state.racks[seat], hint["table"], False
            )
            assert sorted(result.played) == sorted(hint["played"])
            assert set(hint["played"]) <= set(state.racks[seat])
        else:
            assert hint["table"] is None


def test_hints_are_off_against_people_and_for_outsiders(
    duel: Game, alice: Any, outsider: Any
) -> None:
    answer = client_for(alice).get(f"/api/games/{duel.public_id}/hint")
    assert answer.status_code == 403 and answer.json()["error"] == "hints_off"
    answer = client_for(outsider).get(f"/api/games/{duel.public_id}/hint")
    assert answer.status_code == 403 and answer.json()["error"] == "not_a_player"


def test_practice_against_bots_allows_hints(alice: Any) -> None:
    game = services.create_game(
        viewer(alice), {"mode": "parlor", "players": 2, "seats": ["bot:beginner"]}
    )
    assert client_for(alice).get(f"/api/games/{game.public_id}/hint").status_code == 200


def test_a_finished_game_is_reviewed_turn_by_turn(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = sandbox_duel(alice, bob)
    users = [alice, bob]
    for _ in range(6):
        game.refresh_from_db()
        seat = state_from_record(game.state).turn
        post(
            client_for(users[seat]),
            f"/api/games/{game.public_id}/draw",
            {"expected_seq": game.seq, "key": key()},
        )
    game.refresh_from_db()
    # The game_finished receiver queues the review once the final move commits (eager here).
    with django_capture_on_commit_callbacks(execute=True):
        post(
            client_for(alice),
            f"/api/games/{game.public_id}/resign",
            {"expected_seq": game.seq, "key": key()},
        )
    page = client_for(alice).get(f"/g/{game.public_id}/replay/")
    assert page.status_code == 200
    game.refresh_from_db()
    assert len(game.review) == 6
    assert all(row["played"] == 0 and row["missed"] == row["best"] for row in game.review)
    assert any(row["missed"] for row in game.review)
    assert "the best play laid" in page.content.decode()


def test_a_missed_play_opens_as_a_shared_puzzle(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = sandbox_duel(alice, bob)
    users = [alice, bob]
    for turn in range(10):
        game.refresh_from_db()
        seat = state_from_record(game.state).turn
        client = client_for(users[seat])
        hint = client.get(f"/api/games/{game.public_id}/hint").json()
        body = {"expected_seq": game.seq, "key": key()}
        if turn < 2 and hint["tiles_played"]:
            post(client, f"/api/games/{game.public_id}/play", body | {"table": hint["table"]})
        else:
            post(client, f"/api/games/{game.public_id}/draw", body)
    game.refresh_from_db()
    # The game_finished receiver queues the review once the final move commits (eager here).
    with django_capture_on_commit_callbacks(execute=True):
        post(
            client_for(alice),
            f"/api/games/{game.public_id}/resign",
            {"expected_seq": game.seq, "key": key()},
        )
    page = client_for(alice).get(f"/g/{game.public_id}/replay/").content.decode()
    game.refresh_from_db()
    missed = [r for r in game.review if r["missed"] and r["opened"]]
    assert missed and f"/replay/{missed[0]['seq']}/puzzle" in page
    answer = client_for(alice).post(f"/g/{game.public_id}/replay/{missed[0]['seq']}/puzzle")
    assert answer.status_code == 302 and answer["Location"].startswith("/puzzles/s/")
    puzzle_page = client_for(alice).get(answer["Location"])
    assert puzzle_page.status_code == 200
    nothing = client_for(alice).post(f"/g/{game.public_id}/replay/2/puzzle")
    assert nothing.status_code == 404


def tournament_table(alice: Any, make_tournament: Any, format: str) -> Game:
    """alice's table in round 1 of a casual (unrated) tournament, against a casual bot."""
    from tournaments import services as tournaments

    t = make_tournament(bots=1, strength="casual", format=format, mode="parlor")
    tournaments.join(alice, t.pk)
    tournaments.start(None, t.pk)
    game = Game.objects.get(tournament_table__round__tournament=t)
    assert not game.rated and game.sealed == (format == "duplicate")
    return game


@pytest.mark.parametrize("format", ["swiss", "duplicate"])
def test_a_tournament_table_has_no_hints_even_against_a_bot(
    alice: Any, make_tournament: Any, format: str
) -> None:
    game = tournament_table(alice, make_tournament, format)
    client = client_for(alice)
    answer = client.get(f"/api/games/{game.public_id}/hint")
    assert answer.status_code == 403
    assert answer.json() == {
        "error": "tournament_no_hints",
        "message": "A tournament's table has no hints, even against bots.",
    }
    # The board hides its Hint button when its bootstrap says no hints (static/games/rummikub.js).
    html = client.get(game.get_absolute_url()).content.decode()
    found = re.search(r'<script id="bootstrap" type="application/json">(.*?)</script>', html)
    assert found and json.loads(found.group(1))["hints"] is False


def test_a_finished_duplicate_table_opens_no_missed_play_while_its_round_is_on(
    alice: Any, make_tournament: Any
) -> None:
    game = tournament_table(alice, make_tournament, "duplicate")
    Game.objects.filter(pk=game.pk).update(
        status="finished", review=[{"seq": 2, "missed": 3, "opened": True}]
    )
    answer = client_for(alice).post(f"/g/{game.public_id}/replay/2/puzzle")
    assert answer.status_code == 403
    assert "still playing" in answer.content.decode()
