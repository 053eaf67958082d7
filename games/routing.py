"""Websocket URL patterns, routed by rummi_site.asgi."""

from __future__ import annotations

from django.urls import URLPattern, path

from rummi_site import converters  # noqa: F401  (registers <segment:...>)

from .consumers import GameConsumer
from .models import SOCKET_ROUTE

websocket_urlpatterns: list[URLPattern] = [
    path(SOCKET_ROUTE, GameConsumer.as_asgi()),  # type: ignore[arg-type]
]
