"""``manage.py awardtrophies``: award every trophy the whole history shows and nobody holds
yet (players/trophies.py). One line per award, then ``awarded N trophies``; run again, it
awards 0."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from players.trophies import TROPHIES, backfill


class Command(BaseCommand):
    help = "Backfill the trophies from the whole history (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        made = backfill()
        for award in made:
            where = f" in game {award.game.public_id}" if award.game else ""
            name = TROPHIES[award.key].name
            self.stdout.write(f"{award.user.get_username()}: {name} ({award.key}){where}")
        self.stdout.write(f"awarded {len(made)} trophies")
