"""What one viewer of a Rummy 45 game may see (docs/rules-45.md "Secrecy").

``view_for(state, seat)`` and ``event_for(event, seat)`` are the only ways game data leaves the
engine for a viewer (``seat=None`` is a spectator). Hidden while the game runs: the other
players' boards, the stock's order, the tiles offered and exchanged as doubles (but to the two
players concerned) and so who holds the trump's twin until it is shown. Public: the face-up
trump, the train, the displays, the take-back piles and every board's size. When the game ends,
every board is shown.
"""

from __future__ import annotations

from typing import Any

from .events import (
    Dealt,
    DoublesExchanged,
    Event,
    ExchangeOffered,
    StockRenewed,
    TileDrawn,
)
from .state import RENEWAL_LIMIT, TILES, R45State, to_act

CODES = tuple(str(t) for t in TILES)


def codes(tile_ids: tuple[int, ...] | list[int]) -> list[str]:
    return [CODES[i] for i in tile_ids]


def view_for(state: R45State, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` may see it (``None``: a spectator), JSON-ready."""
    own = seat is not None and 0 <= seat < state.players and bool(state.racks)
    over = state.finished
    offer = state.offer
    return {
        "game": "r45",
        "seat": seat if own else None,
        "players": state.players,
        "phase": state.phase,
        "dealer": state.dealer,
        "trump": state.trump if state.trump >= 0 else None,
        "trump_code": CODES[state.trump] if state.trump >= 0 else None,
        "trump_up": state.trump_up,
        "trump_shown": state.trump_shown if state.trump_shown >= 0 else None,
        "stock": len(state.stock),
        "train": list(state.train),
        "train_codes": codes(state.train),
        "melds": [{**meld.to_dict(), "codes": codes(meld.tiles)} for meld in state.melds],
        "takebacks": [list(pile) for pile in state.takebacks],
        "takeback_codes": [codes(pile) for pile in state.takebacks],
        "rack": list(state.racks[seat]) if own and seat is not None else [],
        "rack_codes": codes(state.racks[seat]) if own and seat is not None else [],
        "racks": [list(rack) for rack in state.racks] if over else None,
        "rack_counts": [len(rack) for rack in state.racks],
        "opened": [turn >= 0 for turn in state.opened],
        "opened_turn": list(state.opened),
        "on_board": list(state.on_board),
        "doubles": [list(sizes) for sizes in state.doubles],
        "ready": list(state.ready),
        "offer": None
        if offer is None
        else {
            "seat": offer[0],
            "to": offer[1],
            "size": _size(offer[2]),
            "give": offer[2] if seat == offer[0] else None,
        },
        "offers": list(state.offers or (0,) * state.players),
        "to_act": list(to_act(state)),
        "turn": state.turn,
        "turn_number": state.turn_number,
        "first_round": state.phase == "play" and state.first_round,
        "taken": state.taken,
        "few": list(state.few),
        "resigned": [state.out(s) for s in range(state.players)],
        "renewals": state.renewals,
        "renewal_limit": RENEWAL_LIMIT,
        "reason": state.reason,
        "winner": state.winner if state.winner >= 0 else None,
        "scores": list(state.scores),
        "commitment": state.commitment,
        "seed": state.seed,
    }


def _size(tile: int) -> str:
    number = TILES[tile].number
    return "small" if number <= 5 else "medium" if number <= 9 else "big"


def event_for(event: Event, seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it: others' tiles and the stock's order are left out."""
    data = event.to_dict()
    if isinstance(event, Dealt):
        data["racks"] = [list(rack) if s == seat else [] for s, rack in enumerate(event.racks)]
        data["rack_counts"] = [len(rack) for rack in event.racks]
        data["stock"] = len(event.stock)
    elif isinstance(event, StockRenewed):
        data["stock"] = len(event.stock)
    elif isinstance(event, TileDrawn) and event.seat != seat:
        data["tile"] = None
    elif isinstance(event, ExchangeOffered) and event.seat != seat:
        data["give"] = None
    elif isinstance(event, DoublesExchanged) and seat not in (event.seat, event.offerer):
        data["given"] = data["taken"] = None
        data["size_given"], data["size_taken"] = _size(event.given), _size(event.taken)
    return data
