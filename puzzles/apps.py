"""Puzzles: curated and generated positions, the trainer ramp and the daily puzzle."""

from __future__ import annotations

from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "puzzles"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the receivers)
