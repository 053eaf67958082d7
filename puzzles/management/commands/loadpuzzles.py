"""Load the puzzle fixture into the database: ``manage.py loadpuzzles [--file F]``.

Idempotent (by slug) and quick, since ``make run`` calls it on every start: new puzzles are
created, changed ones updated, ratings that play has moved are left alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from puzzles.generator import Features, puzzle_rating, read_fixture
from puzzles.models import Puzzle

DEFAULT_FILE = Path(__file__).resolve().parents[2] / "fixtures" / "puzzles.json"
CONTENT = ("table", "rack", "goal", "solution", "level", "technique", "lesson")
FEATURES = tuple(Features.__dataclass_fields__)
PUZZLE_RD = 200.0  # generated puzzles start from their level: a prior, not a guess


class Command(BaseCommand):
    help = "Create or update the generated puzzles from the fixture (by slug)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--file", default=str(DEFAULT_FILE))

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = read_fixture(Path(options["file"]).read_text())
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {options['file']}: {error}") from None
        created, updated = load(data["puzzles"])
        self.stdout.write(f"puzzles: {created} created, {updated} updated")


def fields_of(entry: dict[str, Any]) -> dict[str, Any]:
    goal = entry.get("goal", "all")
    fields = {name: entry[name] for name in CONTENT if name != "goal"}
    fields["goal"] = None if goal == "all" else int(goal)
    fields.update({name: entry["features"][name] for name in FEATURES})
    return fields


@transaction.atomic
def load(entries: list[dict[str, Any]]) -> tuple[int, int]:
    existing = {p.slug: p for p in Puzzle.objects.filter(slug__in=[e["slug"] for e in entries])}
    new, changed = [], []
    for entry in entries:
        fields = fields_of(entry)
        puzzle = existing.get(entry["slug"])
        if puzzle is None:
            features = Features(**entry["features"])
            rating = puzzle_rating(fields["level"], features, len(fields["rack"]))
            new.append(Puzzle(slug=entry["slug"], rating=rating, rd=PUZZLE_RD, **fields))
        elif any(getattr(puzzle, name) != value for name, value in fields.items()):
            for name, value in fields.items():
                setattr(puzzle, name, value)
            changed.append(puzzle)
    Puzzle.objects.bulk_create(new)
    Puzzle.objects.bulk_update(changed, list(CONTENT + FEATURES))
    return len(new), len(changed)
