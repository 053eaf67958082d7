"""A player named like a formula comes out of the tournament CSVs as text
(docs/fair-play.md "Exports"): the cell gets a single quote in front (OWASP's rule)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services

from ..conftest import PASSWORD

pytestmark = pytest.mark.django_db

FORMULAS = ["-2+3", "+1-1", "@A1"]


def rows(url: str) -> list[list[str]]:
    answer = Client().get(url)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(answer.content.decode())))


def test_formula_names_are_text_in_standings_and_pairings(
    django_user_model: Any, make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(bots=1)
    for name in FORMULAS:
        services.join(django_user_model.objects.create_user(name, password=PASSWORD), t.pk)
    services.start(None, t.pk)

    standings = rows(reverse("tournament_standings_csv", args=[t.pk]))
    pairings = rows(reverse("tournament_pairings_csv", args=[t.pk]))

    players = {row[1] for row in standings[1:]} | {row[3] for row in pairings[1:]}
    assert {"'" + name for name in FORMULAS} <= players
    cells = [c for row in standings + pairings for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert "Beginner bot 1" in players, "other names are left as they are"
