"""The statements of a move, written out: the lock of the game row, the events, the receipt.

Every move runs the same five statements. Built by the ORM they cost more CPU than the move
itself: ``select_for_update().prefetch_related("seats")`` alone took about 4 of a move's 11 ms
(PostgreSQL, measured in process), against about 1 ms as two plain statements. Here the SQL
is fixed per model and backend; values go through each field's own conversions both ways
(``get_db_prep_save`` in, the backend's and the field's converters out), so rows read and
written here are exactly what the ORM reads and writes.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.models.expressions import Col

from .models import ActionReceipt, Game, GameEvent, Seat

Converter = Callable[[Any, Col, Any], Any]


@contextlib.contextmanager
def _cursor(second: bool = False) -> Iterator[Any]:
    """A cursor for a move's statements, with Django's error translation (IntegrityError).

    On PostgreSQL it binds parameters on the server, and psycopg prepares the statements it
    sees repeated on a connection. Django's default cursor binds on the client: it quotes every
    value into the SQL text in Python, which for a move's JSON state cost more than running the
    statement, and leaves the server to parse and plan the same five statements every move.
    Inside :func:`pipelined` the block's cursor is reused by all its statements (``second``:
    another one, for a statement whose results are read together with the first's).
    """
    held = getattr(_local, "second" if second else "cursor", None)
    if held is not None:
        connection.validate_no_broken_transaction()
        with connection.wrap_database_errors:
            yield held
        return
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            yield cursor
        return
    connection.validate_no_broken_transaction()
    with connection.wrap_database_errors, _server_cursor() as cursor:
        yield cursor


@contextlib.contextmanager
def _server_cursor() -> Iterator[Any]:
    """A psycopg cursor on Django's connection, timestamps read in the connection's zone."""
    import psycopg
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    connection.ensure_connection()
    raw = connection.connection
    with psycopg.Cursor(raw) as cursor:
        loader = raw.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
        if connection.timezone != getattr(loader, "timezone", None):
            register_tzloader(connection.timezone, cursor)
        yield cursor


# The pipeline open on this thread's connection, if any (Django's connections are per thread).
_local = threading.local()


@contextlib.contextmanager
def pipelined() -> Iterator[None]:
    """Send the statements of the block in as few round trips as its reads allow.

    On PostgreSQL, psycopg's pipeline mode: a move's ``BEGIN`` goes with the locking
    ``SELECT``, its three writes go together (:func:`flush`), then the ``COMMIT``: three round
    trips instead of seven, each a wake-up of the server's process and of ours. Elsewhere it
    does nothing.
    """
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    names = ("pipeline", "cursor", "second")
    outer = tuple(getattr(_local, name, None) for name in names)
    with (
        connection.wrap_database_errors,
        connection.connection.pipeline() as pipeline,
        _server_cursor() as cursor,
        _server_cursor() as second,
    ):
        _local.pipeline, _local.cursor, _local.second = pipeline, cursor, second
        try:
            yield
        finally:
            _local.pipeline, _local.cursor, _local.second = outer


def flush() -> None:
    """Send the statements queued in :func:`pipelined` and raise what they raised, as the
    Django exception (a racing move's IntegrityError), here inside the transaction."""
    pipeline = getattr(_local, "pipeline", None)
    if pipeline is not None:
        with connection.wrap_database_errors:
            pipeline.sync()


def _quote(name: str) -> str:
    return str(connection.ops.quote_name(name))


@cache
def _reader(model: type[models.Model], vendor: str) -> tuple[str, list[str], list[Any]]:
    """The column list, attribute names and per-column converters for reading ``model``."""
    fields = model._meta.concrete_fields
    table = model._meta.db_table
    columns = ", ".join(f"{_quote(table)}.{_quote(f.column)}" for f in fields)
    converters = []
    for field in fields:
        col = field.get_col(table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        converters.append((col, found))
    return columns, [f.attname for f in fields], converters


def _instance(model: type[models.Model], row: Sequence[Any], db: Any) -> Any:
    """A model instance from a row, as the ORM makes it (``db``: this thread's connection
    itself, not the proxy, which costs a lookup for each of the converters' many uses)."""
    _, names, converters = _reader(model, db.vendor)
    values = list(row)
    for i, (col, found) in enumerate(converters):
        if found:
            value = values[i]
            for convert in found:
                value = convert(value, col, db)
            values[i] = value
    return model.from_db(db.alias, names, values)


@cache
def _lock_sql(vendor: str) -> tuple[str, str]:
    """The statements of :func:`lock_game` on ``vendor``: the game, locked; its seats."""
    game_columns, _, _ = _reader(Game, vendor)
    seat_columns, _, _ = _reader(Seat, vendor)
    game_table, seat_table = _quote(Game._meta.db_table), _quote(Seat._meta.db_table)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    seat_game = _quote(Seat._meta.get_field("game").column)  # type: ignore[union-attr]
    index = _quote(Seat._meta.get_field("index").column)  # type: ignore[union-attr]
    public_id = _quote(Game._meta.get_field("public_id").column)  # type: ignore[union-attr]
    return (
        f"SELECT {game_columns} FROM {game_table} WHERE {game_table}.{public_id} = %s{lock}",
        f"SELECT {seat_columns} FROM {seat_table}"
        f" JOIN {game_table} ON {seat_table}.{seat_game} = {game_table}.id"
        f" WHERE {game_table}.{public_id} = %s ORDER BY {seat_table}.{index}",
    )


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
    with _cursor() as cursor, _cursor(second=True) as seats_cursor:
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


@cache
def _writer(
    model: type[models.Model], names: tuple[str, ...], vendor: str
) -> tuple[list[str], list[str], tuple[Any, ...]]:
    """For writing fields ``names``: their quoted columns, attribute names and each one's
    ``get_db_prep_save``, made once per model, fields and backend."""
    fields = [model._meta.get_field(n) for n in names]
    columns = [_quote(f.column) for f in fields]  # type: ignore[union-attr]
    attnames = [f.attname for f in fields]  # type: ignore[union-attr]
    return columns, attnames, tuple(f.get_db_prep_save for f in fields)  # type: ignore[union-attr]


@cache
def _insert_sql(model: type[models.Model], names: tuple[str, ...], rows: int, vendor: str) -> str:
    columns, _, _ = _writer(model, names, vendor)
    values = ", ".join(["(" + ", ".join(["%s"] * len(names)) + ")"] * rows)
    return f"INSERT INTO {_quote(model._meta.db_table)} ({', '.join(columns)}) VALUES {values}"


@cache
def _update_sql(names: tuple[str, ...], vendor: str) -> str:
    columns, _, _ = _writer(Game, names, vendor)
    sets = ", ".join(f"{column} = %s" for column in columns)
    return f"UPDATE {_quote(Game._meta.db_table)} SET {sets} WHERE id = %s"


def _insert(
    model: type[models.Model], names: tuple[str, ...], rows: Iterable[Sequence[Any]]
) -> None:
    db = connections[DEFAULT_DB_ALIAS]
    vendor = db.vendor
    _, _, preps = _writer(model, names, vendor)
    params: list[Any] = []
    count = 0
    for row in rows:
        params.extend(prep(v, db) for prep, v in zip(preps, row, strict=True))
        count += 1
    if not count:
        return
    with _cursor() as cursor:
        cursor.execute(_insert_sql(model, names, count, vendor), params)


def insert_events(
    game: Game, rows: Iterable[tuple[int, str, dict[str, Any]]], now: datetime
) -> None:
    """Append ``(seq, kind, payload)`` rows to the game's log in one statement."""
    names = ("game", "seq", "kind", "payload", "created")
    _insert(GameEvent, names, ((game.pk, seq, kind, payload, now) for seq, kind, payload in rows))


def insert_receipt(game: Game, seat: int, key: str, body: dict[str, Any], now: datetime) -> None:
    names = ("game", "seat", "key", "status", "body", "created")
    _insert(ActionReceipt, names, [(game.pk, seat, key, 200, body, now)])


def save_fields(game: Game, names: tuple[str, ...]) -> None:
    """``game.save(update_fields=names)`` as one plain UPDATE."""
    db = connections[DEFAULT_DB_ALIAS]
    vendor = db.vendor
    _, attnames, preps = _writer(Game, names, vendor)
    params = [prep(getattr(game, a), db) for prep, a in zip(preps, attnames, strict=True)]
    with _cursor() as cursor:
        cursor.execute(_update_sql(names, vendor), [*params, game.pk])
