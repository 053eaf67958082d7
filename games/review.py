"""The solver at the table: hints where they are allowed, and the post-game review."""

from __future__ import annotations

from typing import Any

from games.engine.events import Passed, TileDrawn, TilesPlayed, TurnTimedOut, event_from_dict
from games.engine.solver import solve_ids
from games.engine.state import GameState, evolve, replay

from .models import Game, Mode, SeatKind, Status


def hints_allowed(game: Game) -> bool:
    """Hints help in Sandbox and in practice against bots only, never against people."""
    if game.mode == Mode.SANDBOX:
        return True
    humans = [s for s in game.seats.all() if s.kind == SeatKind.HUMAN]
    return len(humans) == 1


def best_play(state: GameState, seat: int) -> dict[str, Any]:
    """The solver's best play for ``seat`` now: the whole table after it, and what it lays."""
    rack = state.racks[seat]
    after = solve_ids(state.rules, state.kinds, state.table, rack, state.opened[seat])
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
