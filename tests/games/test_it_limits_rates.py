"""Rate limits (issue 17, rummi_site/limits.py): creating and joining games, hints, editor
checks and puzzle moves answer 429 with a sentence and Retry-After past their limit."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from rummi_site.limits import RATES

from .conftest import client_for, post, viewer

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _limits_on(limits_on: None) -> None:
    """Every test here counts against the limits (tests/conftest.py ``limits_on``)."""


def limit_of(group: str) -> int:
    return int(RATES[group].split("/")[0])


def test_creating_games_past_the_limit_is_refused_with_retry_after(alice: Any, bob: Any) -> None:
    client = client_for(alice)
    # Correspondence tables: a person waits at one live table at a time (docs/fair-play.md).
    body = {"mode": "parlor", "players": 2, "listed": False, "days": 3}
    answers = [post(client, "/api/games/", body) for _ in range(limit_of("create") + 3)]

    assert [a.status_code for a in answers[: limit_of("create")]] == [201] * limit_of("create")
    refused = answers[-1]
    assert refused.status_code == 429
    assert refused.json()["error"] == "rate_limited" and "try again" in refused.json()["message"]
    assert 1 <= int(refused["Retry-After"]) <= 60
    # The HTML form shares the count, and says the same as a page.
    page = client.post("/games/new", {"mode": "parlor", "players": "2"})
    assert page.status_code == 429 and int(page["Retry-After"]) >= 1
    assert b"Too many new games" in page.content
    # Someone else is not held back.
    assert post(client_for(bob), "/api/games/", body).status_code == 201


def test_guests_are_counted_by_address(bob: Any) -> None:
    answers = [
        post(Client(), "/api/games/", {"mode": "parlor", "players": 2, "name": f"G{n}"})
        for n in range(limit_of("create") + 1)
    ]
    assert answers[-1].status_code == 429  # fresh sessions, one address


@pytest.mark.parametrize(
    ("group", "method", "url"),
    [
        ("editor", "post", "/puzzles/api/editor"),
        ("puzzle", "post", "/puzzles/api/no-such-puzzle/submit"),
    ],
)
def test_editor_checks_and_puzzle_moves_are_limited(
    alice: Any, group: str, method: str, url: str
) -> None:
    client = client_for(alice)
    statuses = [post(client, url, {}).status_code for _ in range(limit_of(group) + 1)]
    assert 429 not in statuses[:-1] and statuses[-1] == 429


def test_hints_and_joins_are_limited(alice: Any, bob: Any, carol: Any) -> None:
    game = services.create_game(
        viewer(alice), {"mode": "sandbox", "players": 2, "seats": ["bot:casual"]}
    )
    client = client_for(alice)
    hints = [client.get(f"/api/games/{game.public_id}/hint") for _ in range(limit_of("hint") + 1)]
    assert all(h.status_code != 429 for h in hints[:-1]) and hints[-1].status_code == 429
    # HEAD runs the same search: it is no way around the limit.
    assert client.head(f"/api/games/{game.public_id}/hint").status_code == 429
    joiner = client_for(carol)
    joins = [post(joiner, "/api/join/not-a-token", {}) for _ in range(limit_of("join") + 1)]
    assert joins[-2].status_code == 404 and joins[-1].status_code == 429
