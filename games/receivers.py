"""What the site does when a game changes: subscribers to games/signals.py, connected in
``GamesConfig.ready`` (docs/design.md "Lifecycle signals").

* every commit: each viewer's frame goes out (games/live.py);
* a turn starts: a bot's move is queued, a live clock that runs out before the next sweep is
  queued, a correspondence turn queues a "your turn" notice;
* a game finishes: its post-game review is queued;
* a rematch offer lapses: the pages open on its waiting game are told;
* a guest signs in: their seats become the user's, then ``guest_adopted`` lets other apps
  move the rest (puzzles: attempts and rating), in that order.

A receiver runs after the commit: a failure is logged, never raised into the mover's answer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import timezone

from rummi_site import push

from . import live, notices, services, signals, tasks
from .identity import GUEST_KEY
from .models import Game
from .names import shown_name

log = logging.getLogger(__name__)


def _logged(func: Callable[..., None]) -> Callable[..., None]:
    @wraps(func)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            func(*args, **kwargs)
        except Exception:
            log.exception("%s failed for game %s", func.__name__, kwargs.get("gid"))

    return run


@receiver(signals.events_committed, sender=Game, dispatch_uid="games.frames")
@_logged
def send_frames(
    sender: Any,
    gid: str,
    seq: int,
    state: Any,
    events: Any,
    extra: Any,
    family: str = "rummikub",
    **kwargs: Any,
) -> None:
    live.broadcast(gid, seq, state, events, extra, family)


@receiver(signals.turn_started, sender=Game, dispatch_uid="games.turn_work")
@_logged
def queue_turn_work(
    sender: Any,
    gid: str,
    seat: int,
    turn_number: int,
    bot: bool,
    deadline: datetime | None,
    live: bool,
    correspondence: bool,
    **kwargs: Any,
) -> None:
    if bot:
        tasks.bot_turn.apply_async((gid, turn_number), countdown=settings.RUMMI_BOT_PAUSE)
    elif live and deadline is not None:
        # A clock that runs out before the next sweeps could queue it is queued now; every
        # other is the sweeper's (a move itself queues nothing: see tasks.sweep_timeouts).
        if deadline - timezone.now() <= tasks.CLOCK_LOOKAHEAD:
            tasks.schedule_timeout(gid, turn_number, deadline)
    elif correspondence:
        called = notices.queue_turn_notice(gid, seat, turn_number)
        if called is not None:
            push.notify(*called)  # the player's open pages (rummi_site/me.py)


@receiver(signals.game_finished, sender=Game, dispatch_uid="games.review")
@_logged
def queue_review(sender: Any, gid: str, **kwargs: Any) -> None:
    tasks.queue_review(gid)


@receiver(signals.rematch_lapsed, sender=Game, dispatch_uid="games.rematch_lapsed")
@_logged
def tell_rematch_lapsed(sender: Any, gid: str, rematch_of: str, **kwargs: Any) -> None:
    live.rematch_lapsed(gid, rematch_of)


@receiver(signals.table_closed, sender=Game, dispatch_uid="games.table_closed")
@_logged
def tell_table_closed(sender: Any, gid: str, reason: str, **kwargs: Any) -> None:
    live.table_closed(gid, reason)


@receiver(signals.seats_changed, sender=Game, dispatch_uid="games.seats_changed")
@_logged
def tell_seats_changed(sender: Any, gid: str, waiting: bool, **kwargs: Any) -> None:
    live.seats_changed(gid, waiting)


@receiver(user_logged_in, dispatch_uid="games.adopt_guest")
def adopt_guest(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """The one sign-in receiver: the guest's seats first, then everything else."""
    session = getattr(request, "session", None)
    key = session.get(GUEST_KEY) if session is not None else None
    if not key:
        return
    had = services.live_tables_of(user.pk)
    services.adopt_guest_seats(key, user.pk, shown_name(user))
    # One live table at a time: a guest's waiting table beside the account's live game is left.
    for game in services.keep_one_live_table(user.pk, shown_name(user), had):
        said = (
            f"As a guest you were waiting at a live table ({game.get_mode_display()}, "
            f"{game.clock_seconds} s a turn), and {shown_name(user)} is at another live table "
            "already: you left the guest's. One live game at a time."
        )
        messages.info(request, said, fail_silently=True)
    signals.guest_adopted.send(Game, guest_key=key, user=user)
    session.pop(GUEST_KEY, None)
