"""A move's statements, run from the ORM's compiled SQL: the lock of the game row with its
seats, the events appended, the game's row written, the receipt.

On PostgreSQL, ``OPTIONS["server_side_binding"]`` sends values apart from the SQL (no quoting
of the JSON state in Python) and ``prepare_threshold`` lets psycopg prepare what repeats; the
move runs in psycopg's pipeline (:func:`pipelined`). The statements are compiled here once per
model and columns because the ORM's own calls cost more than the move's logic
(docs/design.md, "The move path"): ``select_for_update().prefetch_related("seats")`` about
1.4 ms more CPU per move, and ``bulk_create`` and ``create`` ask PostgreSQL for the new rows'
ids (``RETURNING``), which nobody reads and which ends the pipeline's batch: a round trip each.
No SQL is written out here: every statement is the ORM's, compiled once, with values prepared
by the fields' own ``get_db_prep_save`` and read back through their own converters. What this
relies on in Django is pinned by tests/games/test_it_reads_and_writes_rows_like_the_orm.py.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.models import sql
from django.db.models.expressions import Col

from .models import Game, Seat

ModelType = type[models.Model]

Converter = Callable[[Any, Col, Any], Any]

# The pipeline open on this thread's connection, if any (Django's connections are per thread).
_local = threading.local()


@contextlib.contextmanager
def pipelined() -> Iterator[None]:
    """Send the statements of the block in as few round trips as its reads allow.

    On PostgreSQL, psycopg's pipeline mode on Django's connection: statements are queued and
    sent together until a result is read, so a move's ``BEGIN`` goes with the locking
    ``SELECT`` and the seats' ``SELECT``, and the game's ``UPDATE`` with the next write.
    Elsewhere it does nothing.
    """
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    outer = getattr(_local, "pipeline", None)
    with connection.wrap_database_errors, connection.connection.pipeline() as pipeline:
        _local.pipeline = pipeline
        try:
            yield
        finally:
            _local.pipeline = outer


@contextlib.contextmanager
def _cursor(db: Any) -> Iterator[Any]:
    """A cursor for the move's statements.

    On PostgreSQL, psycopg's own cursor on Django's connection (the same class, binding and
    prepared statements as Django's, since Django sets them on the connection), its errors
    raised as Django's: Django's cursor wrapper adds its layers to every statement, about
    14 calls of Python each, which the move path (5 statements) does not need. While Django
    logs queries (``DEBUG``, ``CaptureQueriesContext``) and on SQLite (whose wrapper turns
    ``%s`` into ``?``), Django's cursor, so that the statements are logged with the others.
    """
    if db.vendor == "postgresql" and not db.queries_logged and db.connection is not None:
        with db.wrap_database_errors, db.connection.cursor() as cursor:
            yield cursor
    else:
        with db.cursor() as cursor:
            yield cursor


def flush() -> None:
    """Send the statements queued in :func:`pipelined` and raise what they raised, as the
    Django exception (a racing move's IntegrityError), here inside the transaction."""
    pipeline = getattr(_local, "pipeline", None)
    if pipeline is not None:
        with connection.wrap_database_errors:
            pipeline.sync()


@cache
def _reader(model: type[models.Model], vendor: str) -> tuple[list[str], list[Any]]:
    """The attribute names and per-column converters for reading ``model``'s rows, whose
    columns come in ``concrete_fields`` order (the ORM's, for a query that defers none)."""
    fields = model._meta.concrete_fields
    table = model._meta.db_table
    converters = []
    for field in fields:
        col = field.get_col(table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        converters.append((col, found))
    return [f.attname for f in fields], converters


def _instance(model: type[models.Model], row: Sequence[Any], db: Any) -> Any:
    """A model instance from a row, as the ORM makes it (``db``: this thread's connection
    itself, not the proxy, which costs a lookup for each of the converters' many uses)."""
    names, converters = _reader(model, db.vendor)
    values = list(row)
    for i, (col, found) in enumerate(converters):
        if found:
            value = values[i]
            for convert in found:
                value = convert(value, col, db)
            values[i] = value
    return model.from_db(db.alias, names, values)


# What the compiled statements are asked for; never a game's id (those are URL-safe base64).
_PROBE = "?probe?"


@cache
def _lock_sql(vendor: str) -> tuple[str, str]:
    """The statements of :func:`lock_game` on ``vendor``, as the ORM compiles them once: the
    game, locked (``select_for_update()``), and its seats in order. Compiled inside the
    transaction of the first lock (Django refuses ``FOR UPDATE`` outside one)."""
    lock = Game.objects.select_for_update().filter(public_id=_PROBE)
    seats = Seat.objects.filter(game__public_id=_PROBE).order_by("index")
    compiled = []
    for queryset in (lock, seats):
        sql, params = queryset.query.sql_with_params()
        if tuple(params) != (_PROBE,):  # pragma: no cover - a Django that binds otherwise
            raise RuntimeError(f"games.rows: unexpected parameters {params!r} for {sql}")
        compiled.append(sql)
    return compiled[0], compiled[1]


def lock_game(gid: str) -> Game | None:
    """The game ``gid`` with its seats, its row locked until the transaction ends.

    Two statements, sent together: in a pipeline they cost one round trip, and unlike one
    joined statement they do not send (and psycopg does not parse) the game's columns once
    per seat. The seats are read after the lock is granted. SQLite has no ``FOR UPDATE``:
    there the transaction itself holds the database's write lock from its start (settings:
    ``transaction_mode`` IMMEDIATE).
    """
    db = connections[DEFAULT_DB_ALIAS]
    lock, seating = _lock_sql(db.vendor)
    with _cursor(db) as cursor, _cursor(db) as seats_cursor:
        cursor.execute(lock, [gid])
        seats_cursor.execute(seating, [gid])
        found = cursor.fetchone()
        seat_rows = seats_cursor.fetchall()
    if found is None:
        return None
    game: Game = _instance(Game, found, db)
    seats = [_instance(Seat, row, db) for row in seat_rows]
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    # As prefetch_related("seats") leaves it: game.seats.all() answers from this list.
    cached = game.seats.all()
    cached._result_cache = seats
    cached._prefetch_done = True
    game._prefetched_objects_cache = {"seats": cached}
    return game


def release(game: Game) -> None:
    """Break the reference cycles between a game from :func:`lock_game` and its seats.

    Each seat points to the game and the game's seat cache (through the queryset's hints) to
    it; left to the cyclic collector, that was about 46 objects of garbage per move, whose
    collections paused a web process for 20-40 ms every few seconds under load.
    """
    cached = getattr(game, "_prefetched_objects_cache", {}).pop("seats", None)
    for seat in getattr(cached, "_result_cache", None) or ():
        seat._state.fields_cache.clear()
    if cached is not None:
        cached._result_cache = None
        cached._hints.clear()


def _compiled(query: Any, db: Any) -> tuple[str, tuple[Any, ...]]:
    compiled = query.get_compiler(connection=db).as_sql()
    sql, params = compiled[0] if isinstance(compiled, list) else compiled
    return str(sql), tuple(params)


@cache
def _insert_sql(
    model: ModelType, names: tuple[str, ...], vendor: str
) -> tuple[str, tuple[Any, ...]]:
    """The ORM's ``INSERT`` of one ``model`` row with fields ``names`` (no ``RETURNING``: the
    new id is not read), and each field's ``get_db_prep_save``."""
    db = connections[DEFAULT_DB_ALIAS]
    fields = [model._meta.get_field(name) for name in names]
    query = sql.InsertQuery(model)
    probe = model(**{f.attname: None for f in fields})  # type: ignore[union-attr]
    query.insert_values(fields, [probe])
    statement, params = _compiled(query, db)
    if len(params) != len(names):  # pragma: no cover - a Django that compiles otherwise
        raise RuntimeError(f"games.rows: unexpected parameters {params!r} for {statement}")
    return statement, tuple(f.get_db_prep_save for f in fields)  # type: ignore[union-attr]


def insert(model: ModelType, names: tuple[str, ...], rows: Sequence[Sequence[Any]]) -> None:
    """Insert ``rows`` (values of fields ``names``, in that order; foreign keys as ids), as
    ``bulk_create`` would but without reading back their ids: in a pipeline, queued with the
    move's other writes instead of a round trip each."""
    if not rows:
        return
    db = connections[DEFAULT_DB_ALIAS]
    statement, preps = _insert_sql(model, names, db.vendor)
    params = [[prep(value, db) for prep, value in zip(preps, row, strict=True)] for row in rows]
    with _cursor(db) as cursor:
        if len(params) == 1:
            cursor.execute(statement, params[0])
        else:
            cursor.executemany(statement, params)


# The ORM's UPDATE statements, compiled once per (model, fields, which are NULL, backend).
_updates: dict[tuple[Any, ...], tuple[str, tuple[Any, ...]]] = {}


def _update_sql(
    instance: models.Model, names: tuple[str, ...], nulls: tuple[bool, ...], db: Any
) -> tuple[str, tuple[Any, ...]]:
    """The ORM's ``UPDATE`` of fields ``names`` of ``instance``'s row by its id (``nulls``:
    which are NULL, which the ORM writes into the statement), and the other fields'
    ``get_db_prep_save``, compiled from the first instance seen."""
    model = type(instance)
    key = (model, names, nulls, db.vendor)
    found = _updates.get(key)
    if found is None:
        fields = [model._meta.get_field(name) for name in names]
        query = model._default_manager.filter(pk=instance.pk).query.chain(sql.UpdateQuery)
        query.add_update_values({name: getattr(instance, name) for name in names})
        statement, params = _compiled(query, db)
        kept = [f for f, null in zip(fields, nulls, strict=True) if not null]
        if len(params) != len(kept) + 1:  # pragma: no cover - a Django that compiles otherwise
            raise RuntimeError(f"games.rows: unexpected parameters for {statement}")
        found = _updates[key] = (statement, tuple(f.get_db_prep_save for f in kept))  # type: ignore[union-attr]
    return found


def update(instance: models.Model, names: tuple[str, ...]) -> None:
    """Write fields ``names`` of ``instance`` to its row: ``Model.objects.filter(pk=...)
    .update(...)`` from the instance's values, compiled once per fields and NULLs."""
    db = connections[DEFAULT_DB_ALIAS]
    values = [getattr(instance, name) for name in names]
    nulls = tuple(value is None for value in values)
    statement, preps = _update_sql(instance, names, nulls, db)
    kept = [value for value in values if value is not None]
    params = [prep(value, db) for prep, value in zip(preps, kept, strict=True)]
    with _cursor(db) as cursor:
        cursor.execute(statement, [*params, instance.pk])
