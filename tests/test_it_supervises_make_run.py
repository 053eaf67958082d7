"""`make run`'s processes under supervisord (deploy/supervisord.conf): a process that dies is
restarted with a line in the log, and an interrupt stops all three within 10 s, leaving no
process behind."""

from __future__ import annotations

import configparser
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait(predicate, seconds: float, what: str, log: Path) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"{what} within {seconds} s\n" + log.read_text()[-3000:])


def children(tag: str) -> list[int]:
    found = subprocess.run(["pgrep", "-f", tag], capture_output=True, text=True).stdout
    return [int(pid) for pid in found.split()]


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def size(file: Path) -> int:
    return file.stat().st_size if file.exists() else 0


def written_since(file: Path, offset: int, line: str) -> bool:
    """``line`` is in what ``file`` gained past ``offset`` (its size when its writer died)."""
    with file.open("rb") as f:
        f.seek(offset)
        return line.encode() in f.read()


def test_its_three_programs_are_stopped_together() -> None:
    """supervisord stops groups one after another: web, worker and beat in one group are
    stopped at once, so Ctrl-C takes the longest stopwaitsecs at most, well within 10 s."""
    config = configparser.RawConfigParser()
    config.read(ROOT / "deploy" / "supervisord.conf")
    programs = [s.split(":", 1)[1] for s in config.sections() if s.startswith("program:")]
    groups = [s for s in config.sections() if s.startswith("group:")]
    assert len(groups) == 1, groups
    assert sorted(config[groups[0]]["programs"].split(",")) == sorted(programs)
    assert max(config.getint(f"program:{p}", "stopwaitsecs") for p in programs) <= 5


def test_it_restarts_what_dies_and_stops_everything_on_an_interrupt(
    tmp_path: Path, collected_static: Path
) -> None:
    # A copy of the layout the config expects beside it: deploy/, .venv, var/.
    (tmp_path / "deploy").mkdir()
    shutil.copy(ROOT / "deploy" / "supervisord.conf", tmp_path / "deploy" / "supervisord.conf")
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    (tmp_path / "var" / "log").mkdir(parents=True)
    port = free_port()
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(ROOT),
        DJANGO_SETTINGS_MODULE="rummi_site.settings",
        RUMMI_HOST="127.0.0.1",
        RUMMI_PORT=str(port),
        RUMMI_SQLITE_PATH=str(tmp_path / "site.sqlite3"),
        RUMMI_CELERY_DIR=str(tmp_path / "broker"),
        RUMMI_STATIC_ROOT=str(collected_static),
    )
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "migrate", "-v", "0"], env=env, check=True
    )
    log = tmp_path / "supervisord.out"
    logs = tmp_path / "var" / "log"
    logged: dict[str, int] = {}
    tag = str(tmp_path)
    with log.open("wb") as out:
        manager = subprocess.Popen(
            [str(Path(sys.prefix) / "bin" / "supervisord"), "-c", "deploy/supervisord.conf"],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait(lambda: answers(port), 90, "the site answers", log)
        for name, needle in (
            ("web", "-m rummi_site.web"),
            ("worker", "worker --loglevel"),
            ("beat", "beat --loglevel"),
        ):
            pids = [
                p
                for p in children(tag)
                if needle in Path(f"/proc/{p}/cmdline").read_text().replace("\0", " ")
            ]
            assert pids, name
            # What the process writes from its next start on: its log's end as it dies.
            logged[name] = size(logs / f"celery-{name}.log")
            os.kill(pids[0], signal.SIGKILL)
            wait(
                lambda n=name: (
                    f"exited: {n} (terminated by SIGKILL; not expected)" in log.read_text()
                ),
                30,
                f"{name}'s death is logged",
                log,
            )
            wait(
                lambda n=name: log.read_text().count(f"spawned: '{n}'") >= 2,
                30,
                f"{name} is spawned again",
                log,
            )
        wait(lambda: answers(port), 90, "the restarted site answers", log)
        # Ctrl-C once all three are up again, each past its start (not after a guessed pause):
        # supervisord holds each RUNNING since its last spawn, and the new worker and beat have
        # said "ready" and "Starting" in their logs. Stopped halfway through its start, a
        # process on a loaded machine may take its whole stopwaitsecs to die.
        for name, line in (("web", ""), ("worker", " ready."), ("beat", "beat: Starting...")):
            wait(
                lambda n=name: (
                    f"success: {n} entered RUNNING"
                    in log.read_text().rsplit(f"spawned: '{n}'", 1)[-1]
                ),
                60,
                f"{name} runs again",
                log,
            )
            if line:
                wait(
                    lambda n=name, t=line: written_since(logs / f"celery-{n}.log", logged[n], t),
                    60,
                    f"{name} has started again ({line!r} in its log)",
                    log,
                )
        started = time.monotonic()
        os.kill(manager.pid, signal.SIGINT)
        manager.wait(15)
        stopped = time.monotonic() - started
        wait(lambda: not children(tag), 5, "no process is left", log)
        print(f"stopped in {stopped:.1f} s")
        # All three are stopped at once (one group), so supervisord's own kill after the
        # longest stopwaitsecs (5 s) bounds the stop, however slowly a process answers its TERM.
        assert stopped < 10, log.read_text()[-2000:]
    finally:
        if manager.poll() is None:
            os.killpg(manager.pid, signal.SIGKILL)
        for pid in children(tag):
            os.kill(pid, signal.SIGKILL)
