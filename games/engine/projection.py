"""What one viewer may see: a seat sees its own rack, everyone else sees counts.

``view_for(state, seat)`` and ``event_for(event, seat)`` are the only ways game data leaves
the engine for a viewer (``seat=None`` is a spectator). While a round runs, a rack and the
pool order reach nobody but the rack's owner; when the round ends its racks are shown.
"""

from __future__ import annotations

from typing import Any

from .events import Event, RoundStarted, TileDrawn, TurnTimedOut
from .state import GameState


def tile_codes(state: GameState, tile_ids: tuple[int, ...]) -> list[str]:
    codes = state.rules.tile_set.codes
    return [codes[i] for i in tile_ids]


def view_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` may see it (``None``: a spectator), JSON-ready."""
    players = state.config.players
    own = seat is not None and 0 <= seat < players
    return {
        "seat": seat if own else None,
        "rules": state.rules.to_dict(),
        "match": state.config.match.to_dict(),
        "players": players,
        "round": state.round,
        "finished": state.finished,
        "table": [list(meld) for meld in state.table],
        "table_codes": [tile_codes(state, meld) for meld in state.table],
        "rack": list(state.racks[seat]) if own and seat is not None else [],
        "rack_codes": tile_codes(state, state.racks[seat]) if own and seat is not None else [],
        "rack_counts": [len(rack) for rack in state.racks],
        "pool": len(state.pool),
        "turn": state.turn,
        "turn_number": state.turn_number,
        "initial_meld_done": list(state.opened),
        "resigned": list(state.resigned),
        "passes": state.passes,
        "totals": list(state.totals),
        "round_scores": [list(s) for s in state.round_scores],
        "winners": list(state.winners),
        "commitment": state.commitment,
        "seed": state.seed,
    }


def event_for(event: Event, seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it: others' tiles and the pool order are left out."""
    data = event.to_dict()
    if isinstance(event, RoundStarted):
        data["racks"] = [list(rack) if s == seat else [] for s, rack in enumerate(event.racks)]
        data["rack_counts"] = [len(rack) for rack in event.racks]
        data["pool"] = len(event.pool)
    elif isinstance(event, TileDrawn) and event.seat != seat:
        data["tile"] = None
    elif isinstance(event, TurnTimedOut) and event.seat != seat:
        data["drawn"] = [None] * len(event.drawn)
    return data


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The whole state, racks and pool order included: for records and audits, not viewers."""
    view = view_for(state, None)
    view.pop("rack")
    view.pop("rack_codes")
    view["racks"] = [list(rack) for rack in state.racks]
    view["rack_codes"] = [tile_codes(state, rack) for rack in state.racks]
    view["pool_order"] = list(state.pool)
    return view
