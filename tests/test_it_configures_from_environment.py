from __future__ import annotations

import pytest

from rummi_site.settings import (
    VAR_DIR,
    celery_broker_from_env,
    channel_layers_from_env,
    database_from_env,
    env_bool,
    env_int,
    env_list,
)


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
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "games",
        "USER": "rummi",
        "PASSWORD": "s@cret",
        "HOST": "db.local",
        "PORT": "6543",
        "OPTIONS": {"pool": {"min_size": 2, "max_size": 12}},
    }


def test_it_leaves_out_what_the_database_url_leaves_out() -> None:
    database = database_from_env({"DATABASE_URL": "postgresql://postgres@127.0.0.1/test"})

    assert (database["USER"], database["PASSWORD"], database["PORT"]) == ("postgres", "", "")


def test_it_refuses_a_database_url_it_cannot_serve() -> None:
    with pytest.raises(ValueError, match="postgres://"):
        database_from_env({"DATABASE_URL": "mysql://root@localhost/rummi"})


def test_it_defaults_to_the_in_memory_channel_layer() -> None:
    layer = channel_layers_from_env({})["default"]

    assert layer["BACKEND"] == "channels.layers.InMemoryChannelLayer"


def test_it_publishes_frames_through_redis_pubsub_when_redis_is_set() -> None:
    layer = channel_layers_from_env({"REDIS_URL": "redis://cache:6379/2"})["default"]

    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
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
    [("1", True), ("TRUE", True), ("on", True), ("0", False), ("no", False), ("", True)],
)
def test_it_reads_booleans(raw: str, expected: bool) -> None:
    assert env_bool("FLAG", True, env={"FLAG": raw}) is expected


def test_it_reads_integers_and_lists() -> None:
    env = {"N": " 12 ", "HOSTS": "rummi.example, ,www.rummi.example"}

    assert env_int("N", 3, env=env) == 12
    assert env_int("MISSING", 3, env=env) == 3
    assert env_list("HOSTS", [], env=env) == ["rummi.example", "www.rummi.example"]
    assert env_list("MISSING", ["localhost"], env=env) == ["localhost"]


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
