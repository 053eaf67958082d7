"""The organiser runs a tournament from its own admin page, not only from the changelist:
Start, Pause, Resume and Cancel buttons there call the same services, each kept in the
tournament's history; the form leaves an unset points scheme empty (not ``null``) and the
entries' heading reads "entries"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tournaments.models import Tournament

from .conftest import play

pytestmark = pytest.mark.django_db(transaction=True)


def page_of(client: Client, t: Tournament) -> str:
    answer = client.get(reverse("admin:tournaments_tournament_change", args=[t.pk]))
    assert answer.status_code == 200
    return answer.content.decode()


def buttons(html: str) -> list[str]:
    return re.findall(r'data-step="(\w+)"', html)


def press(client: Client, html: str, verb: str, **data: str) -> str:
    url = re.search(
        rf'action="([^"]+)" class="organiser-step"><input[^>]+>'
        rf'<button type="submit" data-step="{verb}"',
        html,
    )
    assert url, f"no {verb} button"
    answer = client.post(url.group(1), data, follow=True)
    assert answer.status_code == 200
    return answer.content.decode()


def test_start_pause_resume_and_cancel_from_the_tournaments_page(
    organiser: Client, make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(bots=4, rounds=2)
    html = page_of(organiser, t)
    assert buttons(html) == ["start", "cancel"]

    html = press(organiser, html, "start")
    t.refresh_from_db()
    assert t.state == "running" and "Started" in html
    assert buttons(html) == ["pause", "cancel"]

    html = press(organiser, html, "pause")
    t.refresh_from_db()
    assert t.state == "paused" and buttons(html) == ["resume", "cancel"]

    html = press(organiser, html, "resume")
    t.refresh_from_db()
    assert t.state == "running"

    cancel = reverse("admin:tournaments_tournament_step", args=[t.pk, "cancel"])
    assert f'href="{cancel}" data-step="cancel"' in html
    asked = organiser.get(cancel)
    assert asked.status_code == 200 and b'name="reason"' in asked.content
    assert t.state == "running", "asking for the reason cancels nothing"
    done = organiser.post(cancel, {"apply": "1", "reason": "the hall closed"}, follow=True)
    assert done.status_code == 200
    play(queue)
    t.refresh_from_db()
    assert t.state == "cancelled"
    steps = {"started", "paused", "resumed", "cancelled"}
    verbs = [v for v in t.actions.order_by("pk").values_list("verb", flat=True) if v in steps]
    assert verbs == ["started", "paused", "resumed", "cancelled"]
    assert set(t.actions.filter(verb__in=steps).values_list("actor__username", flat=True)) == {
        "organiser"
    }
    assert t.actions.filter(verb="cancelled", detail="the hall closed").exists()
    games = Game.objects.filter(tournament_table__round__tournament=t)
    assert set(games.values_list("status", flat=True)) == {"finished"}
    assert buttons(page_of(organiser, t)) == []


def test_a_step_that_does_not_fit_is_refused_with_a_sentence(
    organiser: Client, make_tournament: Any
) -> None:
    t = make_tournament(bots=0)
    step = reverse("admin:tournaments_tournament_step", args=[t.pk, "start"])

    answer = organiser.post(step, follow=True)

    assert b"It takes at least 2 players to start." in answer.content
    t.refresh_from_db()
    assert t.state == "scheduled"
    assert organiser.get(step).status_code == 405
    assert (
        organiser.post(
            reverse("admin:tournaments_tournament_step", args=[t.pk, "explode"])
        ).status_code
        == 404
    )
    assert Client().post(step).status_code == 302, "the admin's sign-in guards the steps"


def test_the_form_leaves_an_unset_points_scheme_empty_and_says_entries(
    organiser: Client, make_tournament: Any
) -> None:
    t = make_tournament(bots=2)
    html = page_of(organiser, t)

    field = re.search(r'<textarea name="points_scheme"[^>]*>(.*?)</textarea>', html, re.S)
    assert field and field.group(1).strip() == ""
    assert "Entrys" not in html and "entrys" not in html.lower()
    assert re.search(r"<h2[^>]*>\s*Entries\s*</h2>", html, re.I)


@pytest.mark.parametrize("page", ["step", "add_player"])
def test_an_unknown_tournament_is_the_admins_404(organiser: Client, page: str) -> None:
    """An id typed or stale (a tournament deleted) was a 500: the service's NotFound went
    uncaught."""
    args = [999, "start"] if page == "step" else [999]
    url = reverse(f"admin:tournaments_tournament_{page}", args=args)

    assert organiser.get(url).status_code == 404
    assert organiser.post(url).status_code == 404
