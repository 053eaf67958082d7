"""Which pages may open a game socket: the site's own origin, exactly, or a trusted one.

A socket carries the session cookie like a POST, so its Origin is checked as CSRF checks a
POST's: the scheme, host and port must be this site's (the Host the socket was opened on,
itself one of ``ALLOWED_HOSTS``, with ``https`` for ``wss``), or one of
``CSRF_TRUSTED_ORIGINS`` (``RUMMI_CSRF_TRUSTED_ORIGINS``: a proxy that ends TLS in front of
the site lists its public ``https://`` origin there). ``http://localhost:3000`` on a site at
``http://localhost:8000`` is another origin, and is refused.

>>> allowed_origin("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", ["127.0.0.1"], [])
True
>>> allowed_origin("http://127.0.0.1:3000", "127.0.0.1:8000", "ws", ["127.0.0.1"], [])
False
>>> allowed_origin("https://127.0.0.1:8000", "127.0.0.1:8000", "ws", ["127.0.0.1"], [])
False
>>> allowed_origin("https://rummi.example", "10.0.0.5:8000", "ws", ["*"], ["https://rummi.example"])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def allowed_origin(
    origin: str, host: str, scheme: str, allowed_hosts: Sequence[str], trusted: Sequence[str]
) -> bool:
    if not origin or origin == "null":
        return False
    if origin in trusted:
        return True
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, list(allowed_hosts)):
        return False
    own = f"{'https' if scheme in ('wss', 'https') else 'http'}://{host}"
    return origin.lower() == own.lower()


class SameOriginValidator:
    """ASGI middleware: a websocket whose Origin is not :func:`allowed_origin` is denied."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            headers = {k.decode("latin1"): v.decode("latin1") for k, v in scope["headers"]}
            allowed = allowed_origin(
                headers.get("origin", ""),
                headers.get("host", ""),
                scope.get("scheme", "ws"),
                settings.ALLOWED_HOSTS,
                settings.CSRF_TRUSTED_ORIGINS,
            )
            if not allowed:
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
