"""games/rows.py runs a move's lock itself, from the ORM's compiled SQL: what it reads must be
exactly what the ORM reads, on SQLite and on PostgreSQL, and what it relies on in Django (the
column order, the fields' converters, where prefetch_related caches the seats) must still hold
after a Django upgrade."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import rows, services
from games.engine.state import state_from_record
from games.models import ActionReceipt, Game, GameEvent

from .conftest import viewer

pytestmark = pytest.mark.django_db


def values(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def started(alice: Any, bob: Any) -> Game:
    game = services.create_game(viewer(alice), {"mode": "blitz", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    return Game.objects.get(pk=game.pk)


def test_a_locked_game_reads_as_the_orm_reads_it(alice: Any, bob: Any) -> None:
    game = started(alice, bob)
    Game.objects.filter(pk=game.pk).update(listed=False, review={"turns": [1, "two"]})
    with transaction.atomic():
        locked = rows.lock_game(game.public_id)
    assert locked is not None
    orm = Game.objects.get(pk=game.pk)
    assert values(locked) == values(orm)
    assert locked.deadline is not None and locked.deadline.tzinfo is not None
    assert locked.listed is False and locked.review == {"turns": [1, "two"]}
    seats = list(locked.seats.all())
    assert [values(s) for s in seats] == [values(s) for s in orm.seats.order_by("index")]
    assert all(s.game is locked for s in seats)
    assert rows.lock_game("no-such-game") is None


def test_the_seats_of_a_locked_game_need_no_query(alice: Any, bob: Any) -> None:
    game = started(alice, bob)
    with transaction.atomic():
        locked = rows.lock_game(game.public_id)
        assert locked is not None
        with CaptureQueriesContext(connection) as seen:
            names = [s.name for s in locked.seats.all()]
        assert len(seen) == 0 and len(names) == 2


def test_the_lock_goes_through_djangos_cursors(alice: Any, bob: Any) -> None:
    """Both statements are Django's: logged with the others, bound as the settings say."""
    game = started(alice, bob)
    with transaction.atomic(), CaptureQueriesContext(connection) as seen:
        rows.lock_game(game.public_id)
    sql = [q["sql"] for q in seen.captured_queries]
    assert len(sql) == 2
    assert sql[0].startswith("SELECT") and "games_game" in sql[0] and "games_seat" in sql[1]
    if connection.features.has_select_for_update:
        assert sql[0].endswith("FOR UPDATE")


def test_a_released_game_is_freed_without_the_cycle_collector(alice: Any, bob: Any) -> None:
    game = started(alice, bob)
    with transaction.atomic():
        locked = rows.lock_game(game.public_id)
        assert locked is not None
        seats = list(locked.seats.all())
        assert seats and all(s.game is locked for s in seats)
        gone = weakref.ref(locked)
        rows.release(locked)
        del locked, seats
        gc.disable()
        try:
            assert gone() is None
        finally:
            gc.enable()


def test_a_move_in_the_pipeline_writes_what_the_orm_reads(alice: Any, bob: Any) -> None:
    game = started(alice, bob)
    turn = state_from_record(game.state).turn
    answer = services.act(
        game.public_id,
        viewer((alice, bob)[turn]),
        "draw",
        {"expected_seq": game.seq, "key": "k" * 12},
    )
    after = Game.objects.get(pk=game.pk)
    assert after.seq == answer["seq"] > game.seq
    kinds = list(
        GameEvent.objects.filter(game=game, seq__gt=game.seq).values_list("kind", flat=True)
    )
    assert len(kinds) == after.seq - game.seq and kinds[0] == "TileDrawn"
    receipt = ActionReceipt.objects.get(game=game, seat=turn, key="k" * 12)
    assert receipt.body == answer
