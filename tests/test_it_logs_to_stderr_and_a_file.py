"""LOGGING: stderr and a rotating var/log/rummi.log (RUMMI_LOG_DIR), at RUMMI_LOG_LEVEL."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from rummi_site.logs import FolderMakingRotatingFileHandler as RotatingFileHandler
from rummi_site.settings import VAR_DIR, logging_from_env

ROOT = Path(__file__).resolve().parents[1]


def test_it_logs_to_stderr_and_a_rotating_file_under_var_by_default() -> None:
    config = logging_from_env({})

    assert config["root"]["handlers"] == ["stderr", "file"]
    assert config["handlers"]["stderr"]["stream"] == "ext://sys.stderr"
    file = config["handlers"]["file"]
    assert file["filename"] == str(VAR_DIR / "log" / "rummi.log")
    assert file["class"].endswith("RotatingFileHandler") and file["maxBytes"] > 0
    assert file["backupCount"] > 0
    for app in ("games", "puzzles", "accounts"):
        assert config["loggers"][app]["level"] == "INFO"


def test_it_takes_the_folder_and_level_from_the_environment(tmp_path: Path) -> None:
    config = logging_from_env({"RUMMI_LOG_DIR": str(tmp_path), "RUMMI_LOG_LEVEL": "debug"})

    assert config["handlers"]["file"]["filename"] == str(tmp_path / "rummi.log")
    assert config["loggers"]["games"]["level"] == "DEBUG"
    assert config["loggers"]["django"]["level"] == "INFO"
    assert config["loggers"]["django.db.backends"]["level"] == "INFO"  # never the SQL


def test_a_quieter_level_quiets_django_too() -> None:
    config = logging_from_env({"RUMMI_LOG_LEVEL": "ERROR"})

    assert config["loggers"]["django"]["level"] == "ERROR"
    assert config["loggers"]["puzzles"]["level"] == "ERROR"


@pytest.mark.parametrize("level", ["loud", "warn", "10", "INFO,DEBUG"])
def test_it_refuses_a_level_logging_has_not(level: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="RUMMI_LOG_LEVEL=.* is not one of DEBUG, INFO"):
        logging_from_env({"RUMMI_LOG_LEVEL": level})


def test_a_command_logs_to_stderr_and_makes_the_log_folder(tmp_path: Path) -> None:
    folder = tmp_path / "not" / "yet"
    code = (
        "import logging\n"
        "for name in ('games.tasks', 'puzzles', 'accounts', 'kombu'):\n"
        "    logging.getLogger(name).info('hello from %s', name)\n"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**os.environ, "RUMMI_LOG_DIR": str(folder), "RUMMI_LOG_LEVEL": "info"},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    written = (folder / "rummi.log").read_text()
    for where in (written, done.stderr):
        assert "INFO games.tasks" in where and "hello from games.tasks" in where
        assert "hello from puzzles" in where and "hello from accounts" in where
        assert "hello from kombu" not in where  # other libraries: warnings and up


def _log_file() -> Path:
    [handler] = [h for h in logging.getLogger().handlers if isinstance(h, RotatingFileHandler)]
    handler.flush()
    return Path(handler.baseFilename)


@pytest.mark.django_db
def test_a_server_error_is_logged_with_its_traceback(
    alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import services, views
    from games.identity import Identity

    game = services.create_game(Identity(user_id=alice.pk, name="alice"), {"mode": "parlor"})

    def broken(*args: Any) -> Any:
        raise RuntimeError("the summary broke")

    monkeypatch.setattr(views.services, "game_summary", broken)
    log = _log_file()
    assert log.parent == Path(os.environ["RUMMI_LOG_DIR"])  # the test run's own folder
    answer = Client(raise_request_exception=False).get(f"/g/{game.public_id}/")

    assert answer.status_code == 500
    written = _log_file().read_text()
    assert f"ERROR django.request [{os.getpid()}] Internal Server Error: /g/{game.public_id}/" in (
        written
    )
    assert "RuntimeError: the summary broke" in written


@pytest.mark.django_db
def test_a_missing_page_is_logged_as_a_warning() -> None:
    assert Client().get("/g/no-such-game/").status_code == 404

    assert "WARNING django.request" in _log_file().read_text()
    assert "Not Found: /g/no-such-game/" in _log_file().read_text()


def test_the_tests_leave_the_repository_var_log_alone() -> None:
    assert not str(_log_file()).startswith(str(VAR_DIR))
