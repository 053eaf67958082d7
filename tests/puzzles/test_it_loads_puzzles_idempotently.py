"""`manage.py loadpuzzles`, run by `make run` on every start: quick, idempotent, and it leaves
ratings that play has moved alone."""

from __future__ import annotations

import time
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from puzzles.models import Puzzle

from .conftest import SHIPPED

pytestmark = pytest.mark.django_db


def load() -> str:
    out = StringIO()
    call_command("loadpuzzles", stdout=out)
    return out.getvalue()


def test_loading_twice_creates_once(db: Any) -> None:
    started = time.perf_counter()
    assert f"{len(SHIPPED['puzzles'])} created, 0 updated" in load()
    assert "0 created, 0 updated" in load()
    assert time.perf_counter() - started < 5
    assert Puzzle.objects.count() == len(SHIPPED["puzzles"])


def test_a_reload_fixes_content_but_keeps_ratings(db: Any) -> None:
    load()
    puzzle = Puzzle.objects.get(slug="l05-001")
    Puzzle.objects.filter(pk=puzzle.pk).update(lesson="edited", rating=1234.0)
    assert "0 created, 1 updated" in load()
    puzzle.refresh_from_db()
    assert puzzle.lesson != "edited" and puzzle.rating == 1234.0


def test_levels_set_the_starting_ratings(db: Any) -> None:
    load()
    means = [
        sum(p.rating for p in Puzzle.objects.filter(level=level)) / 30 for level in range(1, 11)
    ]
    assert means == sorted(means)
