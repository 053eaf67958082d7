"""A move's update of the game row touches no index, so PostgreSQL makes it a HOT update (no
index entries written, dead row versions pruned in the page): migration 0004."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Game
from games.services import RECORDED_FIELDS

pytestmark = pytest.mark.django_db


def indexed_columns() -> set[str]:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, Game._meta.db_table)
    indexes = [spec for spec in found.values() if spec["index"] or spec["unique"]]
    return {column for spec in indexes for column in spec["columns"] or ()}


def test_no_index_covers_a_column_every_move_changes() -> None:
    # status and finished change once, when the game ends; PostgreSQL compares values, so the
    # moves that write them unchanged stay HOT.
    every_move = set(RECORDED_FIELDS) - {"status", "finished"}
    written = {Game._meta.get_field(name).column for name in every_move}
    sweeps = {"acting", "stand_in_seat", "moved"}  # read by beat's sweeps, unindexed
    assert written == {"seq", "state", "turn_number", "deadline", *sweeps}
    assert written & indexed_columns() == set()
    assert "status" in indexed_columns()  # what the clock sweeps find running games by


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL storage setting")
def test_game_pages_keep_room_for_the_next_row_version() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s", [Game._meta.db_table])
        (options,) = cursor.fetchone()
    assert "fillfactor=50" in (options or [])
