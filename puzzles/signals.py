"""A guest who signs in keeps their puzzle attempts, rating and streaks.

The games app's one sign-in receiver adopts the guest's seats, then sends ``guest_adopted``
(games/signals.py); this app moves the rest on it, so the order is always seats first.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.signals import guest_adopted

from .services import adopt_guest


@receiver(guest_adopted, dispatch_uid="puzzles.adopt_guest_progress")
def adopt_guest_progress(sender: Any, guest_key: str, user: Any, **kwargs: Any) -> None:
    adopt_guest(guest_key, user)
