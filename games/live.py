"""Live updates: after a change commits, each viewer's frame goes to the game's group.

The sender projects once per seat (and once for spectators); each consumer forwards only the
frame for its own viewer, so consumers touch neither the database nor the engine, and a rack
never reaches a socket that is not its owner's.
"""

from __future__ import annotations

import json
from typing import Any

from channels.layers import get_channel_layer

from games.engine.families import family_named
from games.engine.family import GameFamily
from rummi_site import push

from .models import Game
from .services import without_seed

SPECTATOR = "spectator"


def group_name(gid: str) -> str:
    return f"game.{gid}"


def frame_for(
    family: GameFamily,
    state: Any,
    seq: int,
    numbered: list[tuple[int, Any]],
    seat: int | None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One viewer's frame: the new events and view as that seat may see them (its family's
    ``event_for`` and ``view_for``, the only ways game data leaves an engine for a viewer).

    ``extra`` carries game-level facts the engine does not know (the turn's deadline, the
    game's status).
    """
    return {
        "type": "update",
        "seq": seq,
        "events": [{"seq": n, "event": family.event_for(e, seat)} for n, e in numbered],
        "view": family.view_for(state, seat),
        **(extra or {}),
    }


def frames_by_viewer(
    family: GameFamily,
    state: Any,
    seq: int,
    numbered: list[tuple[int, Any]],
    extra: dict[str, Any] | None = None,
) -> dict[str, dict[str, Any]]:
    """Each viewer's frame: one per seat, one for spectators."""
    seats: list[int | None] = [*range(family.players_of(state)), None]
    return {
        SPECTATOR if s is None else str(s): frame_for(family, state, seq, numbered, s, extra)
        for s in seats
    }


def broadcast(
    gid: str,
    seq: int,
    state: Any,
    numbered: list[tuple[int, Any]],
    extra: dict[str, Any] | None = None,
    family: str = "rummikub",
) -> None:
    """Send each viewer's frame of a commit to the game's group, through the one push path."""
    if get_channel_layer() is None:
        return
    if push.in_worker_memory() and not push.relay_on():
        return  # nothing would reach a socket: spare the projections
    games_family = family_named(family)
    # Each viewer's frame is encoded once here, not once per socket in every consumer.
    frames = frames_by_viewer(games_family, state, seq, numbered, extra)
    # Only a game's last frame shows its seed: a sealed game's is left out (one query, at
    # the end of a game only).
    over = games_family.turn(state).finished
    if over and Game.objects.filter(public_id=gid, sealed=True).exists():
        frames = {viewer: _sealed_frame(frame) for viewer, frame in frames.items()}
    texts = {viewer: json.dumps(frame, separators=(",", ":")) for viewer, frame in frames.items()}
    push.send(group_name(gid), {"type": "game.update", "frames": texts})


# Seat keys a frame for every viewer covers (the most seats of any family, and more).
ALL_SEATS = 8


def rematch_lapsed(gid: str, rematch_of: str) -> None:
    """Tell every page open on the waiting rematch ``gid`` that the offer lapsed (its game is
    gone), with the finished game's address to go back to."""
    back = Game(public_id=rematch_of).get_absolute_url()
    _tell_every_page(gid, {"type": "lapsed", "gid": gid, "back": back})


def table_closed(gid: str, reason: str) -> None:
    """Tell every page open on the waiting table ``gid`` that it closed (its game is gone):
    ``cancelled`` by its creator, or ``unfilled`` in time."""
    _tell_every_page(gid, {"type": "closed", "gid": gid, "reason": reason})


def seats_changed(gid: str, waiting: bool) -> None:
    """A seat of game ``gid`` changed hands: every socket open on it looks up its viewer's seat
    again before its next frame (``rekey``), so a seat's frames, its rack in them, reach only
    whoever sits there now (a player who left or was replaced by a bot watches as anyone
    else). The pages open on a table still ``waiting`` are told, to show who sits where."""
    note = {"type": "seats", "gid": gid} if waiting else None
    _tell_every_page(gid, note, rekey=True)


def _tell_every_page(gid: str, frame: dict[str, Any] | None, rekey: bool = False) -> None:
    """Send ``frame`` to every page open on the game ``gid``, each seat's and a spectator's
    (none: nothing is sent to the pages); with ``rekey`` each socket first looks up its
    viewer's seat again (games/consumers.py)."""
    if get_channel_layer() is None:
        return
    frames: dict[str, str] = {}
    if frame is not None:
        text = json.dumps(frame, separators=(",", ":"))
        frames = {SPECTATOR: text, **{str(seat): text for seat in range(ALL_SEATS)}}
    message: dict[str, Any] = {"type": "game.update", "frames": frames}
    if rekey:
        message["rekey"] = True
    push.send(group_name(gid), message)


def _sealed_frame(frame: dict[str, Any]) -> dict[str, Any]:
    events = [{**e, "event": without_seed(e["event"])} for e in frame["events"]]
    return {**frame, "view": without_seed(frame["view"]), "events": events}


# The push path's pieces the game socket and the worker use (rummi_site/push.py).
frames_held = push.frames_held
start_sender_loop = push.start_sender_loop
