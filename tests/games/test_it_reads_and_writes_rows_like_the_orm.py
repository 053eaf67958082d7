"""games/rows.py runs a move's lock itself, from the ORM's compiled SQL: what it reads must be
exactly what the ORM reads, on SQLite and on PostgreSQL, and what it relies on in Django (the
column order, the fields' converters, where prefetch_related caches the seats) must still hold
after a Django upgrade."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

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


def test_a_move_writes_without_asking_for_ids(alice: Any, bob: Any) -> None:
    """The move's writes are the ORM's statements without RETURNING: in a pipeline, asking
    for the new rows' ids is a round trip each, and nobody reads them."""
    game = started(alice, bob)
    turn = state_from_record(game.state).turn
    with CaptureQueriesContext(connection) as seen:
        services.act(
            game.public_id,
            viewer((alice, bob)[turn]),
            "draw",
            {"expected_seq": game.seq, "key": "r" * 12},
        )
    sql = [q["sql"] for q in seen.captured_queries]
    inserts = [s for s in sql if s.startswith("INSERT")]
    assert any("games_gameevent" in s for s in inserts)
    assert any("games_actionreceipt" in s for s in inserts)
    assert not any("RETURNING" in s for s in sql)
    updates = [s for s in sql if s.startswith("UPDATE") and "games_game" in s]
    assert len(updates) == 1


def test_inserted_rows_read_as_the_orms_would(alice: Any, bob: Any) -> None:
    game = started(alice, bob)
    now = timezone.now()
    payloads = [{"kind": "Probe", "n": n, "text": "é\u2028'\""} for n in range(3)]
    names = ("game", "seq", "kind", "payload", "created")
    with transaction.atomic(), rows.pipelined():
        probes = [(game.pk, 100 + n, "Probe", p, now) for n, p in enumerate(payloads)]
        rows.insert(GameEvent, names, probes)
        rows.insert(GameEvent, names, [])
        rows.flush()
    made = list(GameEvent.objects.filter(game=game, seq__gte=100).order_by("seq"))
    assert [(e.seq, e.kind, e.payload, e.created) for e in made] == [
        (100 + n, "Probe", p, now) for n, p in enumerate(payloads)
    ]
    # The unique (game, seq) still guards the log: a second writer of seq 100 fails.
    with pytest.raises(IntegrityError), transaction.atomic(), rows.pipelined():
        rows.insert(GameEvent, names, [(game.pk, 100, "Probe", {}, now)])
        rows.flush()
    # Not the game's events (the replay check after each test reads its log).
    GameEvent.objects.filter(game=game, seq__gte=100).delete()


def test_an_update_writes_values_and_nulls_as_the_orms_would(alice: Any, bob: Any) -> None:
    game = started(alice, bob)
    fields = ("seq", "deadline", "review", "moved")
    seq = game.seq
    game.seq, game.deadline, game.review, game.moved = 77, None, {"a": [1, None]}, timezone.now()
    rows.update(game, fields)
    after = Game.objects.get(pk=game.pk)
    assert [getattr(after, f) for f in fields] == [getattr(game, f) for f in fields]
    game.deadline, game.review = timezone.now(), None
    rows.update(game, fields)
    after = Game.objects.get(pk=game.pk)
    assert after.deadline == game.deadline and after.review is None
    other = Game.objects.exclude(pk=game.pk).values_list("seq", flat=True)
    assert 77 not in other
    game.seq = seq  # back to its log's length (the replay check after each test reads it)
    rows.update(game, ("seq",))


def test_a_move_on_postgresql_sends_its_statements_past_djangos_cursor_wrapper(
    alice: Any, bob: Any
) -> None:
    """With no one logging queries, a move's lock and writes go on psycopg's cursor (Django's
    wrapper costs Python calls on each), and still write what the ORM reads; elsewhere, and
    while queries are logged (the tests above), they are Django's."""
    game = started(alice, bob)
    turn = state_from_record(game.state).turn
    wrapped: list[str] = []

    def seen(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        wrapped.append(sql)
        return execute(sql, params, many, context)

    assert not connection.queries_logged
    with connection.execute_wrapper(seen):
        answer = services.act(
            game.public_id,
            viewer((alice, bob)[turn]),
            "draw",
            {"expected_seq": game.seq, "key": "w" * 12},
        )
    mine = [s for s in wrapped if "FOR UPDATE" in s or s.startswith(("INSERT", "UPDATE"))]
    if connection.vendor == "postgresql":
        assert mine == []
    else:
        assert any(s.startswith("INSERT") and "games_gameevent" in s for s in mine)
    after = Game.objects.get(pk=game.pk)
    assert after.seq == answer["seq"] > game.seq
    assert GameEvent.objects.filter(game=game, seq__gt=game.seq).count() == after.seq - game.seq
    assert ActionReceipt.objects.get(game=game, seat=turn, key="w" * 12).body == answer
