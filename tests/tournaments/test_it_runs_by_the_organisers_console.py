"""The Django admin is the organiser's console: each action goes through the services and is
kept in the tournament's history; adjudications show on the public page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from tournaments.models import Entry, Round, Table, Tournament

from .conftest import add_tournament, play

pytestmark = pytest.mark.django_db(transaction=True)


def changelist_action(client: Client, model: str, action: str, ids: list[int], **extra: Any) -> Any:
    url = reverse(f"admin:tournaments_{model}_changelist")
    return client.post(url, {"action": action, "_selected_action": ids, **extra}, follow=True)


def test_an_organiser_creates_fills_starts_and_adjudicates(
    organiser: Client, alice: Any, queue: Any
) -> None:
    add = organiser.post(
        reverse("admin:tournaments_tournament_add"),
        {
            "name": "Friday Swiss",
            "description": "Two rounds, tables of two.",
            "format": "swiss",
            "mode": "lan",
            "table_size": 2,
            "rounds": 2,
            "clock_seconds": 60,
            "starts_at_0": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d"),
            "starts_at_1": "18:00:00",
            "registration_open": "on",
            "min_games": 0,
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
            "actions-TOTAL_FORMS": 0,
            "actions-INITIAL_FORMS": 0,
        },
        follow=True,
    )
    assert add.status_code == 200
    t = Tournament.objects.get(name="Friday Swiss")
    page = reverse("admin:tournaments_tournament_add_player", args=[t.pk])
    organiser.post(page, {"username": "alice", "count": 1})
    organiser.post(page, {"bot": "beginner", "count": 3})
    assert t.entries.count() == 4

    changelist_action(organiser, "tournament", "start_now", [t.pk])
    t.refresh_from_db()
    assert t.state == "running"
    (rnd,) = Round.objects.filter(tournament=t)
    assert rnd.tables.count() == 2

    alice_table = Table.objects.get(round=rnd, seats__entry__user=alice)
    answer = changelist_action(
        organiser, "table", "adjudicate", [alice_table.pk], apply="1", reason="alice's line dropped"
    )
    assert b"Adjudicated" in answer.content
    play(queue)
    alice_table.refresh_from_db()
    assert alice_table.done and alice_table.game.status == "finished"
    public = Client().get(t.get_absolute_url())
    assert "alice&#x27;s line dropped" in public.content.decode()

    bot = Entry.objects.filter(tournament=t, bot_strength="beginner").first()
    changelist_action(organiser, "entry", "withdraw", [bot.pk])
    bot.refresh_from_db()
    assert bot.withdrawn
    changelist_action(organiser, "entry", "reinstate", [bot.pk])
    bot.refresh_from_db()
    assert not bot.withdrawn

    history = list(t.actions.values_list("verb", flat=True))
    for verb in (
        "created",
        "added",
        "started",
        "paired",
        "adjudicated",
        "withdrawn by the organiser",
        "reinstated",
    ):
        assert verb in history, verb
    assert t.actions.filter(verb="adjudicated").first().actor.username == "organiser"


def test_the_console_refuses_what_cannot_be_run(organiser: Client) -> None:
    answer = add_tournament(organiser, name="Bad", mode="rush", table_size=4, rounds=2)
    assert answer.status_code == 200
    assert "Rummy Rush is for two" in answer.content.decode()
    assert not Tournament.objects.filter(name="Bad").exists()


def test_pause_resume_repair_and_cancel(
    organiser: Client, make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(bots=4, rounds=2)
    changelist_action(organiser, "tournament", "start_now", [t.pk])
    rnd = Round.objects.get(tournament=t)
    before = set(rnd.tables.values_list("game_id", flat=True))

    changelist_action(organiser, "round", "repair", [rnd.pk])
    again = Round.objects.get(tournament=t)
    assert set(again.tables.values_list("game_id", flat=True)).isdisjoint(before)
    assert not Game.objects.filter(pk__in=before).exists()

    changelist_action(organiser, "tournament", "pause", [t.pk])
    t.refresh_from_db()
    assert t.state == "paused"
    changelist_action(organiser, "tournament", "resume", [t.pk])
    t.refresh_from_db()
    assert t.state == "running"

    play(queue)  # every round is played to the end
    first = Round.objects.get(tournament=t, number=1)
    refused = changelist_action(organiser, "round", "repair", [first.pk])
    assert b"Only the current round" in refused.content
    t.refresh_from_db()
    assert t.state == "finished"


def test_cancelling_ends_the_tables_in_play(
    organiser: Client, make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(bots=4)
    changelist_action(organiser, "tournament", "start_now", [t.pk])
    changelist_action(
        organiser, "tournament", "cancel", [t.pk], apply="1", reason="the hall closed"
    )
    play(queue)
    t.refresh_from_db()
    assert t.state == "cancelled"
    assert t.actions.filter(verb="cancelled", detail="the hall closed").exists()
    games = Game.objects.filter(tournament_table__round__tournament=t)
    assert games.count() == 2 and set(games.values_list("status", flat=True)) == {"finished"}
    assert Round.objects.filter(tournament=t).count() == 1, "nothing more is paired"
