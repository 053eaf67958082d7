"""Replay steps: the game after each event, as a given audience may see it."""

from __future__ import annotations

from typing import Any

from games.engine.events import event_from_dict
from games.engine.state import evolve, replay

from .models import Game, Status


def describe(event: dict[str, Any], names: list[str]) -> str:
    kind = event["kind"]
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "GameStarted":
        return f"Game started; the deal is committed as {event['commitment'][:12]}…"
    if kind == "RoundStarted":
        return f"Round {event['round']}: {names[event['first']]} starts"
    if kind == "TilesPlayed":
        return f"{who} played {len(event['played'])} tile(s)"
    if kind == "TileDrawn":
        return f"{who} drew a tile"
    if kind == "Passed":
        return f"{who} passed"
    if kind == "TurnTimedOut":
        return f"{who} ran out of time and drew {len(event['drawn'])}"
    if kind == "PlayerResigned":
        return f"{who} resigned"
    if kind == "RoundEnded":
        winners = ", ".join(names[w] for w in event["winners"])
        return f"Round {event['round']} over ({event['reason'].replace('_', ' ')}): {winners} won"
    if kind == "GameEnded":
        return "Game over: " + ", ".join(names[w] for w in event["winners"]) + " won"
    return kind


def replay_steps(game: Game) -> list[dict[str, Any]]:
    """One step per event. Racks are shown only for a finished game; before that, counts."""
    names = [s.name or f"Seat {s.index + 1}" for s in game.seats.all()]
    rows = list(game.events.order_by("seq"))
    show_racks = game.status == Status.FINISHED
    state = replay([rows[0].payload])
    kinds = state.kinds
    steps = []
    for row in rows[1:]:
        state = evolve(state, event_from_dict(row.payload))
        steps.append(
            {
                "seq": row.seq,
                "text": describe(row.payload, names),
                "table": [[str(kinds[i]) for i in meld] for meld in state.table],
                "racks": [
                    {
                        "name": names[s],
                        "count": len(rack),
                        "tiles": [str(kinds[i]) for i in rack] if show_racks else [],
                    }
                    for s, rack in enumerate(state.racks)
                ],
                "pool": len(state.pool),
                "totals": list(state.totals),
            }
        )
    return steps
