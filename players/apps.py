"""Players: profiles, ratings, leaderboards, trophies, avatars and settings that follow you.

It depends on the games services, models and signals (never the reverse): ratings and
trophies are made from the ``game_finished`` signal and the result rows (docs/design.md
"Players").
"""

from __future__ import annotations

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"

    def ready(self) -> None:
        from . import names, receivers  # noqa: F401  (connects the receivers, the name source)
