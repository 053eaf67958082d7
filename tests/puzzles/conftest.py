"""Puzzle fixtures: the shipped puzzles in the database, clients, a JSON poster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from puzzles.generator import read_fixture
from puzzles.management.commands.loadpuzzles import DEFAULT_FILE, load
from puzzles.models import Puzzle

SHIPPED = read_fixture(Path(DEFAULT_FILE).read_text())


@pytest.fixture(autouse=True)
def _eager_tasks_and_quick_passwords(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    # The cast's passwords need not resist attack here; hashing them properly costs seconds.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


PER_LEVEL = 6


@pytest.fixture
def shipped(db: Any) -> list[Puzzle]:
    """The first shipped puzzles of each level, loaded as ``make run`` loads them (all 300
    would make each test slower and show nothing more)."""
    levels: dict[int, int] = {}
    chosen = []
    for entry in SHIPPED["puzzles"]:
        levels[entry["level"]] = levels.get(entry["level"], 0) + 1
        if levels[entry["level"]] <= PER_LEVEL:
            chosen.append(entry)
    load(chosen)
    return list(Puzzle.objects.all())


def post(client: Client, url: str, body: Any = None) -> Any:
    data = "" if body is None else json.dumps(body)
    return client.post(url, data, content_type="application/json")


def api(slug: str, action: str) -> str:
    return f"/puzzles/api/{slug}/{action}"


def user_client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client
