"""The deal of Rummy 45, from the game's secret seed (docs/rules-45.md "The deal").

The 106 tiles are shuffled (``SeededStream(seed, "r45 deal")``) into 15 stacks of 7 and an extra
tile. The dealer is drawn from the same stream, and so is the end of the row the extra tile's
number counts from. The landing stack's top tile moves onto the next stack, and the extra tile,
face up on the landing stack, is the trump. A joker as the extra tile means a new shuffle (the
engine's way of mixing stacks back in), counted in ``redeals``.

Stacks are dealt in counting order from the 8-tile stack after the landing one, wrapping round
the row and skipping the landing stack: the dealer's right-hand player (the next seat) gets the
8-tile stack, the next seats one each, until every player holds two stacks. The next stack goes
on top of the row; the stock is that stack, then the rest in order, the landing stack last.

>>> dealt = deal(b"r" * 32, 3)
>>> sorted(len(rack) for rack in dealt.racks), len(dealt.stock)
([14, 14, 15], 62)
>>> len(dealt.racks[(dealt.dealer + 1) % 3])
15
"""

from __future__ import annotations

from ..shuffle import SeededStream
from ..tiles import CLASSIC
from .events import Dealt

STACKS, STACK = 15, 7
TILES = CLASSIC.tiles


def deal(seed: bytes, players: int) -> Dealt:
    """Shuffle, count out the trump and deal to ``players`` seats (2-4): the ``Dealt`` event
    that opens the game's play (the audit deals again from the seed and compares)."""
    stream = SeededStream(seed, "r45 deal")
    dealer = stream.below(players)
    redeals = 0
    while True:
        order = stream.shuffled(range(CLASSIC.size))
        extra = order[STACKS * STACK]
        if not TILES[extra].is_joker:
            break
        redeals += 1
    from_right = stream.below(2) == 1
    stacks = [order[n * STACK : (n + 1) * STACK] for n in range(STACKS)]  # bottom first
    if from_right:
        stacks.reverse()
    landing = TILES[extra].number - 1
    stacks[landing + 1].append(stacks[landing].pop())
    dealing = stacks[landing + 1 :] + stacks[:landing]
    racks: list[list[int]] = [[] for _ in range(players)]
    for _ in range(2):
        for step in range(1, players + 1):
            racks[(dealer + step) % players].extend(dealing.pop(0))
    stock = [tile for stack in dealing + [stacks[landing]] for tile in reversed(stack)]
    return Dealt(
        dealer=dealer,
        redeals=redeals,
        from_right=from_right,
        landing=landing,
        trump=extra,
        racks=tuple(tuple(sorted(rack)) for rack in racks),
        stock=tuple(stock),
    )
