"""Settings for the site the browser tests run under daphne: the project's settings (DEBUG off
and the hashed static files, as under `make run`), with a database file of the test's own, the
in-memory channel layer, Celery tasks run on the spot and the test-only endpoints of
``site_urls``."""

from __future__ import annotations

import os

from rummi_site import settings as project

globals().update({name: value for name, value in vars(project).items() if name.isupper()})

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ["RUMMI_BROWSER_DB"],
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
    }
}
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CELERY_TASK_ALWAYS_EAGER = True
RUMMI_BOT_PAUSE = 0
# The browser tests sign in and start games faster than people do; tests/games has the limits.
RATELIMIT_ENABLE = False
ROOT_URLCONF = "tests.browser.site_urls"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
