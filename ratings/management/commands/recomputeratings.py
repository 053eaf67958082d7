"""``manage.py recomputeratings``: rebuild every game rating and its history from the result
rows of the rated games, in the order they finished (ratings/services.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import recompute


class Command(BaseCommand):
    help = "Rebuild every game rating from the result rows (equal to the live updates)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"rated {recompute()} games")
