"""What every JSON endpoint shares: refused requests as errors, and reading the body."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, JsonResponse

View = Callable[..., JsonResponse]


class ApiError(Exception):
    """A refused request: the HTTP status, a stable code, a sentence, and any extra fields."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.body: dict[str, Any] = {"error": code, "message": message, **extra}


def json_errors(view: View) -> View:
    """Answer an :class:`ApiError` raised by ``view`` with its status and body."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        try:
            return view(request, *args, **kwargs)
        except ApiError as error:
            return JsonResponse(error.body, status=error.status)

    return wrapped


def read_body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object (empty body: ``{}``); 400 for anything else."""
    if not request.body:
        return {}
    try:
        body = json.loads(request.body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ApiError(400, "bad_json", "The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_json", "The request body must be a JSON object.")
    return body
