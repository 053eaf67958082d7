from __future__ import annotations

from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "matchmaking"
