"""Checking a game record: replay it and check the deal against the seed's commitment."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .errors import InvalidInput
from .events import GameEnded, RoundStarted, event_from_dict
from .shuffle import commitment
from .state import GameState, deal_round, evolve, replay

E = TypeVar("E")


def audit_record(record: object) -> tuple[GameState, dict[str, Any]]:
    """Replay a record (a list of events, or ``{"events": [...], "seed": hex}``).

    Returns the final state and the seed check: whether the revealed seed hashes to the
    commitment published at the start, and whether every round's deal follows from it.
    """
    events, seed_hex = parse_record(record, event_from_dict)
    revealed = [e.seed for e in events if isinstance(e, GameEnded)]
    seed_hex = seed_hex or (revealed[0] if revealed else None)
    state = replay(events[:1])
    deals_match = True
    for event in events[1:]:
        if isinstance(event, RoundStarted) and seed_hex is not None:
            seed = seed_bytes(seed_hex)
            expected = deal_round(state.config, seed, event.round, state.active_seats)
            deals_match = deals_match and expected == event
        state = evolve(state, event)
    if seed_hex is None:
        return state, {"commitment": state.commitment, "seed": None, "checked": False}
    seed = seed_bytes(seed_hex)
    return state, {
        "commitment": state.commitment,
        "seed": seed_hex,
        "checked": True,
        "commitment_matches": commitment(seed) == state.commitment,
        "deals_match": deals_match,
    }


def parse_record(record: object, read: Callable[[object], E]) -> tuple[list[E], str | None]:
    """The events of a record (a list of event dicts, or ``{"events": [...], "seed": hex}``),
    each read by ``read`` (a game family's ``event_from_dict``), and the seed it gives, if any."""
    seed: object = None
    raw: object = record
    if isinstance(record, dict):
        raw, seed = record.get("events"), record.get("seed")
    if not isinstance(raw, list) or not raw:
        raise InvalidInput('a game record is a list of events or {"events": [...], "seed": hex}')
    if seed is not None and not isinstance(seed, str):
        raise InvalidInput("the seed must be a hex string")
    return [read(e) for e in raw], seed


def seed_bytes(seed_hex: str) -> bytes:
    try:
        return bytes.fromhex(seed_hex)
    except ValueError:
        raise InvalidInput("the seed must be a hex string") from None
