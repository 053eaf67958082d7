"""The solver at the table: hints where they are allowed, and the post-game review."""

from __future__ import annotations

from typing import Any

from games.engine.errors import SolverBusy
from games.engine.events import Passed, TileDrawn, TilesPlayed, TurnTimedOut, event_from_dict
from games.engine.families import family_named
from games.engine.solver import solve_ids
from games.engine.state import GameState, evolve, replay

from .errors import Unavailable
from .models import Game, Mode, SeatKind, Status

# A solve a web request starts (a hint, the puzzle editor) holds at most this many states at
# once (past it, the best play found so far: legal, usually the best) and waits at most this
# long for a solve already running in the process, so the answer comes within about 2 s.
WEB_SOLVE_BUDGET = 20_000
WEB_SOLVE_WAIT_S = 1.0


def busy() -> Unavailable:
    return Unavailable("solver_busy", "The solver is busy with another position; try again.")


def played_for_an_occasion(game: Game) -> bool:
    """A game its maker plays for something (a tournament's table, Swiss, arena or duplicate):
    its players get no help from the solver while it is played (docs/design.md "Tournaments")."""
    return bool(game.occasion or game.occasion_url or game.sealed)


def hints_allowed(game: Game) -> bool:
    """Hints help in Sandbox and in practice against bots only, never against people, never in
    a rated game (docs/design.md "Ratings") and never at a tournament's table, even against
    bots (docs/design.md "Tournaments")."""
    if game.rated or not family_named(game.family).reviewed:
        return False  # rated, or a family without the solver's hints and reviews
    if played_for_an_occasion(game):
        return False
    if game.mode == Mode.SANDBOX:
        return True
    humans = [s for s in game.seats.all() if s.kind == SeatKind.HUMAN]
    return len(humans) == 1


def best_play(state: GameState, seat: int, for_web: bool = False) -> dict[str, Any]:
    """The solver's best play for ``seat`` now: the whole table after it, and what it lays.

    ``for_web``: bounded as a web request's solve must be (``WEB_SOLVE_*``); a solver busy
    past the wait raises :class:`~games.errors.Unavailable`.
    """
    rack = state.racks[seat]
    limits: dict[str, Any] = {}
    if for_web:
        limits = {"budget": WEB_SOLVE_BUDGET, "wait": WEB_SOLVE_WAIT_S}
    try:
        after = solve_ids(state.rules, state.kinds, state.table, rack, state.opened[seat], **limits)
    except SolverBusy:
        raise busy() from None
    if after is None:
        return {"tiles_played": 0, "value_played": 0, "played": [], "table": None}
    mine = set(rack)
    played = [i for meld in after for i in meld if i in mine]
    return {
        "tiles_played": len(played),
        "value_played": sum(state.kinds[i].rack_value for i in played),
        "played": played,
        "table": [list(meld) for meld in after],
    }


TURN_EVENTS = (TilesPlayed, TileDrawn, Passed, TurnTimedOut)


def review(game: Game) -> list[dict[str, Any]]:
    """For each turn of a finished game: what was played against the best play then."""
    if game.status != Status.FINISHED:
        return []
    names = [s.name for s in game.seats.all()]
    rows = list(game.events.order_by("seq"))
    state = replay([rows[0].payload])
    turns = []
    for row in rows[1:]:
        event = event_from_dict(row.payload)
        if isinstance(event, TURN_EVENTS):
            played = len(event.played) if isinstance(event, TilesPlayed) else 0
            best = best_play(state, event.seat)
            turns.append(
                {
                    "seq": row.seq,
                    "seat": event.seat,
                    "name": names[event.seat],
                    "played": played,
                    "best": best["tiles_played"],
                    "missed": max(0, best["tiles_played"] - played),
                    "best_table": [[str(state.kinds[i]) for i in m] for m in best["table"] or []],
                    "opened": state.opened[event.seat],
                }
            )
        state = evolve(state, event)
    return turns


def position_before(game: Game, seq: int) -> tuple[list[list[str]], list[str], int]:
    """The table and the mover's rack just before event ``seq`` of a finished game, in codes."""
    rows = list(game.events.filter(seq__lt=seq).order_by("seq"))
    event = game.events.get(seq=seq).payload
    state = replay([row.payload for row in rows])
    table = [[str(state.kinds[i]) for i in meld] for meld in state.table]
    rack = [str(state.kinds[i]) for i in state.racks[event["seat"]]]
    return table, rack, event["seat"]
