"""Refusals that say what was wrong: the 400 of a request Django could not read, the 405 of
an address asked with a method it does not take (README.md "Limits and hostile input"), and a
socket closed with its code (:func:`close_socket`).

Django answers a form over its limits (``RequestDataTooBig``, too many fields or files), an
upload it cannot parse (``MultiPartParserError``: a file name so long that the part's headers
pass 1 KB) and a file path leaving its folder (``SuspiciousFileOperation``) with the 400
handler, :func:`bad_request`, here: a sentence naming what was wrong, as JSON under the API's
paths and the site's page elsewhere. A view's 405 comes with no body; :class:`MethodsMiddleware`
gives it one saying which methods the address takes.

Such a request is the client's fault, not the site's: ``ClientFaultOnOneLine`` logs it as
one line (warning, with the method and path), never a traceback
(rummi_site/logs.py, settings.LOGGING).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    DisallowedHost,
    RequestDataTooBig,
    SuspiciousFileOperation,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MAX_TOTAL_HEADER_SIZE, MultiPartParserError
from django.shortcuts import render
from django.template import loader
from django.urls import reverse

from rummi_site.jsonapi import is_json_path

MALFORMED = "The request was malformed."
# Addresses that answer JSON besides the API's (the embedded frame relay: machines only).
JSON_NAMES = ("relayed_frames",)


def what_was_wrong(exception: BaseException | None) -> str:
    """A sentence for the person who sent a request Django refused with a 400.

    >>> what_was_wrong(TooManyFieldsSent())
    'The form sent has too many fields: at most 500.'
    >>> what_was_wrong(MultiPartParserError("Request max total header size exceeded."))[:39]
    'A file name in the upload is too long: '
    """
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        return (
            f"The form sent is too large: its fields may hold at most {limit} KB together "
            "(an uploaded file apart). Shorten what you typed and try again."
        )
    if isinstance(exception, TooManyFieldsSent):
        return (
            f"The form sent has too many fields: at most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}."
        )
    if isinstance(exception, TooManyFilesSent):
        return (
            f"The form sent holds too many files: at most {settings.DATA_UPLOAD_MAX_NUMBER_FILES}."
        )
    if isinstance(exception, MultiPartParserError):
        if "header size" in str(exception):
            return (
                "A file name in the upload is too long: a file's headers, its name included, "
                f"may hold at most {MAX_TOTAL_HEADER_SIZE} bytes. Rename the file with a "
                "shorter name and try again."
            )
        return "The upload could not be read as a form (multipart/form-data)."
    if isinstance(exception, SuspiciousFileOperation):
        return "That file path is not allowed: it leaves the folder it names."
    if isinstance(exception, SuspiciousOperation):
        return "The request was refused as unsafe to read."
    return MALFORMED


@cache
def _json_paths() -> tuple[str, ...]:
    return tuple(reverse(name) for name in JSON_NAMES)


def _json(request: HttpRequest) -> bool:
    return is_json_path(request) or request.path in _json_paths()


def bad_request(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    """The 400 handler (rummi_site/urls.py ``handler400``)."""
    message = what_was_wrong(exception)
    if _json(request):
        return JsonResponse({"error": "bad_request", "message": message}, status=400)
    if isinstance(exception, DisallowedHost):
        # The page's context would ask the request for its host again: rendered without it.
        return HttpResponse(loader.render_to_string("400.html", {"message": message}), status=400)
    return render(request, "400.html", {"message": message}, status=400)


class MethodsMiddleware:
    """A 405 without a body (``require_POST`` and its kin) gets one: which methods the address
    takes, as JSON under the API's paths and the relay's, the site's page elsewhere."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        allowed = [m.strip() for m in response.get("Allow", "").split(",") if m.strip()]
        takes = " or ".join(allowed) or "another method"
        message = f"This address takes {takes}, not {request.method}."
        answer: HttpResponse
        if _json(request):
            answer = JsonResponse({"error": "http_405", "message": message}, status=405)
        else:
            context = {"message": message, "posts": allowed == ["POST"]}
            answer = render(request, "405.html", context, status=405)
        if response.has_header("Allow"):
            answer["Allow"] = response["Allow"]
        return answer


async def close_socket(consumer: Any, code: int) -> None:
    """Close a socket that is opening with ``code`` (4401, 4404: docs/api.md). It is accepted
    first: a socket closed before it is accepted is a refused handshake (HTTP 403), which a page
    reads as 1006 and tries again, never seeing the code."""
    await consumer.accept()
    await consumer.close(code=code)
