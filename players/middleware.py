"""Trophy toasts: a signed-in player's trophies not yet announced become a message on the
next page they open (base.html shows messages), then are marked seen.

Only a page (a GET asking for HTML) looks: an API call or a socket's request does not read the
session here, outside its view, where a dead database connection would be a 500 the view's own
retry cannot reach (rummi_site/retry.py); the page's look is itself tried once more."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse

from rummi_site.retry import once_more_if_the_connection_died

from .models import TrophyAward
from .trophies import TROPHIES


class TrophyToastMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        wants_page = request.method == "GET" and "text/html" in request.headers.get("Accept", "")
        if wants_page:
            for key in once_more_if_the_connection_died(lambda: self.fresh(request)):
                trophy = TROPHIES.get(key)
                if trophy is not None:
                    messages.success(
                        request, f"Trophy earned: {trophy.icon} {trophy.name}", "trophy-toast"
                    )
        return self.get_response(request)

    @staticmethod
    def fresh(request: HttpRequest) -> list[str]:
        """The keys of the signed-in player's trophies not yet announced, now marked seen."""
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return []
        fresh = list(TrophyAward.objects.filter(user=user, seen=False).values_list("pk", "key"))
        if fresh:
            TrophyAward.objects.filter(pk__in=[pk for pk, _ in fresh]).update(seen=True)
        return [key for _, key in fresh]
