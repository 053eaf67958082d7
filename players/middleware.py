"""Trophy toasts: a signed-in player's trophies not yet announced become a message on the
next page they open (base.html shows messages), then are marked seen."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse

from .models import TrophyAward
from .trophies import TROPHIES


class TrophyToastMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        wants_page = request.method == "GET" and "text/html" in request.headers.get("Accept", "")
        if user is not None and user.is_authenticated and wants_page:
            fresh = list(TrophyAward.objects.filter(user=user, seen=False).values_list("pk", "key"))
            for _, key in fresh:
                trophy = TROPHIES.get(key)
                if trophy is not None:
                    messages.success(
                        request, f"Trophy earned: {trophy.icon} {trophy.name}", "trophy-toast"
                    )
            if fresh:
                TrophyAward.objects.filter(pk__in=[pk for pk, _ in fresh]).update(seen=True)
        return self.get_response(request)
