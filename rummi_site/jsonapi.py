"""The JSON edge: domain errors as HTTP answers, and reading request bodies.

The mapping of a domain error (games/errors.py) to an HTTP status is written here and nowhere
else (docs/design.md "Errors"); the socket consumer uses it for its answer frames too.

:func:`read_json` is the one reader of untrusted JSON, for HTTP bodies and socket messages
alike: it caps the size and the nesting, bounds integers, and refuses non-finite numbers,
invalid Unicode and the NUL character (which PostgreSQL cannot store in text), in keys and values
at any depth, each with a sentence, before anything else looks at the data.

>>> read_json(b'{"table": [[1, 2, 3]]}')
{'table': [[1, 2, 3]]}
>>> hostile = (b'{"a": 1e400}', b'{"a": NaN}', b'{"a": "\\\\ud800"}', b'{"a": ["\\\\u0000"]}')
>>> for bad in (*hostile, b'[' * 40 + b']' * 40):
...     try:
...         read_json(bad)
...     except Invalid as error:
...         print(error.code, "-", error.message)
bad_number - Numbers must be finite.
bad_number - Numbers must be finite.
bad_unicode - The request holds text that is not valid Unicode.
nul_character - The request holds a NUL character (U+0000), which no field accepts.
too_deep - The request nests deeper than 8 levels.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable
from functools import cache, wraps
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.urls import reverse

from games.errors import Conflict, DomainError, Forbidden, Illegal, Invalid, NotFound, Unavailable

View = Callable[..., JsonResponse]
log = logging.getLogger(__name__)

# The bounds of untrusted JSON: the largest real body (a full table of 160 tile ids with its
# key) is under 2 KB.
MAX_BYTES = 32 * 1024
MAX_DEPTH = 8
MAX_INT_DIGITS = 15
# The JSON endpoints are the URLs named api_*; every path under their "api/" folders answers
# JSON, errors included, unknown paths too (docs/api.md). Found from these names once.
JSON_ROOTS = ("api_create", "puzzles:api_trainer")
NUL_REFUSED = "The request holds a NUL character (U+0000), which no field accepts."


@cache
def json_prefixes() -> tuple[str, ...]:
    """``("/api/", "/puzzles/api/")``: each root's path up to and including its ``api/``."""
    found = []
    for name in JSON_ROOTS:
        path = reverse(name)
        found.append(path[: path.index("api/") + len("api/")])
    return tuple(found)


def is_json_path(request: HttpRequest) -> bool:
    return request.path.startswith(json_prefixes())


class TooLarge(Invalid):
    """A body or message over :data:`MAX_BYTES`."""


STATUS: dict[type[DomainError], int] = {
    TooLarge: 413,
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


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        raise Invalid("bad_number", f"Integers have at most {MAX_INT_DIGITS} digits.")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Invalid("bad_number", "Numbers must be finite.")
    return value


def _constant(text: str) -> Any:
    raise Invalid("bad_number", "Numbers must be finite.")


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: one that names a key twice
    (``{"players": 2, "players": 3}``) is refused, not read as its last value.

    >>> try:
    ...     read_json('{"players": 2, "players": 3}')
    ... except Invalid as error:
    ...     print(error.message)
    players is named more than once; name each field once.
    """
    body = dict(pairs)
    if len(body) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                shown = key if len(key) <= 24 else key[:24] + "..."
                raise Invalid(
                    "duplicate_field", f"{shown} is named more than once; name each field once."
                )
            seen.add(key)
    return body


def _checked(value: Any, source: str = "request") -> None:
    """Refuse nesting past :data:`MAX_DEPTH` and strings, keys or values, that are not valid
    Unicode (lone surrogates from ``\\ud800`` escapes) or hold a NUL, walking without
    recursion. ``source`` names what held them in the sentences."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise Invalid("too_deep", f"The {source} nests deeper than {MAX_DEPTH} levels.")
            children = list(item.items()) if isinstance(item, dict) else item
            for child in children:
                if isinstance(child, tuple):
                    _check_text(child[0], source)
                    stack.append((child[1], depth + 1))
                else:
                    stack.append((child, depth + 1))
        elif isinstance(item, str):
            _check_text(item, source)


def _check_text(text: str, source: str) -> None:
    if "\x00" in text:
        raise Invalid("nul_character", NUL_REFUSED)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        unicode = f"The {source} holds text that is not valid Unicode."
        raise Invalid("bad_unicode", unicode) from None


# A JSON string (its brackets are text, not nesting), and a bracket.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def deeper_than(text: str, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays and objects more than ``limit`` deep (brackets inside
    strings not counted), read before the parser recurses: a body 2,000 brackets deep drove
    ``json.loads`` to the interpreter's recursion limit, where a collection that ran at that
    depth could not even report what it finalized. Text with no more brackets than ``limit``
    is not scanned.

    >>> deeper_than('{"a": [[1]]}', 3), deeper_than('{"a": [[1]]}', 2)
    (False, True)
    >>> deeper_than('["[[[[", "]]]]"]', 1), deeper_than("[" * 2000, 8)
    (False, True)
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > limit:
            return True
    return False


def read_json(raw: bytes | str | None, source: str = "request") -> dict[str, Any]:
    """Untrusted JSON (an HTTP body, a socket message) as an object; :class:`Invalid` (or
    :class:`TooLarge`) with a sentence for anything else. An empty body is ``{}``. ``source``
    names what sent it in the sentences: "request" (its body), "message" (a socket's).

    >>> try:
    ...     read_json("{", source="message")
    ... except Invalid as error:
    ...     print(error.message)
    The message is not valid JSON.
    """
    whole = "The request body" if source == "request" else f"The {source}"
    if not raw:
        return {}
    if len(raw) > MAX_BYTES:
        raise TooLarge("too_large", f"The {source} is larger than {MAX_BYTES // 1024} KB.")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Invalid("bad_unicode", f"The {source} is not UTF-8 text.") from None
    if "\x00" in raw:  # a raw NUL (a "\u0000" escape is found in the parsed text below)
        raise Invalid("nul_character", NUL_REFUSED)
    if deeper_than(raw, MAX_DEPTH):
        raise Invalid("too_deep", f"The {source} nests deeper than {MAX_DEPTH} levels.")
    try:
        body = json.loads(
            raw,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
            object_pairs_hook=_once_each,
        )
    except RecursionError:
        raise Invalid("too_deep", f"The {source} nests deeper than {MAX_DEPTH} levels.") from None
    except json.JSONDecodeError:
        raise Invalid("bad_json", f"{whole} is not valid JSON.") from None
    _checked(body, source)
    if not isinstance(body, dict):
        raise Invalid("bad_json", f"{whole} must be a JSON object.")
    return body


def read_body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object (empty body: ``{}``), read by :func:`read_json`."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        # Django would read it again for the body, and fail there with a 500.
        raise Invalid("bad_length", "The Content-Length header is not a whole number.") from None
    if length > MAX_BYTES:
        raise TooLarge("too_large", f"The request is larger than {MAX_BYTES // 1024} KB.")
    try:
        return read_json(request.body)
    except RequestDataTooBig:
        raise TooLarge("too_large", f"The request is larger than {MAX_BYTES // 1024} KB.") from None
    except RawPostDataException:
        # A multipart form, already read as one (by the CSRF check): not the JSON asked for.
        raise Invalid("bad_json", "The request body must be JSON, not a form upload.") from None


class JsonErrorsMiddleware:
    """Every answer under :func:`json_prefixes` is JSON, in DEBUG too: an unexpected error is a
    JSON 500 (logged), and an HTML error page (404 of an unknown path, 405) becomes JSON."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not is_json_path(request) or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        message = {
            404: "There is no such API endpoint.",
            405: f"{request.method} is not allowed here.",
        }.get(response.status_code, "The request was refused.")
        answer = JsonResponse({"error": f"http_{response.status_code}", "message": message})
        answer.status_code = response.status_code
        if response.has_header("Allow"):
            answer["Allow"] = response["Allow"]
        return answer

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_json_path(request):
            return None
        if isinstance(exception, DomainError):
            return error_response(exception)
        log.exception("unexpected error on %s %s", request.method, request.path)
        body = {"error": "server_error", "message": "Something went wrong on our side; try again."}
        return JsonResponse(body, status=500)
