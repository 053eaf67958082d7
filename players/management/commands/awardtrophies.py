"""``manage.py awardtrophies``: award every trophy the whole history shows and nobody holds
yet (players/trophies.py). One line per award, then ``awarded N trophies``; run again, it
awards 0.

``--take-back`` first takes back what the history no longer gives: trophies earned by a
stand-in's turns, in an absent seat or an aborted game, or in a tournament the player was
absent from throughout, and the felts and tile backs they unlocked (docs/fair-play.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from players.cosmetics import drop_locked
from players.trophies import TROPHIES, backfill, take_back


class Command(BaseCommand):
    help = "Backfill the trophies from the whole history (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--take-back",
            action="store_true",
            help="first take back the trophies the history no longer gives (docs/fair-play.md)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["take_back"]:
            taken = take_back()
            for award in taken:
                name = TROPHIES[award.key].name
                self.stdout.write(f"{award.user.get_username()}: took back {name} ({award.key})")
            drop_locked({a.user_id for a in taken})
            self.stdout.write(f"took back {len(taken)} trophies")
        made = backfill()
        for award in made:
            where = f" in game {award.game.public_id}" if award.game else ""
            name = TROPHIES[award.key].name
            self.stdout.write(f"{award.user.get_username()}: {name} ({award.key}){where}")
        self.stdout.write(f"awarded {len(made)} trophies")
