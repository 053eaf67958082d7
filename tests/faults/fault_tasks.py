"""The site's Celery app with one more task, for the fault tests' workers
(``celery -A fault_tasks worker`` with this folder on ``PYTHONPATH``).

``hold`` stands for a slow task: it runs until the test says it may finish (a file appears),
so a test can restart Redis while a worker runs it, and know when it ran and how often.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from rummi_site.celery import app

__all__ = ["app", "hold"]


@app.task(name="faults.hold", ignore_result=True, soft_time_limit=110, time_limit=120)
def hold(folder: str, name: str) -> None:
    """Note the start in ``<name>.runs``, wait for ``<name>.release``, note the end."""
    base = Path(folder)
    with (base / f"{name}.runs").open("a") as runs:
        runs.write(f"start {os.getpid()}\n")
    release = base / f"{name}.release"
    until = time.monotonic() + 100
    while not release.exists() and time.monotonic() < until:
        time.sleep(0.05)
    with (base / f"{name}.runs").open("a") as runs:
        runs.write(f"end {os.getpid()}\n")
