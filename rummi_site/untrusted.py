"""One way in for untrusted text: no NUL character (U+0000) gets past the edge.

PostgreSQL cannot store or compare text holding a NUL (``psycopg.DataError``), so a NUL that
reaches a query is a 500 there, where SQLite answers a 404 or stores it. The site refuses it
where text comes in (README.md, "Limits and hostile input"):

* JSON bodies and socket messages: :func:`rummi_site.jsonapi.read_json`, keys and values at
  any depth;
* a path parameter: the ``segment`` converter (rummi_site/converters.py) matches no control
  character, for the game socket's path too;
* the path, the query string and the form fields (names and values) of a request:
  :class:`RefuseNulMiddleware` answers a 400 with a sentence before any view
  runs (JSON under the API's paths, the site's page elsewhere);
* the session cookie: :class:`rummi_site.sessions.SessionStore` takes a malformed key for
  none.

Django's form ``CharField`` refuses a NUL itself (``ProhibitNullCharactersValidator``); this
middleware answers first, for every form and for views that read ``request.GET`` or
``request.POST`` directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.errors import Invalid
from rummi_site.jsonapi import NUL_REFUSED, error_response, is_json_path

NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def holds_nul(texts: Iterable[str]) -> bool:
    return any(NUL in text for text in texts)


def _line(request: HttpRequest) -> Iterable[str]:
    """The path and the query string's names and values."""
    yield request.path
    for name, values in request.GET.lists():
        yield name
        yield from values


def _form(request: HttpRequest) -> Iterable[str]:
    """A form body's field names and values (Django drops control characters from the names
    of uploaded files itself)."""
    if request.method != "POST" or request.content_type not in FORM_TYPES:
        return
    for name, values in request.POST.lists():
        yield name
        yield from values
    yield from request.FILES


def refused(request: HttpRequest) -> HttpResponse:
    if is_json_path(request):
        return error_response(Invalid("nul_character", NUL_REFUSED))
    return render(request, "400.html", {"message": NUL_REFUSED}, status=400)


class RefuseNulMiddleware:
    """Answer a request holding a NUL in its path, its query or its form with a 400.

    The form is read in ``process_view``, as the CSRF check reads it, and not for a view
    exempt from that check: such a view (the frame relay) reads its raw body, which a
    multipart form read first would no longer give.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if holds_nul(_line(request)):
            return refused(request)
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        if getattr(view, "csrf_exempt", False) or not holds_nul(_form(request)):
            return None
        return refused(request)
