"""Generate the puzzle fixture: ``manage.py generatepuzzles --seed 7 --count 300 --out F``.

Same seed and count, same file (whatever ``--jobs``): see puzzles/generator.py.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from puzzles.generator import GeneratedPuzzle, fixture_text, generate

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "fixtures" / "puzzles.json"


class Command(BaseCommand):
    help = "Generate verified puzzles over ten levels into a reproducible JSON fixture."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--count", type=int, default=300)
        parser.add_argument("--out", default=str(DEFAULT_OUT), help="a path, or - for stdout")
        parser.add_argument("--jobs", type=int, default=1, help="processes for mixed levels")

    def handle(self, *args: Any, **options: Any) -> None:
        seed, count = options["seed"], options["count"]
        started = time.perf_counter()
        done = 0

        def progress(puzzle: GeneratedPuzzle) -> None:
            nonlocal done
            done += 1
            if options["verbosity"] > 1:
                self.stderr.write(f"{done}/{count} {puzzle.slug}")

        puzzles = generate(seed, count, jobs=options["jobs"], progress=progress)
        text = fixture_text(seed, count, puzzles)
        if options["out"] == "-":
            sys.stdout.write(text)
        else:
            Path(options["out"]).write_text(text)
        seconds = time.perf_counter() - started
        self.stderr.write(f"{len(puzzles)} puzzles in {seconds:.1f} s -> {options['out']}")
