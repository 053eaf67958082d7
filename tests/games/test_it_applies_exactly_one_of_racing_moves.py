"""1,000 trials of 2-10 simultaneous submissions with the same expected seq: one lands."""

from __future__ import annotations

import random
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from games import services
from games.engine.state import state_from_record
from games.errors import DomainError
from games.models import Game
from rummi_site.jsonapi import status_of

from .conftest import key, viewer

pytestmark = pytest.mark.django_db(transaction=True)

TRIALS = 1000


def new_duel(alice: Any, bob: Any) -> Game:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2, "target": 500})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    return Game.objects.get(pk=game.pk)


def test_racing_submissions_apply_exactly_one(alice: Any, bob: Any) -> None:
    rng = random.Random(2026)
    users = [alice, bob]
    game = new_duel(alice, bob)
    outcomes: Counter[str] = Counter()

    def submit(gid: str, seat: int, seq: int, barrier: threading.Barrier) -> str:
        try:
            barrier.wait()
            services.act(gid, viewer(users[seat]), "draw", {"expected_seq": seq, "key": key()})
            return "applied"
        except DomainError as error:
            return f"{status_of(error)} {error.body['error']}"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=10) as pool:
        for _ in range(TRIALS):
            game.refresh_from_db()
            if game.status == "finished":
                game = new_duel(alice, bob)
            seq, seat = game.seq, state_from_record(game.state).turn
            racers = rng.randint(2, 10)
            barrier = threading.Barrier(racers)
            jobs = [pool.submit(submit, game.public_id, seat, seq, barrier) for _ in range(racers)]
            results = [job.result() for job in jobs]
            outcomes.update(results)
            assert results.count("applied") == 1, results
            assert set(results) <= {"applied", "409 stale"}, results
            game.refresh_from_db()
            assert game.seq > seq
            assert game.events.filter(seq__gt=seq).first().kind in {
                "TileDrawn",
                "Passed",
            }
    assert outcomes["applied"] == TRIALS
