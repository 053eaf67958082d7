"""A move's lock, run by hand from the ORM's compiled statements: the game row with its seats.

Django's own APIs carry the rest of the move (docs/design.md, "The move path"): on PostgreSQL,
``OPTIONS["server_side_binding"]`` sends values apart from the SQL (no quoting of the JSON
state in Python) and ``prepare_threshold`` lets psycopg prepare what repeats; the move runs in
psycopg's pipeline (:func:`pipelined`), and its writes are ORM calls. The lock stays here
because the ORM's own ``select_for_update().prefetch_related("seats")`` cost about 1.4 ms more
CPU per move (benchmarks/move_cpu.py, 2,000-move runs: median 5.3 against 3.9 ms), a fifth of
the 6.5 ms a move costs a web process in the live bench. No SQL is written out here: the two
statements are the ORM's, compiled once. What it relies on in Django is pinned by
tests/games/test_it_reads_and_writes_rows_like_the_orm.py: the SQL is what the ORM compiles,
values go through the fields' own converters, and the seats are cached where
``prefetch_related`` caches them.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.models.expressions import Col

from .models import Game, Seat

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
    with db.cursor() as cursor, db.cursor() as seats_cursor:
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
