"""The line that heads a puzzle: it names the technique without showing the puzzle's own
solution.

The generator's lessons (``generator.LESSONS``) teach the first four techniques with a worked
example in tiles ("K9 B9 R9 Y9 lends K9 to K7 K8"), and a puzzle of that technique can be the
example itself: a caption naming tiles would play the puzzle for the solver. So a generated
puzzle is headed by its technique's hint, in words and no tiles; a puzzle made in the editor
or from a game keeps its own line, which says where it came from.

>>> TIPS["take_from_group"]
'A group of four can spare one of its tiles for another meld.'
>>> names_tiles("A group of four can spare a tile: K9 B9 R9 Y9 lends K9 to K7 K8.")
True
>>> names_tiles("Move one table tile to make room for another: every meld must stay valid.")
False
"""

from __future__ import annotations

import re

from .models import Puzzle

TIPS = {
    "extend": "A run takes the next tile of its colour at either end.",
    "split_run": "A long run can be split in two around a copy of one of its middle tiles.",
    "take_from_group": "A group of four can spare one of its tiles for another meld.",
    "free_joker": "A table joker can be swapped for the tile it stands for, then used again.",
}
# A tile code (docs/rules.md "Tiles and notation"): a colour letter, then a number.
TILE = re.compile(r"\b[KBRY](?:1[0-3]|[1-9])\b")


def names_tiles(text: str) -> bool:
    return bool(TILE.search(text))


def caption(puzzle: Puzzle) -> str:
    """The puzzle's heading line: a hint of its technique, never tiles of a solution."""
    if puzzle.source != Puzzle.Source.GENERATED:
        return puzzle.lesson
    if puzzle.technique in TIPS:
        return TIPS[puzzle.technique]
    if names_tiles(puzzle.lesson):
        return ""
    return puzzle.lesson
