"""Rewrite the rules page's teaching replays: ``manage.py teachingrecords [RULE ...]``.

Each rule's record (games/teaching/r45-<rule>.json) is the first seeded bot game in which the
rule's event happens (games/services/teaching.py); with rule names, only those are written.
The same engine and bots write the same files, which the suite checks
(tests/games/r45/test_it_ships_teaching_replays.py).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services.teaching import BY_SLUG, write_records


class Command(BaseCommand):
    help = "Play the seeded bot games of the rules page's teaching replays and write them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("rules", nargs="*", help=f"one of {', '.join(BY_SLUG)} (all if none)")

    def handle(self, *args: Any, **options: Any) -> None:
        unknown = [rule for rule in options["rules"] if rule not in BY_SLUG]
        if unknown:
            raise CommandError(f"unknown rule {unknown[0]!r}: one of {', '.join(BY_SLUG)}")
        for path in write_records(options["rules"]):
            self.stdout.write(f"wrote {path.name}")
