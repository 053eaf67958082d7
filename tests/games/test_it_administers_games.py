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
from games.models import Game, GameEvent, GameResult, Seat, Status

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


def test_a_name_is_not_found_inside_another_games_id(
    operator: Client, duel: Game, waiting: Game
) -> None:
    # Ids are random: one once held "bOb", and searching for bob found carol's game too.
    Game.objects.filter(pk=waiting.pk).update(public_id="Ce-bOb5fNkF7")

    assert _ids(operator.get(CHANGELIST, {"q": "bob"})) == {duel.public_id}
    assert _ids(operator.get(CHANGELIST, {"q": "ce-bob5fnkf7"})) == {"Ce-bOb5fNkF7"}
    assert _ids(operator.get(CHANGELIST, {"q": "bOb5"})) == set()


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


def _end(operator: Client, games: list[Game], **extra: str) -> Any:
    body = {"action": "end_stuck_games", "_selected_action": [g.pk for g in games], **extra}
    return operator.post(CHANGELIST, body, follow="apply" in extra)


def test_ending_asks_for_a_reason_first(operator: Client, duel: Game, waiting: Game) -> None:
    page = _end(operator, [duel, waiting])

    assert page.status_code == 200
    html = page.content.decode()
    assert "End stuck games" in html and 'name="reason"' in html
    assert duel.public_id in html and waiting.public_id in html
    assert "End 1 running game" in html
    duel.refresh_from_db()
    assert duel.status == Status.PLAYING

    blank = _end(operator, [duel], apply="yes", reason="   ")
    assert blank.status_code == 200 and "This field is required." in blank.content.decode()
    duel.refresh_from_db()
    assert duel.status == Status.PLAYING


def test_the_action_ends_a_running_game_through_the_service(
    operator: Client, duel: Game, waiting: Game
) -> None:
    answer = _end(operator, [duel, waiting], apply="yes", reason="seat 2 left for good")

    assert answer.status_code == 200
    shown = [str(m) for m in answer.context["messages"]]
    assert shown == [
        f"Ended 1 game(s): {duel.public_id}.",
        f"Not running, left as they were: {waiting.public_id}.",
    ]
    duel.refresh_from_db()
    waiting.refresh_from_db()
    assert duel.status == Status.FINISHED and waiting.status == Status.WAITING
    assert duel.events.order_by("seq").last().kind == "GameEnded"  # type: ignore[union-attr]
    assert "seat 2 left for good" in str([e.payload for e in duel.events.all()])
    assert GameResult.objects.filter(game=duel).count() == 2

    page = operator.get(reverse("admin:games_game_change", args=[duel.pk])).content.decode()
    assert "game results" in page.lower() and "Place" in page


def test_the_action_writes_nothing_itself(
    operator: Client, duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    calls: list[tuple[str, str]] = []

    def end_game(gid: str, note: str) -> bool:
        calls.append((gid, note))
        return True

    monkeypatch.setattr(services, "end_game", end_game)
    with CaptureQueriesContext(connection) as queries:
        _end(operator, [duel], apply="yes", reason="stuck since the outage")

    assert calls == [(duel.public_id, "stuck since the outage")]
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        and "games_" in q["sql"]
    ]
    assert writes == []
    duel.refresh_from_db()
    assert duel.status == Status.PLAYING


def test_a_refused_end_is_reported(
    operator: Client, duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.errors import Illegal

    def refuse(gid: str, note: str) -> bool:
        raise Illegal("cannot_adjudicate", "The round cannot be scored now.")

    monkeypatch.setattr(services, "end_game", refuse)
    answer = _end(operator, [duel], apply="yes", reason="stuck")

    shown = [str(m) for m in answer.context["messages"]]
    assert shown == [f"{duel.public_id} was not ended: The round cannot be scored now."]


def test_staff_without_the_permission_get_no_end_action(django_user_model: Any, duel: Game) -> None:
    from django.contrib.auth.models import Permission

    clerk = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_game"))
    client = Client()
    client.force_login(clerk)

    listed = client.get(CHANGELIST)
    assert listed.status_code == 200 and "end_stuck_games" not in listed.content.decode()
    _end(client, [duel], apply="yes", reason="stuck")
    duel.refresh_from_db()
    assert duel.status == Status.PLAYING
