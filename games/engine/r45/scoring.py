"""The end of a Rummy 45 game: every seat's points (docs/rules-45.md "End scoring").

In end values (2-9 are 5, 10-13 are 10, a 1 is 25, a joker 50), each seat scores the tiles it is
credited with on the displays (its own melds' tiles, and the tiles it stitched onto anyone's) and
its take-back pile as plus, and the tiles left on its board as minus. Then, in this order:

1. a seat that never displayed scores -100 instead, and one that announced a game on the board
   and did not win it -200 instead;
2. the winner: after a display, the credited tiles and the winning tile's 50 (its face value is
   not counted); on the board, the combination's points; doubled when the winning tile is a joker;
3. the seat that showed the trump adds 50;
4. a trump of 1 doubles everyone's points, minus points too.

When the tiles run out (``exhausted``) there is no winner and no 50s are added.

>>> from games.engine.tiles import Tile
>>> seat_score(credited=[Tile("R", 10), Tile("R", 11), Tile("R", 12)], left=[Tile("K", 5)],
...     displayed=True)
25
>>> seat_score(credited=[], left=[], displayed=False), seat_score([], [], True, trump_one=True)
(-100, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tiles import Tile
from .melds import end_value

NO_DISPLAY = -100
FAILED_BOARD = -200
WINNING_TILE = 50
TRUMP_SHOWN = 50


def seat_score(
    credited: Sequence[Tile],
    left: Sequence[Tile],
    displayed: bool,
    *,
    announced_board: bool = False,
    winner: bool = False,
    board_points: int | None = None,
    winning_joker: bool = False,
    trump_shown: bool = False,
    trump_one: bool = False,
    exhausted: bool = False,
) -> int:
    """One seat's final points, by the rules above."""
    if winner and board_points is not None:
        points = board_points
    elif winner:
        points = sum(end_value(t) for t in credited) + WINNING_TILE
    elif announced_board:
        points = FAILED_BOARD
    elif not displayed:
        points = NO_DISPLAY
    else:
        points = sum(end_value(t) for t in credited) - sum(end_value(t) for t in left)
    if winner and winning_joker:
        points *= 2
    if trump_shown and not exhausted:
        points += TRUMP_SHOWN
    return points * 2 if trump_one else points
