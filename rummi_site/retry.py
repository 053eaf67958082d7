"""A request whose database connection died under it is tried once more, on a live connection.

When PostgreSQL drops a connection while a move's transaction is open (``pg_terminate_backend``,
a restart), the transaction is gone and nothing of it was written; the move itself is
idempotent (its key and expected seq, docs/api.md): tried again it lands once, or, if its
commit had in fact reached the server, answers the first answer from its receipt. So the web
process tries it again itself instead of answering 500 and leaving the retry to the client
(docs/deploy.md, "Restarts"). A database error of the operational kind (a lost connection,
and as well a deadlock or a serialization failure, whose transaction was also rolled back) is
retried once, outside any transaction.

The same holds for any request that can safely run twice: :class:`RetryMiddleware` runs the
view once more when a connection error escapes it, for reading methods (GET, HEAD, OPTIONS) and
views marked :func:`idempotent` (a move: its key makes a second run answer the first answer).
Reads outside the move needed it too: the fault suite's games polled their state with GET, and a
connection killed under a session or user lookup was a 500
(tests/faults/test_it_survives_faults_behind_the_proxy.py). Other writes (a new game, a sign-up)
are not run twice: their error goes the usual way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse

T = TypeVar("T")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def once_more_if_the_connection_died(call: Callable[[], T]) -> T:
    try:
        return call()
    except (OperationalError, InterfaceError):
        # The transaction was rolled back (or never began), so nothing of the move was
        # written; inside a caller's transaction it is the caller's to handle.
        if connection.in_atomic_block:
            raise
        connection.close()  # back to the pool, which drops a dead one
        return call()


def idempotent(view: T) -> T:
    """Mark ``view`` as safe to run twice (:class:`RetryMiddleware`)."""
    view.rummi_idempotent = True  # type: ignore[attr-defined]
    return view


class RetryMiddleware:
    """Run the view once more, on a live connection, when its database connection died.

    Last in ``MIDDLEWARE``: its ``process_view`` keeps the view Django resolved (after the other
    middleware's checks, CSRF's among them), and its ``process_exception`` is asked first. A
    second connection error leaves the first to go the usual way (a 500, JSON under the API:
    rummi_site/jsonapi.py); any other error of the second run is raised as it would be."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> None:
        if request.method in SAFE_METHODS or getattr(view, "rummi_idempotent", False):
            request.rummi_view = (view, args, kwargs)  # type: ignore[attr-defined]

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        retry = getattr(request, "rummi_view", None)
        if (
            retry is None
            or not isinstance(exception, (OperationalError, InterfaceError))
            or connection.in_atomic_block
        ):
            return None
        request.rummi_view = None  # type: ignore[attr-defined]  # once only
        connection.close()  # back to the pool, which drops a dead one
        view, args, kwargs = retry
        try:
            return view(request, *args, **kwargs)
        except (OperationalError, InterfaceError):
            return None  # dead again: the first error goes the usual way
