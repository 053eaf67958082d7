"""Django's PostgreSQL backend, whose pool replaces dead connections instead of serving them.

Killed connections (``pg_terminate_backend``, a server restart, a failover) stay idle in each
web process's psycopg pool until used; unchecked, each was a 500
(tests/faults/test_it_survives_killed_database_connections.py). With ``CONN_HEALTH_CHECKS`` on,
Django has the pool check a connection as it leaves it, with an empty query
(``ConnectionPool.check_connection``). But after a failed check psycopg_pool tries the next
connection at once and then backs off, 1 s, 2 s, 4 s ... (psycopg#711): a pool holding six or
more dead connections kept a request waiting until the 30 s pool timeout, a 500 again.

Here the pool's check is :func:`check_connection`: the same empty query, sent by libpq itself
(psycopg's ``conn.execute("")`` makes a cursor for it: about 30 calls of Python, and twice the
CPU), and when it fails, the whole pool checked at once (``ConnectionPool.check``: each idle
connection tried, the dead ones replaced), so the pool's immediate second try finds a live or a
fresh connection. Settings: ``ENGINE: "rummi_site.postgresql"`` with ``CONN_HEALTH_CHECKS:
True`` (rummi_site/settings.py). The cost is one round trip each time a request or a socket
move takes a connection: benchmarks/bench_move.py's ``check_alone`` measures it (0.01 ms of CPU
and 0.02 ms of wall time here, where a move costs about 5 ms of CPU).
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base
from psycopg import OperationalError, pq
from psycopg_pool import ConnectionPool


def ping(conn: Any) -> None:
    """Send ``conn`` an empty query and raise ``OperationalError`` unless it answers as a live
    server does. libpq runs it whatever the connection's transaction state: a connection the
    pool hands out is idle, and an empty query starts no transaction."""
    result = conn.pgconn.exec_(b"")
    if result.status != pq.ExecStatus.EMPTY_QUERY:
        message = conn.pgconn.error_message.decode(errors="replace").strip()
        raise OperationalError(message or "the connection did not answer an empty query")


def check_connection(conn: Any) -> None:
    """Raise if ``conn`` is dead, after clearing every other dead connection from its pool."""
    try:
        ping(conn)
    except Exception:
        pool = getattr(conn, "_pool", None)  # set by psycopg_pool while the connection is out
        if isinstance(pool, ConnectionPool):
            pool.check()
        raise


class DatabaseWrapper(base.DatabaseWrapper):  # type: ignore[misc]
    @property
    def pool(self) -> ConnectionPool | None:
        pool: ConnectionPool | None = super().pool
        # Django made the pool with ConnectionPool.check_connection (CONN_HEALTH_CHECKS on);
        # the pool keeps its check in _check, read on each getconn.
        if pool is not None and pool._check not in (None, check_connection):
            pool._check = check_connection
        return pool
