"""The operator's admin: find games by id, player or status; read seats and events; change
nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.admin import EVENTS_SHOWN
from games.models import Game, GameEvent, Seat, Status

from .conftest import key, viewer

pytestmark = pytest.mark.django_db
CHANGELIST = reverse("admin:games_game_changelist")


@pytest.fixture
def operator(django_user_model: Any) -> Client:
    user = django_user_model.objects.create_superuser("operator", "op@example.com", "pw-4-admin")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def waiting(carol: Any) -> Game:
    return services.create_game(viewer(carol), {"mode": "blitz", "players": 3})


def _ids(answer: Any) -> set[str]:
    return {game.public_id for game in answer.context["cl"].result_list}


def test_the_changelist_lists_games_with_their_seats(
    operator: Client, duel: Game, waiting: Game
) -> None:
    answer = operator.get(CHANGELIST)

    assert answer.status_code == 200
    assert _ids(answer) == {duel.public_id, waiting.public_id}
    html = answer.content.decode()
    assert "alice, bob" in html and "carol, open, open" in html
    for column in ("Public id", "Mode", "Status", "Players", "Seats", "Created", "Finished"):
        assert column in html


def test_it_finds_a_game_by_id_or_player(operator: Client, duel: Game, waiting: Game) -> None:
    assert _ids(operator.get(CHANGELIST, {"q": duel.public_id})) == {duel.public_id}
    assert _ids(operator.get(CHANGELIST, {"q": "bob"})) == {duel.public_id}
    assert _ids(operator.get(CHANGELIST, {"q": "carol"})) == {waiting.public_id}
    assert _ids(operator.get(CHANGELIST, {"q": "nobody"})) == set()


def test_a_guest_is_found_by_display_name(operator: Client, alice: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    guest = Client()
    guest.post(game.seats.get(index=1).invite_url, {"name": "Dora Explorer"})

    assert _ids(operator.get(CHANGELIST, {"q": "Dora"})) == {game.public_id}


def test_it_filters_by_status_and_mode(operator: Client, duel: Game, waiting: Game) -> None:
    assert _ids(operator.get(CHANGELIST, {"status__exact": Status.PLAYING})) == {duel.public_id}
    assert _ids(operator.get(CHANGELIST, {"status__exact": Status.WAITING})) == {waiting.public_id}
    assert _ids(operator.get(CHANGELIST, {"mode__exact": "blitz"})) == {waiting.public_id}


def test_the_game_page_shows_seats_and_events_read_only(operator: Client, duel: Game) -> None:
    answer = operator.get(reverse("admin:games_game_change", args=[duel.pk]))

    assert answer.status_code == 200
    html = answer.content.decode()
    assert "View game" in html  # Django's read-only page, no form to save
    content = html.split('id="content-main"')[1]
    fields = re.findall(r"<(?:input|select|textarea)\b[^>]*>", content)
    assert fields and all('type="hidden"' in field for field in fields), fields
    assert 'name="_save"' not in content
    assert "alice" in html and "bob" in html
    assert "RoundStarted" in html and "GameStarted" in html
    assert duel.seed not in html  # secret until the end
    assert "shown when the game is over" in html  # payloads hold the racks
    assert f"?q={duel.public_id}" in html


def test_a_long_game_shows_only_its_latest_events(operator: Client, duel: Game) -> None:
    last = duel.seq
    GameEvent.objects.bulk_create(
        GameEvent(game=duel, seq=last + n, kind="Passed", payload={"kind": "Passed", "seat": 0})
        for n in range(1, 200)
    )
    answer = operator.get(reverse("admin:games_game_change", args=[duel.pk]))

    [events] = [f for f in answer.context["inline_admin_formsets"] if f.opts.model is GameEvent]
    seqs = [form.original.seq for form in events]
    assert seqs == list(range(last + 199, last + 199 - EVENTS_SHOWN, -1))
    assert f"all {last + 199} events" in answer.content.decode()
    listed = operator.get(reverse("admin:games_gameevent_changelist"), {"q": duel.public_id})
    assert listed.status_code == 200 and listed.context["cl"].result_count == last + 199
    GameEvent.objects.filter(game=duel, seq__gt=last).delete()  # the log must replay


def test_a_finished_games_events_show_their_payloads(
    operator: Client, duel: Game, alice: Any
) -> None:
    services.act(duel.public_id, viewer(alice), "resign", {"expected_seq": duel.seq, "key": key()})
    duel.refresh_from_db()
    assert duel.status == Status.FINISHED

    html = operator.get(reverse("admin:games_game_change", args=[duel.pk])).content.decode()
    assert "shown when the game is over" not in html and "PlayerResigned" in html


def test_nothing_is_added_changed_or_deleted(operator: Client, duel: Game) -> None:
    before = (Game.objects.count(), Seat.objects.count(), GameEvent.objects.count())
    change = reverse("admin:games_game_change", args=[duel.pk])

    assert operator.get(reverse("admin:games_game_add")).status_code == 403
    assert operator.post(change, {"status": "finished"}).status_code == 403
    delete = reverse("admin:games_game_delete", args=[duel.pk])
    assert operator.post(delete, {"post": "yes"}).status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [duel.pk], "post": "yes"}
    operator.post(CHANGELIST, bulk)
    event = duel.events.first()
    assert event is not None
    edit_event = reverse("admin:games_gameevent_change", args=[event.pk])
    assert operator.post(edit_event, {"kind": "Passed"}).status_code == 403
    duel.refresh_from_db()
    assert duel.status == Status.PLAYING
    assert (Game.objects.count(), Seat.objects.count(), GameEvent.objects.count()) == before


def test_only_staff_see_it(duel: Game, alice: Any) -> None:
    answer = Client().get(CHANGELIST)
    assert answer.status_code == 302 and reverse("admin:login") in answer["Location"]
    signed_in = Client()
    signed_in.force_login(alice)
    assert signed_in.get(CHANGELIST).status_code == 302
