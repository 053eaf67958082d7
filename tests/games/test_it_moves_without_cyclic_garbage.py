"""A move leaves no reference cycles behind: under load, the cyclic collector's passes over a
move's garbage paused a web process's every socket for 20-40 ms every few seconds."""

from __future__ import annotations

import contextlib
import gc
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from games import live, services
from games.engine.state import state_from_record
from games.models import Game

from .conftest import key, viewer

pytestmark = pytest.mark.django_db


@contextlib.contextmanager
def cyclic_garbage() -> Iterator[list[Any]]:
    """Yield a list that, on exit, holds the objects the block left in unreachable cycles."""
    gc.collect()  # what is garbage already is freed, not counted
    found: list[Any] = []
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield found
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def draw(game: Game, players: list[Any]) -> list[Any]:
    """The mover draws over the socket's path; returns the cyclic garbage the move made."""
    game.refresh_from_db()
    seat = state_from_record(game.state).turn
    body = {"expected_seq": game.seq, "key": key()}
    who = viewer(players[seat])
    with cyclic_garbage() as garbage, live.frames_held():
        services.act(game.public_id, who, "draw", body)
    return garbage


def test_a_move_makes_no_cyclic_garbage(alice: Any, bob: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "blitz", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    draw(game, [alice, bob])  # the first move warms caches up
    for _ in range(3):
        garbage = draw(game, [alice, bob])
        assert not garbage, Counter(type(o).__name__ for o in garbage).most_common(10)
