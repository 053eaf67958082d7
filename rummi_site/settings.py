"""Rummi settings: one file, read from the environment.

With no environment variables at all the site runs on embedded defaults: SQLite under var/, the
in-memory channel layer and a Celery broker made of folders under var/celery/. DATABASE_URL and
REDIS_URL switch to PostgreSQL and Redis; see README.md for every variable.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

POSTGRES_SCHEMES = ("postgres", "postgresql")
REDIS_SCHEMES = ("redis", "rediss")
WEB_SCHEMES = ("http", "https")


TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def _raw(name: str, env: Mapping[str, str]) -> str | None:
    """The variable's value without surrounding blanks; None when unset or blank."""
    value = env.get(name)
    if value is None or not value.strip():
        return None
    return value.strip()


def env_str(name: str, default: str = "", env: Mapping[str, str] = os.environ) -> str:
    value = _raw(name, env)
    return default if value is None else value


def env_bool(name: str, default: bool, env: Mapping[str, str] = os.environ) -> bool:
    """True for 1/true/yes/on, False for 0/false/no/off (any case); unset or blank: the default.

    Anything else is a mistake (``RUMMI_DEBUG=flase``) and stops the site from starting.
    """
    value = _raw(name, env)
    if value is None:
        return default
    if value.lower() in TRUE_WORDS:
        return True
    if value.lower() in FALSE_WORDS:
        return False
    accepted = ", ".join(f"{yes}/{no}" for yes, no in zip(TRUE_WORDS, FALSE_WORDS, strict=True))
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean: use {accepted} (any case).")


def _bounded(name: str, value: float, minimum: float | None, maximum: float | None) -> None:
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        low = "" if minimum is None else f"{minimum:g}"
        high = "" if maximum is None else f"{maximum:g}"
        if minimum is not None and maximum is not None:
            wanted = f"from {low} to {high}"
        else:
            wanted = f"at least {low}" if minimum is not None else f"at most {high}"
        raise ImproperlyConfigured(f"{name}={value:g} is out of range: use a number {wanted}.")


def env_int(
    name: str,
    default: int,
    env: Mapping[str, str] = os.environ,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    """A whole number within the bounds; unset or blank: the default."""
    value = _raw(name, env)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    _bounded(name, number, minimum, maximum)
    return number


def env_float(
    name: str,
    default: float,
    env: Mapping[str, str] = os.environ,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
) -> float:
    """A number (such as seconds) within the bounds; unset or blank: the default."""
    value = _raw(name, env)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number.") from None
    if not math.isfinite(number):
        raise ImproperlyConfigured(f"{name}={value!r} is not a finite number.")
    _bounded(name, number, minimum, maximum)
    return number


def env_choice(
    name: str,
    default: str,
    choices: Sequence[str],
    env: Mapping[str, str] = os.environ,
    *,
    ignore_case: bool = False,
) -> str:
    """One of ``choices`` (as written there, or in any case with ``ignore_case``); unset or
    blank: the default."""
    value = _raw(name, env)
    if value is None:
        return default
    for choice in choices:
        if value == choice or (ignore_case and value.lower() == choice.lower()):
            return choice
    raise ImproperlyConfigured(f"{name}={value!r} is not one of {', '.join(choices)}.")


def _redacted(parts: SplitResult) -> str:
    """The URL as it may be printed: without its password."""
    if parts.password is None:
        return parts.geturl()
    netloc = parts.netloc.rpartition("@")
    user = netloc[0].partition(":")[0]
    return parts._replace(netloc=f"{user}:***@{netloc[2]}").geturl()


def check_url(name: str, value: str, schemes: Sequence[str]) -> SplitResult:
    """``value`` split, if it is a URL with one of ``schemes`` and a host (and a valid port)."""
    parts = urlsplit(value)
    shown = repr(_redacted(parts))
    wanted = " or ".join(f"{scheme}://" for scheme in schemes)
    if parts.scheme not in schemes:
        raise ImproperlyConfigured(f"{name} must start with {wanted}; it is {shown}.")
    try:
        parts.port  # noqa: B018  (raises for a port that is not a number from 0 to 65535)
    except ValueError:
        raise ImproperlyConfigured(f"{name} has a bad port: {shown}.") from None
    if not parts.hostname:
        raise ImproperlyConfigured(f"{name} names no host: {shown}.")
    return parts


def env_url(
    name: str, default: str, schemes: Sequence[str], env: Mapping[str, str] = os.environ
) -> str:
    """A URL with one of ``schemes`` and a host; unset or blank: the default (may be "")."""
    value = _raw(name, env)
    if value is None:
        return default
    check_url(name, value, schemes)
    return value


def env_list(name: str, default: list[str], env: Mapping[str, str] = os.environ) -> list[str]:
    """A comma-separated list; blank items are dropped. Unset: the default."""
    value = env.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def logging_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """LOGGING: to stderr and to a rotating ``rummi.log`` in RUMMI_LOG_DIR (default var/log/).

    RUMMI_LOG_LEVEL (default INFO) is the level of the site's own loggers (games, puzzles,
    accounts, rummi_site); Django logs INFO and up (``django.request``: a 4xx as a warning, a
    5xx as an error with its traceback), everything else WARNING and up. The file's folder is
    made when the first line is written. A Celery worker or beat replaces these handlers with
    its own (``--logfile``), so the file holds the web processes' and commands' lines.

    No logger may show a player's rack: SQL is never logged (its parameters carry the games'
    cached state, racks and all), whatever the level, and the site logs game ids and turn
    numbers, never positions.
    """
    level = env_choice("RUMMI_LOG_LEVEL", "INFO", LOG_LEVELS, env, ignore_case=True)
    folder = Path(env_str("RUMMI_LOG_DIR", "", env) or VAR_DIR / "log")
    at_least_info = level if LOG_LEVELS.index(level) > LOG_LEVELS.index("INFO") else "INFO"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "line": {"format": "{asctime} {levelname} {name} [{process}] {message}", "style": "{"}
        },
        # A request refused for what it sent is one line, never a traceback (logs.py).
        "filters": {"client_fault": {"()": "rummi_site.logs.ClientFaultOnOneLine"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "line",
                "filters": ["client_fault"],
            },
            "file": {
                "class": "rummi_site.logs.FolderMakingRotatingFileHandler",
                "filename": str(folder / "rummi.log"),
                "maxBytes": 10 * 1024 * 1024,
                "backupCount": 5,
                "encoding": "utf-8",
                "delay": True,
                "formatter": "line",
                "filters": ["client_fault"],
            },
        },
        "root": {"handlers": ["stderr", "file"], "level": "WARNING"},
        "loggers": {
            # Django's own handlers (console when DEBUG, mail to ADMINS) give way to the root's.
            "django": {"handlers": [], "level": at_least_info, "propagate": True},
            "django.db.backends": {"level": "INFO"},  # never the SQL: see above
            **{app: {"level": level} for app in ("games", "puzzles", "accounts", "rummi_site")},
        },
    }


def database_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """The default database: PostgreSQL from DATABASE_URL, else SQLite under var/.

    >>> database_from_env({"DATABASE_URL": "postgres://u:p@db:6432/rummi"})["PORT"]
    '6432'
    >>> database_from_env({})["ENGINE"]
    'django.db.backends.sqlite3'
    """
    url = env_url("DATABASE_URL", "", POSTGRES_SCHEMES, env)
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("RUMMI_SQLITE_PATH", "", env) or VAR_DIR / "rummi.sqlite3",
            # A file, not memory: tests that race threads need SQLite's real locking.
            # One per process, so two test runs on one machine never share (or delete) it.
            "TEST": {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")},
            # Keep the connection between requests: opening one (and setting its pragmas)
            # measured 2.9 ms against 0.9 ms for a small query on this machine under load.
            "CONN_MAX_AGE": env_int("RUMMI_SQLITE_CONN_MAX_AGE", 600, env, minimum=0),
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
    if not parts.path.lstrip("/"):
        raise ImproperlyConfigured(f"DATABASE_URL names no database: {_redacted(parts)!r}.")
    return {
        # Django's backend, with a pool that replaces dead connections (killed, a restart)
        # instead of serving them: rummi_site/postgresql/base.py. With a pool,
        # CONN_HEALTH_CHECKS has the pool check each connection as it leaves it.
        "ENGINE": "rummi_site.postgresql",
        "CONN_HEALTH_CHECKS": True,
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "OPTIONS": {
            # A psycopg pool per process; Django then requires CONN_MAX_AGE = 0 (its default).
            # Room for the socket move threads (RUMMI_ACT_THREADS) and the request thread.
            "pool": {"min_size": 2, "max_size": 12},
            # Values go to the server apart from the SQL: Django's default client-side binding
            # quotes each into the statement in Python, which for a move's JSON state cost
            # more than running it. psycopg prepares a statement run 5 times on a connection
            # (Django turns that off for connection poolers such as PgBouncer; the pool here is
            # in process). docs/design.md, "The move path".
            "server_side_binding": True,
            "prepare_threshold": env_int("RUMMI_PG_PREPARE_THRESHOLD", 5, env, minimum=0),
        },
    }


def channel_layers_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """Redis from REDIS_URL, else the in-memory layer (one process only).

    With Redis, the pub/sub layer by default: a group send is one PUBLISH that each process
    decodes once, where the list-based core layer pushes to and pops from a list per socket.
    The live bench measured about 8.5 against 10 ms of server CPU a move. Neither layer
    redelivers a lost message; frames carry their seq and the board fetches what it missed.
    ``RUMMI_CHANNEL_LAYER=core`` selects the list-based layer.
    """
    url = env_url("REDIS_URL", "", REDIS_SCHEMES, env)
    kind = env_choice("RUMMI_CHANNEL_LAYER", "pubsub", ("pubsub", "core"), env)
    if not url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    if kind == "pubsub":
        return {
            "default": {
                # channels-redis's pub/sub layer, its group sends not queued one behind another
                "BACKEND": "rummi_site.pubsub.PubSubChannelLayer",
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
    url = env_url("REDIS_URL", "", REDIS_SCHEMES, env)
    if url:
        return url, {}
    folder = Path(env_str("RUMMI_CELERY_DIR", "", env) or VAR_DIR / "celery")
    return "filesystem://", {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "processed_folder": str(folder / "processed"),
        "control_folder": str(folder / "control"),
        # Listing a folder is cheap: poll it five times a second, not once (kombu's default),
        # so a sweep or a timeout queued for a deadline is not held up by the poll.
        "polling_interval": 0.2,
    }


def secret_key_from_env(env: Mapping[str, str]) -> str:
    """SECRET_KEY, else the key kept in the file RUMMI_SECRET_KEY_FILE (default var/secret_key).

    The file is made once, when missing: a random key readable by its owner only (mode 0600).
    Every process of the machine reads the same one, so sessions outlive a restart. Processes
    on several machines need one key: set SECRET_KEY on all of them (docs/deploy.md).
    """
    key = env_str("SECRET_KEY", "", env)
    if key:
        return key
    path = Path(env_str("RUMMI_SECRET_KEY_FILE", "", env) or VAR_DIR / "secret_key")
    try:
        if not path.exists():
            _make_key_file(path)
        key = path.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise ImproperlyConfigured(
            f"RUMMI_SECRET_KEY_FILE: cannot read or make {path}: {error.strerror or error}."
        ) from None
    if not key:
        raise ImproperlyConfigured(
            f"RUMMI_SECRET_KEY_FILE: {path} is empty; delete it to have a key made, "
            "or set SECRET_KEY."
        )
    return key


def _make_key_file(path: Path) -> None:
    """Write a fresh key to ``path`` whole, unless another process got there first: the key is
    written to a file of this process's own, then linked to its name, which fails if taken."""
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(secrets.token_urlsafe(50) + "\n")
        with contextlib.suppress(FileExistsError):  # made meanwhile: that one is the key
            os.link(draft, path)
    finally:
        draft.unlink()


# Debug pages (tracebacks, settings) only when asked for: `make run` may share the site on a
# LAN (README, "Playing on a local network").
DEBUG = env_bool("RUMMI_DEBUG", False)
SECRET_KEY = secret_key_from_env(os.environ)

ALLOWED_HOSTS = env_list("RUMMI_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("RUMMI_CSRF_TRUSTED_ORIGINS", [])
for _origin in CSRF_TRUSTED_ORIGINS:
    check_url("RUMMI_CSRF_TRUSTED_ORIGINS", _origin, WEB_SCHEMES)

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
    "ratings",  # the layers, lowest first, are rummi_site/layers.py's
    "accounts",
    "puzzles",
    "players",
    "tournaments",
    "matchmaking",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files, with DEBUG off too: `make run` has no proxy in front (STORAGES below).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "rummi_site.jsonapi.JsonErrorsMiddleware",
    # A 405 says which methods the address takes (rummi_site/refusals.py).
    "rummi_site.refusals.MethodsMiddleware",
    "rummi_site.untrusted.RefuseNulMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "rummi_site.slashes.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "players.middleware.TrophyToastMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last: a view whose database connection died is run once more if it is safe to run twice.
    "rummi_site.retry.RetryMiddleware",
]

# Database sessions that take only keys Django makes (a NUL in the cookie was a 500).
SESSION_ENGINE = "rummi_site.sessions"

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
# Usernames follow the name rules (docs/fair-play.md "Names"): accounts/adapter.py.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# Failed sign-ins (docs/fair-play.md "Signing in"): 20 in 5 minutes from one address, and 5 in
# 5 minutes from one address for one login ("key" is address and login: accounts/adapter.py);
# no bucket counts a login alone, so nobody can keep an owner signed out. The address is
# REMOTE_ADDR: behind the proxy, daphne's --proxy-headers already puts the client's there
# (docs/deploy.md), so allauth is told of no proxy.
ACCOUNT_RATE_LIMITS = {"login_failed": "20/5m/ip,5/5m/key"}
LOGIN_REDIRECT_URL = "home"  # URL names: resolved by Django and allauth
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
LOGGING = logging_from_env(os.environ)
EMAIL_BACKEND = env_str("RUMMI_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+", EMAIL_BACKEND):
    raise ImproperlyConfigured(
        f"RUMMI_EMAIL_BACKEND={EMAIL_BACKEND!r} is not a dotted path to an email backend class."
    )

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# `manage.py collectstatic` (run by `make run`) copies static/ here under hashed names
# (rummi_site/staticfiles.py), the ES modules' imports rewritten to match, so that a page and
# the modules it loads come from one release. WhiteNoise serves them, the hashed ones cached
# for good; with DEBUG on it serves static/ itself under the plain names.
STATIC_ROOT = Path(env_str("RUMMI_STATIC_ROOT", "", os.environ) or VAR_DIR / "static")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "rummi_site.staticfiles.HashedStaticFilesStorage"},
}
# Uploaded avatars (players/avatars.py) go to Django's default storage: var/media/ unless
# RUMMI_MEDIA_ROOT says otherwise; served by the site itself (rummi_site/urls.py), or by a proxy.
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("RUMMI_MEDIA_ROOT", "", os.environ) or VAR_DIR / "media")

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

# Behind a proxy that ends TLS (docs/deploy.md): the HTTPS redirect, secure cookies and HSTS.
# Apart from DEBUG: a LAN host serves plain HTTP without debug pages, and must not redirect
# to an HTTPS nobody serves, nor set cookies a plain-HTTP page cannot send back.
RUMMI_HTTPS = env_bool("RUMMI_HTTPS", False)
if RUMMI_HTTPS:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Bounded requests (README.md, "Limits and hostile input"). The web process refuses a body over
# RUMMI_MAX_BODY_BYTES with a 413 before reading it (rummi_site/bodylimit.py): room for a 2 MB
# avatar and its form. Django keeps at most 256 KB of form fields in memory and 500 fields
# (JSON bodies stop at 32 KB: rummi_site/jsonapi.py), one upload per request, and an upload
# of up to 2.5 MB in memory (an avatar is decoded from memory: players/avatars.py).
RUMMI_MAX_BODY_BYTES = env_int(
    "RUMMI_MAX_BODY_BYTES", 3 * 1024 * 1024, minimum=64 * 1024, maximum=1024**3
)
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 500
DATA_UPLOAD_MAX_NUMBER_FILES = 1
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024 // 2

# Threads per web process that apply moves sent on sockets (games/consumers.py). On SQLite,
# whose writers queue for one lock anyway, one. On PostgreSQL four: a move now takes three
# round trips, so few threads keep up, and each more thread costs GIL hand-offs (measured: 3
# threads used about 8% less CPU a move than 8, at the same p99).
RUMMI_ACT_THREADS = env_int(
    "RUMMI_ACT_THREADS",
    4 if DATABASES["default"]["ENGINE"].endswith("postgresql") else 1,
    minimum=1,
    maximum=64,
)
# Seconds a bot waits before moving, so its play reads like a person's.
RUMMI_BOT_PAUSE = env_float("RUMMI_BOT_PAUSE", 1.2, minimum=0, maximum=60)
# Seconds a live turn gets when a worker starts after its clock ran out (README: restarts).
RUMMI_RESTART_GRACE = env_float("RUMMI_RESTART_GRACE", 15.0, minimum=0, maximum=3600)
# Whether the web process tunes the garbage collector (rummi_site/asgi.py).
RUMMI_GC_TUNE = env_bool("RUMMI_GC_TUNE", True)
# The rules engine reads RUMMI_PURE_PYTHON itself (it imports no Django) and takes any value
# but "" and "0" as yes; refuse here what it would misread, such as "false".
env_choice("RUMMI_PURE_PYTHON", "0", ("0", "1"))
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
# Rematch offers not accepted in time lapse (games.services.expire_rematches: 10 minutes for a
# live game's, 3 days for a correspondence game's); the sweep also clears older stuck ones.
CELERY_BEAT_SCHEDULE["expire-rematches"] = {
    "task": "games.tasks.expire_rematches",
    "schedule": 60.0,
    "options": {"expires": 60.0},
}
# Tables nobody filled close (games.services.expire_waiting_tables: an hour for a live table, a
# week for a correspondence one), so none waits in the lobby for ever.
CELERY_BEAT_SCHEDULE["expire-waiting-tables"] = {
    "task": "games.tasks.expire_waiting_tables",
    "schedule": 60.0,
    "options": {"expires": 60.0},
}
# The cache: Redis when REDIS_URL is set (the rate limits of rummi_site/limits.py count there,
# shared by every web process), else memory, for the one web process of the embedded mode.
if env_str("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env_str("REDIS_URL"),
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
RATELIMIT_ENABLE = env_bool("RUMMI_RATE_LIMITS", True)
CSRF_FAILURE_VIEW = "games.api.csrf_failure"
# Embedded mode (in-memory channel layer): where a Celery worker hands the frames of the moves
# it makes (bots, timeouts) to the web process, which alone holds the sockets. `make run` sets
# it; unset, those moves reach the board through its polling only.
RUMMI_FRAME_RELAY_URL = env_url("RUMMI_FRAME_RELAY_URL", "", WEB_SCHEMES)
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
RUMMI_SITE_URL = env_url("RUMMI_SITE_URL", "http://127.0.0.1:8000", WEB_SCHEMES).rstrip("/")
CELERY_BEAT_SCHEDULE["tournaments-tick"] = {"task": "tournaments.tasks.tick", "schedule": 5.0}
# Seekers whose rating windows widened or whose bot wait passed are seated (matchmaking).
CELERY_BEAT_SCHEDULE["matchmaking-match"] = {
    "task": "matchmaking.tasks.match",
    "schedule": 3.0,
    "options": {"expires": 3.0},
}
CELERY_BEAT_SCHEDULE["send-digests"] = {"task": "games.tasks.send_digests", "schedule": 600.0}
CELERY_BEAT_SCHEDULE["warn-clocks"] = {"task": "games.tasks.warn_clocks", "schedule": 600.0}
from celery.schedules import crontab  # noqa: E402  (the daily puzzle runs on the clock)

CELERY_BEAT_SCHEDULE["daily-puzzle"] = {
    "task": "puzzles.tasks.pick_daily_puzzle",
    "schedule": crontab(minute=0, hour=0),  # 00:00 in CELERY_TIMEZONE, which is UTC
}
