from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from django.core.exceptions import ImproperlyConfigured

from rummi_site import settings as project_settings
from rummi_site.settings import (
    VAR_DIR,
    celery_broker_from_env,
    channel_layers_from_env,
    database_from_env,
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_url,
)

ROOT = Path(__file__).resolve().parents[1]


def test_it_defaults_to_sqlite_in_wal_mode() -> None:
    database = database_from_env({})

    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == VAR_DIR / "rummi.sqlite3"
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert database["OPTIONS"]["timeout"] == 20
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]
    assert "synchronous=NORMAL" in database["OPTIONS"]["init_command"]


def test_it_reads_postgres_from_database_url() -> None:
    database = database_from_env({"DATABASE_URL": "postgres://rummi:s%40cret@db.local:6543/games"})

    assert database == {
        "ENGINE": "rummi_site.postgresql",
        "CONN_HEALTH_CHECKS": True,
        "NAME": "games",
        "USER": "rummi",
        "PASSWORD": "s@cret",
        "HOST": "db.local",
        "PORT": "6543",
        "OPTIONS": {
            "pool": {"min_size": 2, "max_size": 12},
            "server_side_binding": True,
            "prepare_threshold": 5,
        },
    }


def test_it_reads_the_prepare_threshold_and_refuses_a_bad_one() -> None:
    url = {"DATABASE_URL": "postgres://postgres@127.0.0.1/test"}
    database = database_from_env({**url, "RUMMI_PG_PREPARE_THRESHOLD": "0"})
    assert database["OPTIONS"]["prepare_threshold"] == 0
    with pytest.raises(ImproperlyConfigured, match="RUMMI_PG_PREPARE_THRESHOLD"):
        database_from_env({**url, "RUMMI_PG_PREPARE_THRESHOLD": "five"})


def test_it_leaves_out_what_the_database_url_leaves_out() -> None:
    database = database_from_env({"DATABASE_URL": "postgresql://postgres@127.0.0.1/test"})

    assert (database["USER"], database["PASSWORD"], database["PORT"]) == ("postgres", "", "")


def test_it_refuses_a_database_url_it_cannot_serve() -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL must start with postgres://"):
        database_from_env({"DATABASE_URL": "mysql://root@localhost/rummi"})


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgres:///rummi", "names no host"),
        ("postgres://rummi@db.local/", "names no database"),
        ("postgres://rummi@db.local:port/rummi", "bad port"),
        ("postgres://rummi@db.local:70000/rummi", "bad port"),
        ("db.local/rummi", "must start with postgres://"),
    ],
)
def test_it_refuses_a_database_url_missing_a_part(url: str, says: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=says):
        database_from_env({"DATABASE_URL": url})


def test_it_never_prints_the_database_password() -> None:
    with pytest.raises(ImproperlyConfigured) as refused:
        database_from_env({"DATABASE_URL": "mysql://rummi:hunter2@db.local/rummi"})

    assert "hunter2" not in str(refused.value)
    assert "mysql://rummi:***@db.local/rummi" in str(refused.value)


@pytest.mark.parametrize("url", ["http://cache:6379/0", "redis://", "redis://cache:x/0"])
def test_it_refuses_a_redis_url_it_cannot_use(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        channel_layers_from_env({"REDIS_URL": url})
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        celery_broker_from_env({"REDIS_URL": url})


def test_it_refuses_a_channel_layer_it_does_not_know() -> None:
    with pytest.raises(ImproperlyConfigured, match="RUMMI_CHANNEL_LAYER='Core' is not one of"):
        channel_layers_from_env({"RUMMI_CHANNEL_LAYER": "Core"})


def test_it_defaults_to_the_in_memory_channel_layer() -> None:
    layer = channel_layers_from_env({})["default"]

    assert layer["BACKEND"] == "channels.layers.InMemoryChannelLayer"


def test_it_publishes_frames_through_redis_pubsub_when_redis_is_set() -> None:
    layer = channel_layers_from_env({"REDIS_URL": "redis://cache:6379/2"})["default"]

    assert layer["BACKEND"] == "rummi_site.pubsub.PubSubChannelLayer"
    [host] = layer["CONFIG"]["hosts"]
    assert host == {"address": "redis://cache:6379/2", "socket_timeout": None}


def test_it_reads_the_list_based_redis_layer_with_room_for_load() -> None:
    env = {"REDIS_URL": "redis://cache:6379/2", "RUMMI_CHANNEL_LAYER": "core"}
    layer = channel_layers_from_env(env)["default"]

    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert layer["CONFIG"]["capacity"] >= 5000
    [host] = layer["CONFIG"]["hosts"]
    assert host["address"] == "redis://cache:6379/2"
    assert host["max_connections"] >= 1000


def test_it_brokers_celery_through_folders_without_redis() -> None:
    url, options = celery_broker_from_env({})

    assert url == "filesystem://"
    assert options["data_folder_in"] == options["data_folder_out"]
    assert options["data_folder_in"].startswith(str(VAR_DIR / "celery"))


def test_it_brokers_celery_through_redis_url() -> None:
    assert celery_broker_from_env({"REDIS_URL": "redis://cache:6379/2"}) == (
        "redis://cache:6379/2",
        {},
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("TRUE", True),
        ("Yes", True),
        ("on", True),
        (" true ", True),
        ("0", False),
        ("False", False),
        ("no", False),
        ("OFF", False),
        ("", True),
        ("  ", True),
    ],
)
def test_it_reads_booleans(raw: str, expected: bool) -> None:
    assert env_bool("FLAG", True, env={"FLAG": raw}) is expected


@pytest.mark.parametrize("raw", ["flase", "2", "-1", "y", "n", "truee", "enabled", "1.0", "none"])
def test_it_refuses_a_misspelt_boolean(raw: str) -> None:
    with pytest.raises(ImproperlyConfigured) as refused:
        env_bool("RUMMI_DEBUG", True, env={"RUMMI_DEBUG": raw})

    message = str(refused.value)
    assert message.startswith(f"RUMMI_DEBUG={raw!r} is not a boolean")
    for word in ("1/0", "true/false", "yes/no", "on/off"):
        assert word in message


def test_it_reads_integers_and_lists() -> None:
    env = {"N": " 12 ", "HOSTS": "rummi.example, ,www.rummi.example"}

    assert env_int("N", 3, env=env) == 12
    assert env_int("N", 3, env=env, minimum=12, maximum=12) == 12
    assert env_int("MISSING", 3, env=env) == 3
    assert env_list("HOSTS", [], env=env) == ["rummi.example", "www.rummi.example"]
    assert env_list("MISSING", ["localhost"], env=env) == ["localhost"]
    assert env_list("EMPTY", ["localhost"], env={"EMPTY": ""}) == []


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("twelve", "'twelve' is not a whole number"),
        ("1.5", "'1.5' is not a whole number"),
        ("0", "N=0 is out of range: use a number from 1 to 64"),
        ("65", "N=65 is out of range: use a number from 1 to 64"),
        ("99999999999999999999", "out of range"),
    ],
)
def test_it_refuses_an_integer_out_of_bounds(raw: str, says: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=says):
        env_int("N", 4, env={"N": raw}, minimum=1, maximum=64)


def test_it_names_a_one_sided_bound() -> None:
    with pytest.raises(ImproperlyConfigured, match="use a number at least 0"):
        env_int("N", 4, env={"N": "-1"}, minimum=0)
    with pytest.raises(ImproperlyConfigured, match="use a number at most 9"):
        env_int("N", 4, env={"N": "10"}, maximum=9)


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("fast", "not a number"),
        ("1,2", "not a number"),
        ("nan", "not a finite number"),
        ("inf", "not a finite number"),
        ("-0.5", "out of range: use a number from 0 to 60"),
        ("61", "out of range"),
    ],
)
def test_it_refuses_a_bad_number_of_seconds(raw: str, says: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=says):
        env_float("S", 1.2, env={"S": raw}, minimum=0, maximum=60)


def test_it_reads_seconds() -> None:
    assert env_float("S", 1.2, env={"S": "0.25"}, minimum=0, maximum=60) == 0.25
    assert env_float("S", 1.2, env={}, minimum=0, maximum=60) == 1.2


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("rummi.example", "must start with http:// or https://"),
        ("ftp://rummi.example", "must start with http:// or https://"),
        ("https://", "names no host"),
        ("https:///path", "names no host"),
        ("https://rummi.example:http", "has a bad port"),
    ],
)
def test_it_refuses_a_web_address_it_cannot_use(raw: str, says: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"RUMMI_SITE_URL {says}"):
        env_url("RUMMI_SITE_URL", "", ("http", "https"), env={"RUMMI_SITE_URL": raw})


def test_it_reads_a_url_or_its_default() -> None:
    schemes = ("http", "https")
    assert env_url("U", "", schemes, env={"U": " https://rummi.example "}) == (
        "https://rummi.example"
    )
    assert env_url("U", "", schemes, env={}) == ""


def test_it_refuses_a_choice_in_another_case() -> None:
    assert env_choice("C", "a", ("a", "b"), env={"C": "b"}) == "b"
    with pytest.raises(ImproperlyConfigured, match="C='B' is not one of a, b"):
        env_choice("C", "a", ("a", "b"), env={"C": "B"})


def load_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **env: str) -> ModuleType:
    """Run rummi_site/settings.py afresh (as another module) with ``env`` added."""
    monkeypatch.setenv("RUMMI_LOG_DIR", str(tmp_path / "log"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("settings_under_test", project_settings.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Every variable the settings read, each with a way of getting it wrong.
MISTAKES = [
    ("RUMMI_DEBUG", "flase", "RUMMI_DEBUG='flase' is not a boolean"),
    ("RUMMI_GC_TUNE", "of", "RUMMI_GC_TUNE='of' is not a boolean"),
    ("RUMMI_HTTPS", "tls", "RUMMI_HTTPS='tls' is not a boolean"),
    ("RUMMI_PURE_PYTHON", "false", "RUMMI_PURE_PYTHON='false' is not one of 0, 1"),
    ("DATABASE_URL", "sqlite:///db.sqlite3", "DATABASE_URL must start with postgres://"),
    ("REDIS_URL", "redis//cache:6379", "REDIS_URL must start with redis:// or rediss://"),
    ("RUMMI_CHANNEL_LAYER", "lists", "RUMMI_CHANNEL_LAYER='lists' is not one of"),
    ("RUMMI_SQLITE_CONN_MAX_AGE", "-5", "RUMMI_SQLITE_CONN_MAX_AGE=-5 is out of range"),
    ("RUMMI_ACT_THREADS", "four", "RUMMI_ACT_THREADS='four' is not a whole number"),
    ("RUMMI_BOT_PAUSE", "1.2s", "RUMMI_BOT_PAUSE='1.2s' is not a number"),
    ("RUMMI_RESTART_GRACE", "-15", "RUMMI_RESTART_GRACE=-15 is out of range"),
    ("RUMMI_SITE_URL", "rummi.example", "RUMMI_SITE_URL must start with http://"),
    ("RUMMI_FRAME_RELAY_URL", "http://", "RUMMI_FRAME_RELAY_URL names no host"),
    ("RUMMI_CSRF_TRUSTED_ORIGINS", "rummi.example", "RUMMI_CSRF_TRUSTED_ORIGINS must start"),
    ("RUMMI_EMAIL_BACKEND", "smtp", "RUMMI_EMAIL_BACKEND='smtp' is not a dotted path"),
]


@pytest.mark.parametrize(("name", "value", "says"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_the_settings_refuse_each_variable_got_wrong(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, value: str, says: str
) -> None:
    if name == "RUMMI_SQLITE_CONN_MAX_AGE":
        monkeypatch.delenv("DATABASE_URL", raising=False)  # read for SQLite only
    with pytest.raises(ImproperlyConfigured, match=says):
        load_settings(monkeypatch, tmp_path, **{name: value})


def test_the_settings_make_a_secret_key_once_and_keep_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    kept = tmp_path / "var" / "secret_key"
    first = load_settings(monkeypatch, tmp_path, RUMMI_SECRET_KEY_FILE=str(kept))

    assert kept.stat().st_mode & 0o777 == 0o600
    key = first.SECRET_KEY
    assert key == kept.read_text().strip() and len(key) >= 50
    again = load_settings(monkeypatch, tmp_path, RUMMI_SECRET_KEY_FILE=str(kept))
    assert again.SECRET_KEY == first.SECRET_KEY
    other = load_settings(monkeypatch, tmp_path, RUMMI_SECRET_KEY_FILE=str(tmp_path / "other"))
    assert other.SECRET_KEY != first.SECRET_KEY
    given = load_settings(monkeypatch, tmp_path, RUMMI_SECRET_KEY_FILE=str(kept), SECRET_KEY="s")
    assert given.SECRET_KEY == "s"


def test_the_settings_refuse_an_empty_key_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    (tmp_path / "secret_key").write_text("\n")
    with pytest.raises(ImproperlyConfigured, match="secret_key is empty; delete it"):
        load_settings(monkeypatch, tmp_path, RUMMI_SECRET_KEY_FILE=str(tmp_path / "secret_key"))


def test_debug_pages_and_https_are_off_unless_asked_for(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`make run` sets neither: no tracebacks on a LAN, and plain HTTP that still signs in."""
    for name in ("RUMMI_DEBUG", "RUMMI_HTTPS"):
        monkeypatch.delenv(name, raising=False)
    loaded = load_settings(monkeypatch, tmp_path)

    assert loaded.DEBUG is False
    assert not getattr(loaded, "SECURE_SSL_REDIRECT", False)
    assert not getattr(loaded, "SESSION_COOKIE_SECURE", False)
    assert not getattr(loaded, "CSRF_COOKIE_SECURE", False)
    assert not getattr(loaded, "SECURE_HSTS_SECONDS", 0)
    # Static files are served by the site itself, under hashed names.
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in loaded.MIDDLEWARE
    storage = loaded.STORAGES["staticfiles"]["BACKEND"]
    assert storage == "rummi_site.staticfiles.HashedStaticFilesStorage"

    debug = load_settings(monkeypatch, tmp_path, RUMMI_DEBUG="1")
    assert debug.DEBUG is True and not getattr(debug, "SECURE_SSL_REDIRECT", False)


def test_the_settings_read_good_values(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    loaded = load_settings(
        monkeypatch,
        tmp_path,
        RUMMI_DEBUG="Off",
        RUMMI_HTTPS="yes",
        SECRET_KEY="k" * 50,
        RUMMI_STATIC_ROOT=str(tmp_path / "static"),
        RUMMI_BOT_PAUSE="0",
        RUMMI_RESTART_GRACE="2.5",
        RUMMI_GC_TUNE="no",
        RUMMI_SITE_URL="https://rummi.example/",
        RUMMI_CSRF_TRUSTED_ORIGINS="https://rummi.example,https://www.rummi.example",
    )

    assert loaded.DEBUG is False and loaded.SECURE_SSL_REDIRECT is True
    assert loaded.SESSION_COOKIE_SECURE and loaded.CSRF_COOKIE_SECURE
    assert loaded.SECURE_HSTS_SECONDS >= 365 * 24 * 3600
    static_root = loaded.STATIC_ROOT
    assert static_root == tmp_path / "static"
    assert (loaded.RUMMI_BOT_PAUSE, loaded.RUMMI_RESTART_GRACE) == (0.0, 2.5)
    assert loaded.RUMMI_GC_TUNE is False
    assert loaded.RUMMI_SITE_URL == "https://rummi.example"
    assert loaded.CSRF_TRUSTED_ORIGINS == ["https://rummi.example", "https://www.rummi.example"]


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        args, cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=120
    )


ENTRY_POINTS = {
    "manage.py": [sys.executable, "manage.py", "check"],
    "asgi": [sys.executable, "-c", "import rummi_site.asgi"],
    # The Celery app reads the settings when first configured, as `celery worker` does.
    "celery": [sys.executable, "-c", "from rummi_site.celery import app; app.conf.broker_url"],
}


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_a_process_started_with_a_bad_value_says_so_in_one_line(entry: str) -> None:
    done = _run(ENTRY_POINTS[entry], RUMMI_DEBUG="flase")

    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "rummi: RUMMI_DEBUG='flase' is not a boolean: use 1/0, true/false, yes/no, on/off "
        "(any case)."
    ]
    assert done.stdout == ""


@pytest.mark.slow
def test_the_deploy_check_is_clean_with_https_on() -> None:
    """docs/deploy.md: `manage.py check --deploy` is clean for the layout behind TLS; without
    RUMMI_HTTPS (`make run`, plain HTTP) it names the HTTPS settings left off."""
    key = {"SECRET_KEY": "a-production-key-" + "k3y" * 16, "RUMMI_DEBUG": "0"}
    command = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]

    behind_tls = _run(command, **key, RUMMI_HTTPS="1")
    assert behind_tls.returncode == 0, behind_tls.stderr + behind_tls.stdout
    plain = _run(command, **key, RUMMI_HTTPS="0")
    assert plain.returncode == 1 and "security.W008" in plain.stderr + plain.stdout


@pytest.mark.django_db(transaction=True)
def test_a_worker_keeps_its_database_connections_across_tasks() -> None:
    """Celery's Django fix-up would close them (and the PostgreSQL pool) around every task."""
    from types import SimpleNamespace

    from celery.fixups.django import DjangoWorkerFixup
    from django.contrib.auth import get_user_model
    from django.db import connection

    from games.tasks import _release_connection
    from rummi_site.celery import app

    fixup = DjangoWorkerFixup(app)
    fixup.worker = SimpleNamespace(pool_cls="celery.concurrency.prefork:TaskPool")
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    pooled = connection.vendor == "postgresql" and "pool" in connection.settings_dict["OPTIONS"]

    def held() -> object:
        return connection.pool if pooled else connection.connection

    get_user_model().objects.count()
    before = held()
    for _ in range(3):
        fixup.on_task_prerun(task)
        _release_connection(task)
        get_user_model().objects.count()
        fixup.on_task_postrun(task)
        _release_connection(task)
    get_user_model().objects.count()
    assert held() is before
