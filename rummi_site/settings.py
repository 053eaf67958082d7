"""Rummi settings: one file, read from the environment.

With no environment variables at all the site runs on embedded defaults: SQLite under var/, the
in-memory channel layer and a Celery broker made of folders under var/celery/. DATABASE_URL and
REDIS_URL switch to PostgreSQL and Redis; see README.md for every variable.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEV_SECRET_KEY = "dev-only-secret-key-never-use-in-production"


def env_str(name: str, default: str = "", env: Mapping[str, str] = os.environ) -> str:
    return env.get(name, default)


def env_bool(name: str, default: bool, env: Mapping[str, str] = os.environ) -> bool:
    """True for 1/true/yes/on, False for 0/false/no/off (any case), else the default."""
    value = env.get(name, "").strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    return default


def env_int(name: str, default: int, env: Mapping[str, str] = os.environ) -> int:
    value = env.get(name, "").strip()
    return int(value) if value else default


def env_list(name: str, default: list[str], env: Mapping[str, str] = os.environ) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    value = env.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def database_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """The default database: PostgreSQL from DATABASE_URL, else SQLite under var/.

    >>> database_from_env({"DATABASE_URL": "postgres://u:p@db:6432/rummi"})["PORT"]
    '6432'
    >>> database_from_env({})["ENGINE"]
    'django.db.backends.sqlite3'
    """
    url = env.get("DATABASE_URL", "")
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env.get("RUMMI_SQLITE_PATH") or VAR_DIR / "rummi.sqlite3",
            # A file, not memory: tests that race threads need SQLite's real locking.
            # One per process, so two test runs on one machine never share (or delete) it.
            "TEST": {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")},
            # Keep the connection between requests: opening one (and setting its pragmas)
            # measured 2.9 ms against 0.9 ms for a small query on this machine under load.
            "CONN_MAX_AGE": env_int("RUMMI_SQLITE_CONN_MAX_AGE", 600, env),
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {
                # IMMEDIATE takes the write lock when a transaction starts, so two writers wait
                # for each other (up to the timeout) instead of failing with "database is locked".
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ValueError(f"DATABASE_URL must start with postgres://, not {parts.scheme}://")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        # A psycopg pool per process; Django then requires CONN_MAX_AGE = 0 (its default).
        # Room for the socket move threads (RUMMI_ACT_THREADS) and the request thread.
        "OPTIONS": {"pool": {"min_size": 2, "max_size": 12}},
    }


def channel_layers_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """Redis from REDIS_URL, else the in-memory layer (one process only).

    With Redis, the pub/sub layer by default: a group send is one PUBLISH that each process
    decodes once, where the list-based core layer pushes to and pops from a list per socket.
    The live bench measured about 8.5 against 10 ms of server CPU a move. Neither layer
    redelivers a lost message; frames carry their seq and the board fetches what it missed.
    ``RUMMI_CHANNEL_LAYER=core`` selects the list-based layer.
    """
    url = env.get("REDIS_URL", "")
    if not url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    if env.get("RUMMI_CHANNEL_LAYER", "pubsub") == "pubsub":
        return {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                # No read timeout on the subscriber connection, which is idle between frames.
                "CONFIG": {"hosts": [{"address": url, "socket_timeout": None}]},
            }
        }
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # channels-redis drops messages silently past `capacity` (default 100, shared by
                # every socket of the process) and its default pool of 100 connections closed
                # sockets under load: both raised well past what one process serves.
                # redis-py 8 reads with a 5 s socket timeout by default, which races the layer's
                # 5 s blocking BZPOPMIN: an idle socket's consumer then dies with "Timeout reading"
                # (channels_redis#422). No read timeout, as with redis-py 7.
                "hosts": [{"address": url, "max_connections": 5000, "socket_timeout": None}],
                "capacity": 5000,
            },
        }
    }


def celery_broker_from_env(env: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """The Celery broker URL and its transport options.

    Without REDIS_URL, kombu's filesystem transport: messages are files under var/celery/, so
    `make run` needs no broker server. celery.py creates the folders.
    """
    url = env.get("REDIS_URL", "")
    if url:
        return url, {}
    folder = Path(env.get("RUMMI_CELERY_DIR") or VAR_DIR / "celery")
    return "filesystem://", {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "processed_folder": str(folder / "processed"),
        "control_folder": str(folder / "control"),
        # Listing a folder is cheap: poll it five times a second, not once (kombu's default),
        # so a sweep or a timeout queued for a deadline is not held up by the poll.
        "polling_interval": 0.2,
    }


DEBUG = env_bool("RUMMI_DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise RuntimeError("Set SECRET_KEY when RUMMI_DEBUG is off.")

ALLOWED_HOSTS = env_list("RUMMI_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("RUMMI_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django_ratelimit",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "channels",
    "allauth",
    "allauth.account",
    "games",
    "accounts",
    "puzzles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "rummi_site.jsonapi.JsonErrorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "rummi_site.urls"
ASGI_APPLICATION = "rummi_site.asgi.application"
SITE_ID = 1

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_from_env(os.environ)}
# SQLite, static files, Celery folders and benchmark results all live under var/.
VAR_DIR.mkdir(exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CHANNEL_LAYERS = channel_layers_from_env(os.environ)

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
EMAIL_BACKEND = env_str("RUMMI_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"

CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT_OPTIONS = celery_broker_from_env(os.environ)
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fix-up closes every database connection before and after each task, and in a
# prefork worker the whole psycopg pool with it: every timeout then opened new PostgreSQL
# connections, most of a worker's time in the clock bench. With this it resets them only every
# 1,000 tasks; games.tasks hands the connection back (or drops a broken one) around each task,
# as Django does around each request.
CELERY_DB_REUSE_MAX = 1000
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# A task is acknowledged only once it has run, and a worker that dies under it hands it back
# (Redis redelivers it; the filesystem broker of the embedded mode cannot, so the beat sweeps
# below find a lost bot turn or timeout by its turn number and queue it again). One task at a
# time per worker process, so a dying worker holds no backlog. Each task also has a soft and a
# hard time limit (games/tasks.py); these are the defaults for any other.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 120
CELERY_TASK_TIME_LIMIT = 150
CELERY_BEAT_SCHEDULE: dict[str, Any] = {}

if not DEBUG:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Threads per web process that apply moves sent on sockets (games/consumers.py). On SQLite,
# whose writers queue for one lock anyway, one. On PostgreSQL four: a move now takes three
# round trips, so few threads keep up, and each more thread costs GIL hand-offs (measured: 3
# threads used about 8% less CPU a move than 8, at the same p99).
RUMMI_ACT_THREADS = env_int(
    "RUMMI_ACT_THREADS", 4 if DATABASES["default"]["ENGINE"].endswith("postgresql") else 1
)
# Seconds a bot waits before moving, so its play reads like a person's.
RUMMI_BOT_PAUSE = float(env_str("RUMMI_BOT_PAUSE", "1.2"))
# Seconds a live turn gets when a worker starts after its clock ran out (README: restarts).
RUMMI_RESTART_GRACE = float(env_str("RUMMI_RESTART_GRACE", "15"))
CELERY_BEAT_SCHEDULE["sweep-timeouts"] = {
    "task": "games.tasks.sweep_timeouts",
    "schedule": 1.0,
    # A sweep still queued when the next one is sent is dropped: a busy worker then runs one
    # sweep, not a backlog of them.
    "options": {"expires": 1.0},
}
# Bot turns whose task was lost (a worker killed) are queued again by this sweep, keyed on the
# turn number like the timeouts: a bot turn that has waited RUMMI_BOT_PAUSE + 3 s is due.
CELERY_BEAT_SCHEDULE["sweep-bot-turns"] = {
    "task": "games.tasks.sweep_bot_turns",
    "schedule": 2.0,
    "options": {"expires": 2.0},
}
# Finished games whose post-game review was asked for long ago and never made get it again.
CELERY_BEAT_SCHEDULE["sweep-reviews"] = {
    "task": "games.tasks.sweep_reviews",
    "schedule": 300.0,
    "options": {"expires": 300.0},
}
# The cache: Redis when REDIS_URL is set (the rate limits of rummi_site/limits.py count there,
# shared by every web process), else memory, for the one web process of the embedded mode.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": "rummi",
        }
    }
    # Django's own Redis cache increments atomically; django-ratelimit lists only django-redis.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # In the embedded mode one web process serves every request: its memory is the shared cache.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
RATELIMIT_USE_CACHE = "default"
RATELIMIT_ENABLE = os.environ.get("RUMMI_RATE_LIMITS", "1") != "0"
CSRF_FAILURE_VIEW = "games.api.csrf_failure"
# Embedded mode (in-memory channel layer): where a Celery worker hands the frames of the moves
# it makes (bots, timeouts) to the web process, which alone holds the sockets. `make run` sets
# it; unset, those moves reach the board through its polling only.
RUMMI_FRAME_RELAY_URL = env_str("RUMMI_FRAME_RELAY_URL", "")
# The relay's signing secret, made fresh by `make run` for each run (at least 32 characters);
# without one the relay is off. Never derived from SECRET_KEY.
RUMMI_FRAME_RELAY_SECRET = env_str("RUMMI_FRAME_RELAY_SECRET", "")
if RUMMI_FRAME_RELAY_SECRET and (
    len(RUMMI_FRAME_RELAY_SECRET) < 32 or RUMMI_FRAME_RELAY_SECRET == SECRET_KEY
):
    raise ImproperlyConfigured(
        "RUMMI_FRAME_RELAY_SECRET must be a fresh secret of at least 32 characters"
    )
# Where emails point players to.
RUMMI_SITE_URL = env_str("RUMMI_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
CELERY_BEAT_SCHEDULE["send-digests"] = {"task": "games.tasks.send_digests", "schedule": 600.0}
CELERY_BEAT_SCHEDULE["warn-clocks"] = {"task": "games.tasks.warn_clocks", "schedule": 600.0}
from celery.schedules import crontab  # noqa: E402  (the daily puzzle runs on the clock)

CELERY_BEAT_SCHEDULE["daily-puzzle"] = {
    "task": "puzzles.tasks.pick_daily_puzzle",
    "schedule": crontab(minute=0, hour=0),  # 00:00 in CELERY_TIMEZONE, which is UTC
}
