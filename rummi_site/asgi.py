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
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from rummi_site.origins import SameOriginValidator  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402

# Plain daphne does not serve static files (only runserver does); in development we do it here,
# in production the proxy serves STATIC_ROOT.
http_app = ASGIStaticFilesHandler(django_asgi_app) if settings.DEBUG else django_asgi_app

if settings.RUMMI_GC_TUNE:
    # A server process holds many long-lived objects (a thousand sockets' protocols, consumers
    # and tasks): the cyclic collector's full passes over them stalled every socket of the
    # process. Objects made at start-up are frozen out of collection, and young-generation
    # passes run less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)

application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns + tournament_sockets))
        ),
    }
)
