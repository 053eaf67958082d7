"""The writer processes of test_it_writes_sqlite_from_eight_processes.py (run as a script).

``python sqlite_writer.py JOBS`` reads a JSON list of jobs, sets Django up once and forks one
writer process per job (so eight start in a second, not in eight Django start-ups), before any
of them opens the database: each has its own SQLite connection. Each plays draws on its own
game through ``services.act``, for both seats in turn, against the file named by
``RUMMI_SQLITE_PATH`` (the test database), with the site's own SQLite settings (WAL,
IMMEDIATE transactions, a 20 s busy timeout), without sending frames. The script prints
``ready`` once every writer is forked; the writers wait for the file ``go`` to appear, so all
start at once, and each writes its result to ``<go>.<n>.json``: moves made, every
OperationalError met, seconds, the p99 and the slowest move (mostly waiting for the lock).
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
import uuid
from pathlib import Path
from typing import Any


def write(job: dict[str, Any]) -> dict[str, Any]:
    from django.db import OperationalError

    from games import services
    from games.identity import Identity

    viewers = [Identity(guest_key=key, name="Fault writer") for key in job["guests"]]
    seq, turn, moves = job["seq"], job["turn"], job["moves"]
    go = Path(job["go"])
    while not go.exists():
        time.sleep(0.01)
    errors: list[str] = []
    times: list[float] = []
    started = time.perf_counter()
    while len(times) < moves and len(errors) < 20:
        began = time.perf_counter()
        body = {"expected_seq": seq, "key": uuid.uuid4().hex}
        try:
            answer = services.act(job["gid"], viewers[turn], "draw", body)
        except OperationalError as error:
            errors.append(str(error))
            continue
        times.append(time.perf_counter() - began)
        seq, turn = answer["seq"], answer["view"]["turn"]
    ordered = sorted(times)
    return {
        "gid": job["gid"],
        "done": len(times),
        "errors": errors,
        "seconds": time.perf_counter() - started,
        "p99_ms": round(ordered[int(len(ordered) * 0.99)] * 1000, 1) if ordered else None,
        "slowest_ms": round(ordered[-1] * 1000, 1) if ordered else None,
    }


def main(jobs: list[dict[str, Any]]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")
    import django

    django.setup()
    from games import signals
    from games.models import Game

    # No socket listens to these processes, and outside a web process (which holds its frames
    # for its event loop) or a worker (one sender loop) each frame would cost async_to_sync a
    # new thread: about a third of a draw's time here. The moves' writes are all still made.
    signals.events_committed.disconnect(sender=Game, dispatch_uid="games.frames")
    children = []
    for number, job in enumerate(jobs):
        pid = os.fork()
        if pid == 0:
            out = Path(f"{job['go']}.{number}.json")
            try:
                result: dict[str, Any] = write(job)
            except BaseException:
                result = {"crashed": traceback.format_exc()}
            out.write_text(json.dumps(result))
            os._exit(0)
        children.append(pid)
    print("ready", flush=True)
    failed = 0
    for pid in children:
        _, status = os.waitpid(pid, 0)
        failed += status != 0
    return failed


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    raise SystemExit(main(json.loads(Path(sys.argv[1]).read_text())))
