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

from ..errors import InvalidInput
from ..shuffle import SeededStream, commitment
from .deal import deal
from .events import Dealt, Event, GameEnded, StockRenewed, event_from_dict
from .state import R45State, evolve, replay


def audit_record(record: object) -> tuple[R45State, dict[str, Any]]:
    """Replay a record (a list of event dicts, or ``{"events": [...], "seed": hex}``): the final
    state and the seed check, ``{"commitment", "seed", "checked", "commitment_matches",
    "deals_match"}`` (the last two only when a seed is known: the record's, or the revealed)."""
    seed: object = None
    raw: object = record
    if isinstance(record, dict):
        raw, seed = record.get("events"), record.get("seed")
    if not isinstance(raw, list) or not raw:
        raise InvalidInput('a game record is a list of events or {"events": [...], "seed": hex}')
    if seed is not None and not isinstance(seed, str):
        raise InvalidInput("the seed must be a hex string")
    events: list[Event] = [event_from_dict(e) for e in raw]
    revealed = [e.seed for e in events if isinstance(e, GameEnded)]
    seed_hex = seed or (revealed[0] if revealed else None)
    state = replay(events[:1])
    if seed_hex is None:
        for event in events[1:]:
            state = evolve(state, event)
        return state, {"commitment": state.commitment, "seed": None, "checked": False}
    try:
        secret = bytes.fromhex(str(seed_hex))
    except ValueError:
        raise InvalidInput("the seed must be a hex string") from None
    matches = True
    for event in events[1:]:
        if isinstance(event, Dealt):
            dealt = deal(secret, state.players)
            matches = matches and (
                dealt.dealer,
                dealt.redeals,
                dealt.from_right,
                dealt.landing,
                dealt.trump,
                dealt.racks,
                dealt.stock,
            ) == (
                event.dealer,
                event.redeals,
                event.from_right,
                event.landing,
                event.trump,
                event.racks,
                event.stock,
            )
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
