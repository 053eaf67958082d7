from __future__ import annotations

from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "puzzles"
