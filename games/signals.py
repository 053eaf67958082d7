"""Lifecycle signals of a game, each sent once its transaction has committed (docs/design.md
"Lifecycle signals").

The games services send them; the site's own work (live frames, bot turns, clocks, notices,
the post-game review: games/receivers.py) and other apps (profiles, ratings, tournaments)
subscribe with ``@receiver``. A receiver runs after the commit, so what it reads is stored; it
must not raise (the service's caller has already been answered), so each logs its own failures.
Every signal's sender is :class:`games.models.Game`; the arguments are keywords:

* ``events_committed``: ``gid``, ``seq`` (the game's last seq), ``state`` (engine state),
  ``events`` (``[(seq, event), ...]``), ``extra`` (``deadline``, ``status``): every commit
  that appended events. Live frames are made from it.
* ``game_started``: ``gid``: every seat is taken and the first round was dealt.
* ``turn_started``: ``gid``, ``seat``, ``turn_number``, ``bot`` (the seat is a bot's),
  ``deadline`` (or None), ``live`` (a clock in seconds), ``correspondence`` (days a move).
* ``round_ended``: ``gid``, ``round``, ``reason``, ``winners``, ``scores``.
* ``game_finished``: ``gid``, ``results``: the game's :class:`games.models.GameResult` rows,
  one per seat, written in the transaction of the final event.
* ``rematch_lapsed``: ``gid``, ``rematch_of`` (the finished game's gid): a rematch offer
  was not accepted in time and its waiting game was deleted (services.expire_rematches).
* ``table_closed``: ``gid``, ``reason`` (``cancelled`` or ``unfilled``): a table waiting for
  players was closed by its creator, or by nobody taking its seats in time, and its game was
  deleted (services.leave_table, services.expire_waiting_tables).
* ``seats_changed``: ``gid``, ``waiting``: a player took or gave back a seat
  (services.join_game, services.leave_table), or a bot took over an away player's
  (services.settle_away_seat): the sockets open on the game look up their viewers' seats
  again, and the pages open on a table that still waits (``waiting``) show its seats again.
* ``guest_adopted``: ``guest_key``, ``user``: a guest signed in and their seats are now the
  user's; apps move the guest's other rows on this (puzzles: attempts and rating).
* ``tournament_finished``: ``tournament_id``, ``name``, ``places`` (``[(user_id, rank), ...]``
  for the signed-in entrants): sent by the tournaments app when one ends (players awards the
  tournament trophies on it).
* ``puzzle_solved``: ``user_id``, ``attempt_id``: a signed-in player solved a puzzle (its
  attempt is closed and rated). The puzzles app sends it, with the puzzles ``Attempt`` model as
  sender (players awards the puzzle trophies on it).

This module is the one place for the signals that cross apps
(docs/design.md "Layers and the import rule"): games is the lowest app layer, so every app may
import it, whichever sends.
"""

from __future__ import annotations

from django.dispatch import Signal

events_committed = Signal()
game_started = Signal()
turn_started = Signal()
round_ended = Signal()
game_finished = Signal()
rematch_lapsed = Signal()
table_closed = Signal()
seats_changed = Signal()
guest_adopted = Signal()
tournament_finished = Signal()
puzzle_solved = Signal()
