"""Websocket URL patterns of tournaments, routed by rummi_site.asgi."""

from __future__ import annotations

from django.urls import URLPattern, path

from .consumers import TournamentConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/tournaments/<int:tid>/", TournamentConsumer.as_asgi()),  # type: ignore[arg-type]
]
