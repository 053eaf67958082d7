"""The pool's connection check (rummi_site/postgresql/base.py): libpq's empty query passes on a
live connection, leaves it idle, and raises psycopg's OperationalError on one the server ended."""

from __future__ import annotations

import time

import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the check is PostgreSQL's"),
]


def test_the_check_passes_a_live_connection_and_fails_a_killed_one() -> None:
    import psycopg
    from psycopg import pq

    from rummi_site.postgresql.base import ping

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with (
        psycopg.connect(**params, autocommit=True) as checked,
        psycopg.connect(**params, autocommit=True) as killer,
    ):
        ping(checked)
        assert checked.pgconn.transaction_status == pq.TransactionStatus.IDLE
        pid = checked.info.backend_pid
        killer.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(100):  # until the server has ended it
            gone = killer.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid]
            ).fetchone()
            if gone == (0,):
                break
            time.sleep(0.05)
        with pytest.raises(psycopg.OperationalError):
            ping(checked)
