"""Websocket URL patterns, routed by rummi_site.asgi."""

from __future__ import annotations

from django.urls import URLPattern, path

from .consumers import GameConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/games/<str:gid>/", GameConsumer.as_asgi()),  # type: ignore[arg-type]
]
