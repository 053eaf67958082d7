"""What one request pays for its database connection, by the way Django holds connections.

Run by bench_live.py as ``python -m benchmarks.live_dbcost <mode>`` (one process per mode, since
the mode is a setting); prints JSON. A "request" here is what Django's handler does around a
view: ``request_started`` (close_old_connections), one ``SELECT 1``, ``request_finished``
(close_old_connections again, which closes the connection, hands it back to the pool, or keeps
it, by CONN_MAX_AGE and OPTIONS["pool"]).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MODES = {
    # mode: (database, CONN_MAX_AGE or "pool")
    "postgres_connect_per_request": ("postgres", 0),
    "postgres_persistent": ("postgres", None),
    "postgres_pool": ("postgres", "pool"),
    "sqlite_connect_per_request": ("sqlite", 0),
    "sqlite_persistent": ("sqlite", None),
}


def configure(mode: str, folder: str) -> None:
    kind, holding = MODES[mode]
    if kind == "sqlite":
        os.environ.pop("DATABASE_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "rummi_site.settings"
    import django

    import rummi_site.settings as settings

    db = settings.DATABASES["default"]
    if kind == "sqlite":
        db["NAME"] = Path(folder) / "dbcost.sqlite3"
    if holding != "pool":
        db["OPTIONS"].pop("pool", None)
        db["CONN_MAX_AGE"] = holding
    django.setup()


def timings(fn: Any, count: int) -> list[float]:
    out = []
    for _ in range(count):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


def measure(count: int) -> dict[str, Any]:
    from django.core.signals import request_finished, request_started
    from django.db import connection

    def query() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    def request() -> None:
        request_started.send(sender=None)
        query()
        request_finished.send(sender=None)

    timings(request, 20)
    per_request = timings(request, count)
    request_started.send(sender=None)
    per_query = timings(query, count)
    request_finished.send(sender=None)
    request_ms = statistics.median(per_request) * 1000
    query_ms = statistics.median(per_query) * 1000
    return {
        "requests": count,
        "request_median_ms": round(request_ms, 3),
        "request_p99_ms": round(sorted(per_request)[int(0.99 * count)] * 1000, 3),
        "query_on_open_connection_median_ms": round(query_ms, 3),
        "connection_cost_per_request_ms": round(request_ms - query_ms, 3),
    }


def main(argv: list[str]) -> int:
    mode = argv[0]
    with tempfile.TemporaryDirectory() as folder:
        configure(mode, folder)
        result = measure(300 if MODES[mode][1] == 0 else 3000)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
