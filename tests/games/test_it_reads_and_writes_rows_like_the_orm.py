"""games/rows.py writes the statements of a move by hand: what it reads and writes must be
exactly what the ORM reads and writes, on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from games import rows, services
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
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as seen:
            names = [s.name for s in locked.seats.all()]
        assert len(seen) == 0 and len(names) == 2


def test_written_rows_read_back_through_the_orm(alice: Any, bob: Any) -> None:
    game = started(alice, bob)
    now = timezone.now()
    payload = {"kind": "Passed", "seat": 0, "nested": {"a": [1, 2.5, None, True, "é"]}}
    with transaction.atomic():
        locked = rows.lock_game(game.public_id)
        assert locked is not None
        rows.insert_events(locked, [(900, "Passed", payload), (901, "Passed", {})], now)
        rows.insert_receipt(locked, 1, "k" * 12, {"seq": 901, "view": {"rack": [3, 4]}}, now)
        locked.seq, locked.state = 901, {**(locked.state or {}), "probe": "ü"}
        locked.deadline, locked.status = now + timedelta(seconds=30), "finished"
        locked.finished = now
        rows.save_fields(locked, ("seq", "state", "deadline", "status", "finished"))
    first, second = GameEvent.objects.filter(game=game, seq__gte=900).order_by("seq")
    assert (first.kind, first.payload, first.created) == ("Passed", payload, now)
    assert second.payload == {}
    receipt = ActionReceipt.objects.get(game=game, seat=1, key="k" * 12)
    assert (receipt.status, receipt.body) == (200, {"seq": 901, "view": {"rack": [3, 4]}})
    assert values(Game.objects.get(pk=game.pk)) == values(locked)
    # The probe rows are no game's log: leave the game out of the suite's replay check.
    GameEvent.objects.filter(game=game, seq__gte=900).delete()
    Game.objects.filter(pk=game.pk).update(state=None)
