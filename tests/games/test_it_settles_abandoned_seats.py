"""Abandoned games end (issue 18): a seat that timed out three turns in a row is marked away,
and the other players may go on against a bot in that seat or end the game, scored as that
player's resignation."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.errors import Conflict, Forbidden
from games.models import Game, SeatKind, Status
from games.services import bots

from .conftest import client_for, key, post, viewer

pytestmark = pytest.mark.django_db

LATER = timezone.now() + timedelta(days=30)


def _turn(game: Game) -> int:
    game.refresh_from_db()
    state = services.load_state(game)
    assert state is not None
    return state.turn


def _miss_turns(game: Game, present: Any, away_seat: int, times: int) -> None:
    """The away seat times out ``times`` turns; the present player draws on theirs."""
    missed = 0
    while missed < times:
        if _turn(game) == away_seat:
            assert services.timeout(game.public_id, game.turn_number, now=LATER)
            missed += 1
        else:
            body = {"key": key(), "expected_seq": game.seq}
            services.act(game.public_id, viewer(present), "draw", body)
    game.refresh_from_db()


def test_three_timeouts_in_a_row_mark_a_seat_away(duel: Game, alice: Any, bob: Any) -> None:
    _miss_turns(duel, alice, 1, 2)
    assert services.away_seats(duel) == []
    _miss_turns(duel, alice, 1, 1)
    assert services.away_seats(duel) == [1]
    assert client_for(alice).get(reverse("api_away", args=[duel.public_id])).json() == {"away": [1]}


def test_a_move_of_their_own_starts_the_count_again(duel: Game, alice: Any, bob: Any) -> None:
    _miss_turns(duel, alice, 1, 2)
    while _turn(duel) != 1:
        services.act(
            duel.public_id, viewer(alice), "draw", {"key": key(), "expected_seq": duel.seq}
        )
    services.act(duel.public_id, viewer(bob), "draw", {"key": key(), "expected_seq": duel.seq})
    _miss_turns(duel, alice, 1, 2)
    assert services.away_seats(duel) == []


def test_ending_the_game_scores_it_as_their_resignation(duel: Game, alice: Any, bob: Any) -> None:
    _miss_turns(duel, alice, 1, 3)

    answer = post(
        client_for(alice), reverse("api_away", args=[duel.public_id]), {"seat": 1, "choice": "end"}
    ).json()

    assert answer["status"] == Status.FINISHED
    results = {r.seat: r for r in duel.results.all()}
    assert results[1].resigned and not results[0].resigned
    assert results[0].place == 1


def test_a_bot_takes_the_seat_and_plays_on(
    duel: Game, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _miss_turns(duel, alice, 1, 3)
    # Alice's turn now; she draws, and the bot in Bob's seat plays his turn at once.
    services.act(duel.public_id, viewer(alice), "draw", {"key": key(), "expected_seq": duel.seq})
    turn_before = Game.objects.get(pk=duel.pk).turn_number

    with django_capture_on_commit_callbacks(execute=True):
        services.settle_away_seat(duel.public_id, viewer(alice), 1, "bot")

    seat = duel.seats.get(index=1)
    assert seat.kind == SeatKind.BOT and seat.bot_strength == "casual"
    duel.refresh_from_db()
    assert duel.status == Status.PLAYING and duel.turn_number > turn_before
    assert _turn(duel) == 0


def test_only_the_others_decide_and_only_for_an_away_seat(
    duel: Game, alice: Any, bob: Any, carol: Any
) -> None:
    with pytest.raises(Conflict):
        services.settle_away_seat(duel.public_id, viewer(alice), 1, "end")
    _miss_turns(duel, alice, 1, 3)
    with pytest.raises(Forbidden):
        services.settle_away_seat(duel.public_id, viewer(carol), 1, "end")
    with pytest.raises(Forbidden):
        services.settle_away_seat(duel.public_id, viewer(bob), 1, "end")
    response = post(
        client_for(alice), reverse("api_away", args=[duel.public_id]), {"seat": 1, "choice": "x"}
    )
    assert response.status_code == 400
    no_seat = post(
        client_for(alice), reverse("api_away", args=[duel.public_id]), {"seat": 99, "choice": "bot"}
    )
    assert no_seat.status_code == 400 and no_seat.json() == {
        "error": "bad_seat",
        "message": "There is no seat 99 at this table: its seats are 0 to 1.",
    }
    assert client_for(alice).head(reverse("api_away", args=[duel.public_id])).status_code == 200


def test_a_seat_a_bot_took_over_is_no_longer_its_players(
    duel: Game, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Found on 2026-12-07: Bob, replaced by a bot, still saw the seat's rack and his draw on
    its turn was applied, the bot and he both moving for one seat."""
    _miss_turns(duel, alice, 1, 3)
    with django_capture_on_commit_callbacks(execute=True):
        services.settle_away_seat(duel.public_id, viewer(alice), 1, "bot")

    bobs = client_for(bob)
    view = bobs.get(reverse("api_game", args=[duel.public_id])).json()
    assert view["me"] is None and view["view"]["rack"] == []
    duel.refresh_from_db()
    refused = post(
        bobs, f"/api/games/{duel.public_id}/draw", {"key": key(), "expected_seq": duel.seq}
    )
    assert refused.status_code == 403 and refused.json()["error"] == "not_a_player"
    # Nor is he seated at a live table any more: he may start another game.
    assert services.live_game_of(viewer(bob)) is None


def test_a_decision_for_an_away_seat_is_checked_again_under_the_lock(
    duel: Game, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    """Found on 2026-12-07: a bot and an end sent at once both passed the check made before
    the game's lock, and the seat became a bot and was resigned too. Here the second decision
    reads the seat as away before the lock, as it would have while the first committed."""
    _miss_turns(duel, alice, 1, 3)
    with django_capture_on_commit_callbacks(execute=True):
        services.settle_away_seat(duel.public_id, viewer(alice), 1, "bot")
    real = bots.away_seats
    reads: list[int] = []

    def stale_first(game: Game) -> list[int]:
        reads.append(1)
        return [1] if len(reads) == 1 else real(game)

    monkeypatch.setattr(bots, "away_seats", stale_first)
    with pytest.raises(Conflict):
        services.settle_away_seat(duel.public_id, viewer(alice), 1, "end")
    duel.refresh_from_db()
    assert duel.status == Status.PLAYING and len(reads) == 2
    assert not duel.results.exists()
