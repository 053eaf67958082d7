"""The JSON edge: domain errors as HTTP answers, and reading request bodies.

The mapping of a domain error (games/errors.py) to an HTTP status is written here and nowhere
else (docs/design.md "Errors"); the socket consumer uses it for its answer frames too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, JsonResponse

from games.errors import Conflict, DomainError, Forbidden, Illegal, Invalid, NotFound, Unavailable

View = Callable[..., JsonResponse]

STATUS: dict[type[DomainError], int] = {
    Invalid: 400,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    Illegal: 422,
    Unavailable: 503,
}


def status_of(error: DomainError) -> int:
    """The HTTP status of a domain error: that of its nearest kind in ``STATUS``."""
    for kind in type(error).__mro__:
        if kind in STATUS:
            return STATUS[kind]  # type: ignore[index]
    return 400


def error_response(error: DomainError) -> JsonResponse:
    return JsonResponse(error.body, status=status_of(error))


def json_errors(view: View) -> View:
    """Answer a :class:`DomainError` raised by ``view`` with its status and body."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        try:
            return view(request, *args, **kwargs)
        except DomainError as error:
            return error_response(error)

    return wrapped


def read_body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object (empty body: ``{}``); :class:`Invalid` for anything else."""
    if not request.body:
        return {}
    try:
        body = json.loads(request.body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise Invalid("bad_json", "The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise Invalid("bad_json", "The request body must be a JSON object.")
    return body
