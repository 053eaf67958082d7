"""Workers matching at the same moment seat each seek once: one game per table, whoever wins
(the seeks are claimed with a conditional update in the transaction that makes the game)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game, Seat
from matchmaking import services
from matchmaking.models import Seek

from .conftest import later, viewer

pytestmark = pytest.mark.django_db(transaction=True)

TRIALS = 8


def race(workers: int, job: Any) -> list[Any]:
    barrier = threading.Barrier(workers)

    def run(index: int) -> Any:
        try:
            barrier.wait()
            return job(index)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return [f.result() for f in [pool.submit(run, i) for i in range(workers)]]


@pytest.mark.parametrize("workers", [2, 4])
def test_racing_matches_make_one_game(
    alice: Any, bob: Any, carol: Any, rated: Any, workers: int
) -> None:
    rated(alice, "live36", 1000)
    rated(bob, "live36", 1200)
    rated(carol, "live36", 1100)
    for trial in range(TRIALS):
        start: datetime = timezone.now()
        for user in (alice, bob, carol):  # 200 apart: none fits until 20 s have passed
            services.seek(viewer(user), {"mode": "parlor", "players": 3}, now=start)
        assert Seek.objects.filter(status="open").count() == 3

        when = later(start, 25)
        made = race(workers, lambda _, when=when: len(services.match(when)))

        assert sorted(made) == [0] * (workers - 1) + [1]
        assert Game.objects.count() == trial + 1
        assert not Seek.objects.filter(status="open").exists()
        game = Game.objects.latest("pk")
        assert set(Seek.objects.filter(created=start).values_list("game", flat=True)) == {game.pk}
        # They play it out before seeking again (one live game at a time, docs/fair-play.md).
        Game.objects.filter(pk=game.pk).update(status="finished")
    # Nobody sits twice in a game, and every seat of every game is a seeker's.
    assert Seat.objects.count() == 3 * TRIALS


def test_seekers_arriving_together_meet_once(alice: Any, bob: Any) -> None:
    """Each seek matches at once, while beat matches too: still one game for the two."""
    users = [alice, bob]
    for _ in range(TRIALS):

        def job(index: int) -> Any:
            if index < 2:
                return services.seek(viewer(users[index]), {"mode": "blitz", "players": 2})
            return services.match()

        race(4, job)

        assert not Seek.objects.filter(status="open").exists()
        latest = list(Seek.objects.order_by("-pk")[:2])
        assert latest[0].game_id == latest[1].game_id is not None
        Game.objects.filter(pk=latest[0].game_id).update(status="finished")
    assert Game.objects.count() == TRIALS
    assert Seat.objects.filter(user=alice).count() == TRIALS
