"""ASGI entry point: HTTP goes to Django, websockets to the game consumers.

Run with `daphne rummi_site.asgi:application`.
"""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

from rummi_site.boot import settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")
settings_or_exit()

# Django must be set up before anything below imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from rummi_site.bodylimit import BodyLimit, install_in_daphne  # noqa: E402
from rummi_site.me import PlayerConsumer  # noqa: E402
from rummi_site.origins import SameOriginValidator  # noqa: E402
from rummi_site.refusals import close_socket  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402

# Static files are served by WhiteNoise's middleware (rummi_site/settings.py, STORAGES), with
# DEBUG on or off; behind a proxy the proxy serves STATIC_ROOT first (docs/deploy.md).
http_app = django_asgi_app
# A body over the limit is a 413, unread, in daphne and before Django (rummi_site/bodylimit.py).
http_app = BodyLimit(http_app, settings.RUMMI_MAX_BODY_BYTES)
install_in_daphne(settings.RUMMI_MAX_BODY_BYTES)

if settings.RUMMI_GC_TUNE:
    # A server process holds many long-lived objects (a thousand sockets' protocols, consumers
    # and tasks): the cyclic collector's full passes over them stalled every socket of the
    # process. Objects made at start-up are frozen out of collection, and young-generation
    # passes run less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


class NoSuchSocket(AsyncWebsocketConsumer):
    """A socket path that no route matches (an unknown one, or a game id holding a NUL, which
    the ``segment`` converter refuses) is closed with 4404, as an unknown game is, instead of
    failing inside the router (``close_socket``)."""

    async def connect(self) -> None:
        await close_socket(self, 4404)


unmatched = [re_path(r"", NoSuchSocket.as_asgi())]  # type: ignore[arg-type]
# The signed-in player's own socket: tournament calls and "your move" notices (rummi_site/me.py).
player_sockets = [path("ws/me/", PlayerConsumer.as_asgi())]  # type: ignore[arg-type]

application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(
                URLRouter(websocket_urlpatterns + tournament_sockets + player_sockets + unmatched)
            )
        ),
    }
)
