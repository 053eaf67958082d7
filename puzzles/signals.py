"""A guest who signs up or signs in keeps their puzzle attempts, rating and streaks."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from games.identity import GUEST_KEY

from .services import PUZZLE_GUEST_KEY, adopt_guest


@receiver(user_logged_in, dispatch_uid="puzzles.adopt_guest_progress")
def adopt_guest_progress(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    if request is None or not hasattr(request, "session"):
        return
    # accounts' receiver pops the shared guest key, maybe before this runs: ours is a copy.
    keys = {request.session.get(GUEST_KEY), request.session.pop(PUZZLE_GUEST_KEY, None)}
    for key in sorted(k for k in keys if k):
        adopt_guest(key, user)
