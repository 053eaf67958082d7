"""Checking a Rummy 45 record: replay it, and check the deal and every renewed stock against
the seed's commitment (docs/rules-45.md "Secrecy"), as ``games.engine.audit`` does for Rummikub.

>>> from games.engine.r45.state import new_game
>>> state, events = new_game(2, b"k" * 32)
>>> record = {"events": [e.to_dict() for e in events], "seed": (b"k" * 32).hex()}
>>> audit_record(record)[1]["deals_match"]
True
"""

from __future__ import annotations

from typing import Any

from ..audit import parse_record, seed_bytes
from ..shuffle import SeededStream, commitment
from .deal import deal
from .events import Dealt, GameEnded, StockRenewed, event_from_dict
from .state import R45State, evolve, replay


def audit_record(record: object) -> tuple[R45State, dict[str, Any]]:
    """Replay a record (a list of event dicts, or ``{"events": [...], "seed": hex}``): the final
    state and the seed check, ``{"commitment", "seed", "checked", "commitment_matches",
    "deals_match"}`` (the last two only when a seed is known: the record's, or the revealed)."""
    events, seed = parse_record(record, event_from_dict)
    revealed = [e.seed for e in events if isinstance(e, GameEnded)]
    seed_hex = seed or (revealed[0] if revealed else None)
    state = replay(events[:1])
    if seed_hex is None:
        for event in events[1:]:
            state = evolve(state, event)
        return state, {"commitment": state.commitment, "seed": None, "checked": False}
    secret = seed_bytes(seed_hex)
    matches = True
    for event in events[1:]:
        if isinstance(event, Dealt):
            matches = matches and deal(secret, state.players) == event
        elif isinstance(event, StockRenewed):
            stream = SeededStream(secret, f"r45 renew {state.renewals + 1}")
            matches = matches and tuple(stream.shuffled(state.train[1:])) == event.stock
        state = evolve(state, event)
    return state, {
        "commitment": state.commitment,
        "seed": seed_hex,
        "checked": True,
        "commitment_matches": commitment(secret) == state.commitment,
        "deals_match": matches,
    }
