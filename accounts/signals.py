"""A guest who signs up or signs in keeps the games they played as a guest."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

GUEST_KEY = "guest_key"


@receiver(user_logged_in)
def adopt_guest_seats(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is None or not hasattr(request, "session"):
        return
    key = request.session.get(GUEST_KEY)
    if not key:
        return
    from games.models import Seat

    for seat in Seat.objects.filter(guest_key=key, user__isnull=True).select_related("game"):
        if seat.game.seats.filter(user=user).exists():
            continue  # already seated in that game under the account: keep both apart
        seat.user = user
        seat.name = user.get_username()
        seat.save(update_fields=["user", "name"])
    request.session.pop(GUEST_KEY, None)
