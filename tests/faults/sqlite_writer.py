"""One writer process of test_it_writes_sqlite_from_eight_processes.py (run as a script).

It plays draws on its own game through ``services.act``, for both seats in turn, against the
SQLite file named by ``RUMMI_SQLITE_PATH`` (the test database), with the site's own SQLite
settings (WAL, IMMEDIATE transactions, a 20 s busy timeout), without sending frames. It
prints ``ready`` once Django is set up, waits for the file ``go`` to appear (so every writer
starts at once), makes its moves and prints one JSON line: moves made, every OperationalError
met, seconds, the p99 and the slowest move (most of which is waiting for the write lock).
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from pathlib import Path


def main(job: dict[str, object]) -> dict[str, object]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")
    import django

    django.setup()
    from django.db import OperationalError

    from games import services, signals
    from games.identity import Identity
    from games.models import Game

    # No socket listens to this process, and outside a web process (which holds its frames
    # for its event loop) or a worker (one sender loop) each frame would cost async_to_sync a
    # new thread: about a third of a draw's time here. The moves' writes are all still made.
    signals.events_committed.disconnect(sender=Game, dispatch_uid="games.frames")

    viewers = [Identity(guest_key=str(key), name="Fault writer") for key in job["guests"]]  # type: ignore[attr-defined]
    seq, turn, moves = int(job["seq"]), int(job["turn"]), int(job["moves"])  # type: ignore[call-overload]
    print("ready", flush=True)
    go = Path(str(job["go"]))
    while not go.exists():
        time.sleep(0.01)
    errors: list[str] = []
    times: list[float] = []
    done = 0
    started = time.perf_counter()
    while done < moves and len(errors) < 20:
        key = uuid.uuid4().hex
        began = time.perf_counter()
        try:
            answer = services.act(
                str(job["gid"]), viewers[turn], "draw", {"expected_seq": seq, "key": key}
            )
        except OperationalError as error:
            errors.append(str(error))
            continue
        times.append(time.perf_counter() - began)
        seq, turn = answer["seq"], answer["view"]["turn"]
        done += 1
    return {
        "gid": job["gid"],
        "done": done,
        "errors": errors,
        "seconds": time.perf_counter() - started,
        "p99_ms": round(sorted(times)[int(len(times) * 0.99)] * 1000, 1) if times else None,
        "slowest_ms": round(max(times, default=0) * 1000, 1),
    }


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    print(json.dumps(main(json.loads(sys.argv[1]))), flush=True)
