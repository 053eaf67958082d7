"""The exact best play: most rack tiles onto the table, then most points (docs/rules.md 3-5).

``solve`` works on tile kinds, ``solve_ids`` on physical tile ids (its answer passes
:func:`~games.engine.turn.check_turn`). Both are exact: the answer is provably the best play.

The algorithm is a dynamic programme over the *cells* ``(number, colour)``, numbers ascending
and colours in a fixed order (after van Rijn, Takes and Vis, "The complexity of Rummikub
problems", 2015). Its state is what the cells so far leave open for the ones to come:

* per colour, the runs that reach the current number: each its length capped at three, whether
  it holds a real tile yet, and whether it ends in a joker that still needs a tile after it;
* how many free jokers are on the table, and the tiles of the current number set aside for groups
  (groups are formed when the number's last colour is done);
* for the joker rule (docs/rules.md rule 5), which table jokers were placed as a tile they stood for
  ("held") and which were replaced ("freed"); on runs, whether a run holds a real tile of a kind
  a joker stood for and a real tile of one of its old meld-mates' kinds (such a run frees it);
* after the initial meld, how many more jokers the melds so far could take ("room": a run from
  ``a`` to ``b`` takes ``numbers - (b - a + 1)``, a group of three takes one);
* before it, the value of the new melds so far (capped at the threshold).

Table tiles must be placed, rack tiles may be; each placed rack tile scores ``BIG + number``
(a joker ``BIG + 30``), so the best score is the most tiles and then the most points (or, to
take the most points off the rack first, ``1 + 128 * number``).

Jokers are placed in one canonical way, so that every table has exactly one description and
the programme branches on jokers only where they matter. A free joker never starts a run: a run
is anchored on its first real or held tile. After the initial meld the programme places only the
jokers a meld *needs* (gaps inside runs, and enough to bring a short run or group to three);
every other free joker is a surplus joker, added at the end wherever there is room, which
changes neither the tiles played nor the validity of any meld. Before the initial meld jokers
also add value, so there they may lead or trail runs and fill groups freely.

Dominance prunes safely. A complete run never ends bare where a new run of its colour starts
(continuing it is as good), and never ends bare while a real tile of its next cell is left
unused (continuing it with that tile scores more and leaves a state at least as open). Between
states, after every cell in the colour just done (``dominance._undominated``) and after every
number in all colours at once (``dominance._undominated_across``), a state is dropped when
another covers its runs, scores as much without counting jokers, and has at least its room with
as many free jokers, or room for every free joker with no more of them (having freed a table
joker the other held counts for it). A table joker that can no longer be held or freed once its
numbers are done ends every state that left it unsettled (``problem._expired``).

Passes (``search._best_melds``) are branch and bound, cheapest first: beams (only the best states
kept) that look for a play reaching the upper bound, then exact passes whose floor drops every
state that cannot reach it, one tile (one point) below the bound at a time; after a few, a beam
guesses and one exact pass looks above the guess. The first exact pass that finds a play has
found the best. What a cell works out for one pass (compiled moves, the states a move leads to)
it keeps for the next (``cells._CellMemo``).

One approximation: a table joker can also be freed by a real tile landing beside *another joker*
of its old meld (two jokers in one meld at the start of the turn). The programme does not track
joker identities, so it never uses that way of freeing a joker; its answers stay legal, and they
are optimal whenever no meld at the start of the turn holds two jokers. (Tracking it would need
each free joker's identity in the state, multiplying the states of exactly the slowest
positions; it is left until a real game shows the missing tile.)

The modules, each readable alone, in the order a solve uses them:

* ``entry``: ``solve`` and ``solve_ids``, and the tries that leave idle melds alone;
* ``problem``: setting a problem up (cells, tiles, table jokers) and its bounds;
* ``packing``: run codes and packed states, runs and groups interned;
* ``options``: what a cell may do with its tiles, and how a number's tiles form groups;
* ``cells``: the cell and group steps (the hot loop), compiled moves and the memos;
* ``jokers``: joker bookkeeping: holding and freeing table jokers, jokers still needed;
* ``dominance``: dropping states another state beats;
* ``search``: the passes of branch and bound, the beam, and how a final state ends;
* ``rebuild``: from the best final state back to melds, and then to tile ids.

The package is compiled as a whole by mypyc (``make native``; see games/engine/native.py).
"""

from .entry import POINTS_FIRST_WEIGHT, Prefer, Solution, solve, solve_ids
from .problem import BIG

__all__ = ["BIG", "POINTS_FIRST_WEIGHT", "Prefer", "Solution", "solve", "solve_ids"]
