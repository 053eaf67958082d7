"""Rate limits on what costs the site work or could flood it: creating and joining games,
hints, editor checks, puzzle submissions and seeks (README "Limits").

Counting is django-ratelimit's (a maintained library: fixed windows in the cache, atomic
increments), on the ``default`` cache: Redis when ``REDIS_URL`` is set, so every web process
counts together; without it the one web process of the embedded mode counts in memory. A
request over its limit is answered 429 with a sentence and ``Retry-After`` (the seconds left in
the window): JSON under the API paths, a short page elsewhere. Signed-in people are counted by
account, guests by address (behind a proxy, daphne's ``--proxy-headers`` gives the client's).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage

from .jsonapi import is_json_path

# The limits, per person (account or address), by what is limited.
RATES = {
    "create": "12/m",
    "join": "30/m",
    "hint": "30/m",
    "editor": "30/m",
    "puzzle": "60/m",
    "rename": "5/h",
    # Every profile save, whatever it changes: a refused name (checked against every account's
    # names) or a bio edit is not a name change, yet each costs the site a little work.
    "profile": "60/h",
    "avatar": "10/h",
    "seek": "20/m",
}
WHAT = {
    "create": "new games",
    "join": "joins",
    "hint": "hints",
    "editor": "editor checks",
    "puzzle": "puzzle moves",
    "rename": "name changes",
    "profile": "profile saves",
    "avatar": "avatar uploads",
    "seek": "seeks",
}


def _usage(
    request: HttpRequest, group: str, methods: tuple[str, ...], increment: bool
) -> dict[str, Any] | None:
    return get_usage(
        request,
        group=f"rummi.{group}",
        key="user_or_ip",
        rate=RATES[group],
        method=list(methods),
        increment=increment,
    )


def limited(group: str, methods: tuple[str, ...] = ("POST",)) -> Callable[..., Any]:
    """Limit a view's ``methods`` to ``RATES[group]`` per person."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            usage = _usage(request, group, methods, increment=True)
            if usage is not None and usage["should_limit"]:
                return too_many(request, group, int(usage["time_left"]))
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def used_up(
    request: HttpRequest, group: str, methods: tuple[str, ...] = ("POST",)
) -> HttpResponse | None:
    """For a view that counts only what it does (:func:`count_one`), not every request: the
    429 answer when the person has used up ``RATES[group]`` already, else None. Counts nothing."""
    usage = _usage(request, group, methods, increment=False)
    if usage is not None and usage["count"] >= usage["limit"]:
        return too_many(request, group, int(usage["time_left"]))
    return None


def count_one(request: HttpRequest, group: str, methods: tuple[str, ...] = ("POST",)) -> None:
    """Count one use of ``group`` for the person, once it is done (see :func:`used_up`)."""
    _usage(request, group, methods, increment=True)


def too_many(request: HttpRequest, group: str, retry_after: int) -> HttpResponse:
    retry_after = max(1, retry_after)
    limit = RATES[group].replace("/m", " a minute").replace("/h", " an hour")
    message = f"Too many {WHAT[group]} (at most {limit}); try again in {retry_after} s."
    return refused(request, message, retry_after)


def refused(request: HttpRequest, message: str, retry_after: int) -> HttpResponse:
    """The one 429 of the site: ``message`` (saying how long to wait) as JSON under the API
    paths, the site's page elsewhere, with ``Retry-After`` in seconds either way. The sign-in
    pages' limits (allauth's) answer through it too (accounts/limits.py)."""
    retry_after = max(1, retry_after)
    if is_json_path(request):
        response: HttpResponse = JsonResponse(
            {"error": "rate_limited", "message": message, "retry_after": retry_after}, status=429
        )
    else:
        response = render(request, "games/error.html", {"error": {"message": message}}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
