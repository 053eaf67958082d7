from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the lifecycle receivers)
