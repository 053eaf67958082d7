"""The organiser's console is for those who may change tournaments: a staff account that may
only view them gets a 403 from every step that changes one, adding players too."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_staff_who_may_not_change_tournaments_may_not_add_players(
    django_user_model: Any, make_tournament: Any
) -> None:
    t = make_tournament()
    gone = django_user_model.objects.create_user("gone", "g@example.com", "pw")
    services.join(gone, t.pk)
    services.withdraw_self(gone, t.pk)
    viewer = django_user_model.objects.create_user("viewer", "v@example.com", "pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_tournament"))
    client = Client()
    client.force_login(viewer)
    url = reverse("admin:tournaments_tournament_add_player", args=[t.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"username": "gone", "count": 1}).status_code == 403
    assert client.post(url, {"bot": "beginner", "count": 3}).status_code == 403
    assert Entry.objects.get(tournament=t, user=gone).withdrawn, "not reinstated"
    assert t.entries.count() == 1, "no bot added"
