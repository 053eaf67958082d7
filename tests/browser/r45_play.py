"""Playing a Rummy 45 seat from a test: waiting on the board's state, and the engine's bot
choosing the seat's moves, sent through the page's own client (the POST its buttons send)."""

from __future__ import annotations

import random
from typing import Any

from games.engine.r45 import bots


def until(page: Any, condition: str, timeout: float = 30_000) -> None:
    """Wait for ``condition`` (JavaScript) to hold; on a timeout, say what the page shows."""
    try:
        page.wait_for_function(condition, timeout=timeout)
    except Exception as error:
        shown = page.evaluate(
            """() => ({seq: r45.client.seq, busy: r45.busy, phase: r45.view?.phase,
                to_act: r45.view?.to_act, turn: r45.view?.turn_number, taken: r45.view?.taken,
                error: document.getElementById('r45-error').textContent,
                status: document.getElementById('r45-status').textContent})"""
        )
        raise AssertionError(f"waited for {condition}; the page shows {shown}") from error


def my_turn(page: Any, seat: int = 0) -> Any:
    """The view once ``seat`` is to act or the game is over. The bot thinks (its turn runs in
    the site's one thread for sync views, beside the other tests' work): room for a loaded
    machine."""
    until(
        page,
        f"r45.view && (r45.view.phase === 'over' || r45.view.to_act.includes({seat}))",
        60_000,
    )
    return page.evaluate("r45.view")


def move_of(action: Any) -> dict[str, Any]:
    """The API's move for an engine action (docs/api.md "Rummy 45")."""
    fields = {n: getattr(action, n) for n in action.__dataclass_fields__ if n != "seat"}
    plain = {
        n: [list(v) if isinstance(v, tuple) else v for v in x] if isinstance(x, tuple) else x
        for n, x in fields.items()
    }
    return {"action": type(action).__name__, **plain}


def play_out(page: Any, seat: int = 0, steps: int = 2000) -> Any:
    """Play ``seat`` with the hard bot's choices until the game is over; the final view."""
    for step in range(steps):
        view = my_turn(page, seat)
        if view["phase"] == "over":
            return view
        action = bots.choose_action(view, random.Random(step), "hard")
        answer = page.evaluate("(move) => r45.client.post('r45', {move})", move_of(action))
        assert answer["ok"], answer
    raise AssertionError("the game did not end")
