"""The sign-in pages' rate limits answered like the rest of the site's (rummi_site/limits.py):
the site's page saying how long to wait, and ``Retry-After``.

allauth counts sign-ups, sign-ins and password resets itself (its ``RATE_LIMITS``, settings
``ACCOUNT_RATE_LIMITS``) and, over a limit, calls the ``handler429`` of the root URLconf
(rummi_site/urls.py) with the request alone. The wait is read back from allauth's own count:
for a limit by address, the moment its oldest counted request leaves the window; for one by
account or login, which the request does not name, the whole window (always long enough).
"""

from __future__ import annotations

import math
import time

from allauth.account import app_settings
from allauth.core.internal.ratelimit import get_cache_key, parse_rates
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from rummi_site.limits import refused

# allauth's limited actions by the URL name of the page that counts them, and their words.
ACTIONS = {
    "account_signup": ("signup",),
    "account_login": ("login",),
    "account_reset_password": ("reset_password",),
    "account_reset_password_from_key": ("reset_password_from_key",),
    "account_change_password": ("change_password",),
    "account_email": ("manage_email",),
    "account_reauthenticate": ("reauthenticate",),
}
WHAT = {
    "signup": "sign-ups",
    "login": "sign-ins",
    "reset_password": "password reset requests",
    "reset_password_from_key": "password resets",
    "change_password": "password changes",
    "manage_email": "e-mail address changes",
    "reauthenticate": "password confirmations",
}
APP = "allauth.account"


def _actions(request: HttpRequest) -> tuple[str, ...]:
    match = request.resolver_match
    return ACTIONS.get(match.url_name or "", ()) if match is not None else ()


def seconds_to_wait(request: HttpRequest, actions: tuple[str, ...]) -> int:
    """How long until ``actions`` take this request again (at least 1 s)."""
    config = app_settings.RATE_LIMITS
    now = time.time()
    waits: list[float] = []
    windows: list[float] = []
    for action in actions or tuple(config):
        for rate in parse_rates(config.get(action)):
            windows.append(rate.duration)
            if rate.per != "ip":
                continue
            key = get_cache_key(request, app=APP, action=action, rate=rate)
            counted = sorted(t for t in cache.get(key, []) if t > now - rate.duration)
            if len(counted) >= rate.amount:  # this limit is the one reached
                waits.append(counted[len(counted) - rate.amount] + rate.duration - now)
    wait = max(waits) if waits else max(windows, default=60)
    return max(1, math.ceil(wait))


def too_many_attempts(request: HttpRequest) -> HttpResponse:
    """allauth's answer over a limit (rummi_site/urls.py ``handler429``)."""
    actions = _actions(request)
    what = WHAT.get(actions[0], "attempts") if actions else "attempts"
    wait = seconds_to_wait(request, actions)
    message = f"Too many {what} from your address; try again in {wait} s."
    return refused(request, message, wait)
