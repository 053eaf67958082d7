"""Start-up: a mistake in the environment stops a process with one line, not a traceback.

manage.py, the ASGI application and the Celery app load the settings through
:func:`settings_or_exit`. The settings raise ImproperlyConfigured for a value they cannot use
(``RUMMI_DEBUG=flase``, ``DATABASE_URL=mysql://...``); the process then prints
``rummi: <message>`` on stderr and exits with status 1.
"""

from __future__ import annotations

import sys

from django.core.exceptions import ImproperlyConfigured


def settings_or_exit() -> None:
    """Load the settings now; on ImproperlyConfigured print one line and exit with status 1."""
    from django.conf import settings

    try:
        settings.INSTALLED_APPS  # noqa: B018  (the first read imports the settings module)
    except ImproperlyConfigured as error:
        print(f"rummi: {error}", file=sys.stderr)
        raise SystemExit(1) from None
