"""The end of a game (issue 18): the scorecard from the result rows, the links to the replay,
record and verify page, and a rematch with the same seats and options that each person
accepts while bots sit down at once; a seat that lost with its clock run out is named so."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.api import invites
from games.errors import Conflict, Forbidden
from games.models import Game, Status
from games.services.reading import timed_out_seats
from players.account import delete_account
from players.models import PlayerProfile

from .conftest import client_for, key, post, viewer

pytestmark = pytest.mark.django_db


def _finish(game: Game, resigner: Any) -> Game:
    body = {"key": key(), "expected_seq": game.seq}
    services.act(game.public_id, viewer(resigner), "resign", body)
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    return game


def test_the_end_shows_each_players_scorecard_and_the_links(duel: Game, alice: Any) -> None:
    game = _finish(duel, alice)

    answer = client_for(alice).get(reverse("api_end", args=[game.public_id])).json()

    lines = answer["scorecard"]
    results = {r.seat: r for r in game.results.all()}
    # Sorted by place: alice resigned, so the other seat comes first.
    assert [line["seat"] for line in lines] == [1, 0]
    assert [line["place"] for line in lines] == sorted(line["place"] for line in lines)
    for line in lines:
        row = results[line["seat"]]
        assert (line["name"], line["place"], line["total"]) == (row.name, row.place, row.total)
        # The family's own counts stand flat beside the common fields, as before details.
        assert (line["melds_laid"], line["tiles_played"], line["jokers_played"]) == (
            row.details["melds_laid"],
            row.details["tiles_played"],
            row.details["jokers_played"],
        )
        assert len(line["rounds"]) == 1  # the round scores, one per round played
    assert lines[1]["resigned"] and not lines[0]["resigned"]
    assert lines[0]["place"] == 1
    assert answer["links"] == {
        "replay": reverse("replay", args=[game.public_id]),
        "record": reverse("record", args=[game.public_id]),
        "verify": reverse("verify", args=[game.public_id]),
        "back": {"url": reverse("home"), "label": "Back to the parlor"},
    }
    assert answer["rematch"] == {"offered": False, "can_offer": True, "open_minutes": 10}


def test_a_game_in_play_has_no_end_yet(duel: Game, alice: Any) -> None:
    response = client_for(alice).get(reverse("api_end", args=[duel.public_id]))

    assert response.status_code == 409
    assert response.json()["error"] == "not_finished"


def test_a_rematch_keeps_the_seats_and_options_and_starts_when_each_accepts(
    duel: Game, alice: Any, bob: Any
) -> None:
    game = _finish(duel, bob)

    rematch = services.offer_rematch(game.public_id, viewer(alice))

    assert rematch.status == Status.WAITING and not rematch.listed
    assert (rematch.mode, rematch.config, rematch.family, rematch.clock_seconds) == (
        game.mode,
        game.config,
        game.family,
        game.clock_seconds,
    )
    assert rematch.seed != game.seed
    seats = list(rematch.seats.all())
    assert [(s.user_id, s.joined is not None) for s in seats] == [(alice.pk, True), (bob.pk, False)]
    state = services.rematch_state(game, viewer(bob))
    assert state["offered"] and not state["mine"]
    assert (state["accepted"], state["waiting"]) == (["alice"], ["bob"])
    # Asking again is harmless: the same game.
    assert services.offer_rematch(game.public_id, viewer(alice)).pk == rematch.pk
    assert services.offer_rematch(game.public_id, viewer(bob)).pk == rematch.pk
    rematch.refresh_from_db()
    assert rematch.status == Status.PLAYING
    assert services.rematch_state(game, viewer(bob))["mine"]


def test_a_kept_seat_is_not_anyone_elses(duel: Game, alice: Any, bob: Any, carol: Any) -> None:
    game = _finish(duel, bob)
    rematch = services.offer_rematch(game.public_id, viewer(alice))
    kept = rematch.seats.get(index=1)

    assert invites(rematch) == []
    with pytest.raises(Conflict):
        services.join_game(viewer(carol), kept.invite_token)
    kept.refresh_from_db()
    assert kept.user_id == bob.pk and kept.joined is None


def test_bots_sit_down_at_once(alice: Any) -> None:
    game = services.create_game(
        viewer(alice), {"mode": "blitz", "players": 2, "seats": ["bot:strong"]}
    )
    game = _finish(game, alice)

    rematch = services.offer_rematch(game.public_id, viewer(alice))

    assert rematch.status == Status.PLAYING
    assert [s.bot_strength for s in rematch.seats.all()] == ["", "strong"]


def test_only_the_players_of_a_finished_game_ask(duel: Game, alice: Any, carol: Any) -> None:
    with pytest.raises(Conflict):
        services.offer_rematch(duel.public_id, viewer(alice))
    game = _finish(duel, alice)
    with pytest.raises(Forbidden):
        services.offer_rematch(game.public_id, viewer(carol))
    response = post(client_for(carol), reverse("api_rematch", args=[game.public_id]), {})
    assert response.status_code == 403


def test_the_waiting_room_asks_the_other_player_to_accept(duel: Game, alice: Any, bob: Any) -> None:
    game = _finish(duel, alice)
    answer = post(client_for(alice), reverse("api_rematch", args=[game.public_id]), {}).json()
    assert answer["url"] == reverse("game", args=[answer["gid"]])

    page = client_for(bob).get(answer["url"]).content.decode()
    assert "Accept the rematch" in page
    assert '<em>kept for <a class="player-link" href="/@/bob/">' in page  # and linked to bob

    response = client_for(bob).post(reverse("rematch", args=[game.public_id]))
    assert response.status_code == 302 and response["Location"] == answer["url"]
    assert Game.objects.get(public_id=answer["gid"]).status == Status.PLAYING


def test_a_finished_game_opens_its_replay_from_the_home_page(duel: Game, alice: Any) -> None:
    game = _finish(duel, alice)

    page = client_for(alice).get(reverse("home")).content.decode()

    assert reverse("replay", args=[game.public_id]) in page
    assert f'href="{reverse("game", args=[game.public_id])}"' not in page


def test_the_end_names_a_seat_that_timed_out(alice: Any, bob: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "blitz", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    game.refresh_from_db()
    first = services.load_state(game).turn
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=2))
    assert services.timeout(game.public_id, game.turn_number)
    game.refresh_from_db()
    # Its clock ran out; then the other seat moves and a third seat ends the game, so the
    # seat that timed out neither won nor resigned.
    other = 1 - first
    body = {"key": key(), "expected_seq": game.seq}
    services.act(game.public_id, viewer([alice, bob][other]), "draw", body)
    game.refresh_from_db()
    services.end_game(game.public_id, "the table closed")
    game.refresh_from_db()

    assert timed_out_seats(game) == {first}  # the other's last turn was a move
    lines = {line["seat"]: line for line in services.scorecard(game)}
    # The adjudication places the seats by their racks: a seat that timed out and still came
    # first is the winner, not "timed out".
    assert lines[first]["timed_out"] == (lines[first]["place"] != 1)
    assert not lines[first]["resigned"] and not lines[other]["timed_out"]


def test_a_rematch_seats_a_player_under_their_display_name(duel: Game, alice: Any) -> None:
    """As at create and join: a signed-in player's shown name, not their username."""
    game = _finish(duel, alice)
    profile = PlayerProfile.of(alice)
    profile.display_name = "Alice Wonder"
    profile.save()

    answer = post(client_for(alice), f"/api/games/{game.public_id}/rematch", {})

    assert answer.status_code == 200, answer.content
    assert answer.json()["accepted"] == ["Alice Wonder"]
    rematch = Game.objects.get(public_id=answer.json()["gid"])
    assert rematch.seats.get(index=0).name == "Alice Wonder"


def test_a_rematch_body_with_a_field_is_refused(duel: Game, alice: Any) -> None:
    game = _finish(duel, alice)

    answer = post(client_for(alice), f"/api/games/{game.public_id}/rematch", {"x": 1})

    assert answer.status_code == 400
    assert answer.json() == {
        "error": "bad_field",
        "message": "x is not a field of a rematch; it takes none.",
    }
    assert not Game.objects.filter(rematch_of=game).exists()


def test_no_rematch_once_a_player_has_deleted_their_account(
    duel: Game, alice: Any, bob: Any
) -> None:
    """The deleted player's seat belongs to nobody: a rematch would open it to any stranger."""
    game = _finish(duel, alice)
    delete_account(bob)

    answer = post(client_for(alice), f"/api/games/{game.public_id}/rematch", {})

    assert answer.status_code == 409
    assert answer.json()["message"] == (
        "A player of this game has deleted their account: it has no rematch."
    )
    assert (
        client_for(alice).get(f"/api/games/{game.public_id}/end").json()["rematch"]["can_offer"]
        is False
    )
    assert not Game.objects.filter(rematch_of=game).exists()


def test_a_live_rematch_is_refused_to_a_player_at_another_live_table(
    duel: Game, alice: Any, bob: Any
) -> None:
    """Accepting would seat alice in two live games at once (docs/fair-play.md)."""
    game = _finish(duel, alice)
    other = services.create_game(viewer(alice), {"mode": "parlor", "seats": ["bot:casual"]})
    offer = services.offer_rematch(game.public_id, viewer(bob))

    answer = post(client_for(alice), f"/api/games/{game.public_id}/rematch", {})

    assert answer.status_code == 409 and answer.json()["error"] == "live_game_running"
    assert answer.json()["url"] == other.get_absolute_url()
    assert Game.objects.get(pk=offer.pk).seats.get(index=0).joined is None
    # Asking first is refused the same way, and makes nothing.
    services.leave_table(offer.public_id, viewer(bob))
    assert post(client_for(alice), f"/api/games/{game.public_id}/rematch", {}).status_code == 409
    assert not Game.objects.filter(rematch_of=game).exists()
