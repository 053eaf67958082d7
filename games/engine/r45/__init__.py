"""Romanian Rummy 45: the second game family, pure like the Rummikub engine (docs/rules-45.md).

It shares the classic 106 tiles, their codes (``games.engine.tiles``) and the seed commitment
(``games.engine.shuffle``) with the Rummikub engine, and has its own melds (a 1 low or high),
deal, events, state, views, on-board hands, scoring and bots:

* ``melds``: meld readings, display values and the display check;
* ``hands``: the on-board combinations of 14 tiles;
* ``deal``: the stacks, the trump and the deal;
* ``events`` and ``state``: what happened, ``apply``, ``evolve`` and ``replay``;
* ``views``: what one seat may see; ``scoring``: the end of the game; ``bots``.
"""
