from __future__ import annotations

import re

from django.conf import settings
from django.contrib import admin
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import include, path, re_path
from django.views.decorators.http import require_safe
from django.views.generic import RedirectView
from django.views.static import serve

from puzzles.views import missed_play_puzzle
from rummi_site import converters  # noqa: F401  (registers <segment:...>)
from rummi_site.health import HealthView

urlpatterns = [
    # The proxy's and monitors' check of a web process (docs/deploy.md, "Health").
    path("health/", HealthView.as_view(), name="health"),
    # A finished game's missed play, opened as a puzzle: the puzzles app's, under the game.
    path("g/<segment:gid>/replay/<int:seq>/puzzle", missed_play_puzzle, name="missed_play_puzzle"),
    # Browsers ask for /favicon.ico whatever the page links: send them to the static icon, by
    # its plain name (served too), which a permanent redirect may keep: a hashed name changes
    # with each release, and is known only once collectstatic has run.
    path(
        "favicon.ico",
        RedirectView.as_view(url=f"{settings.STATIC_URL}favicon.svg", permanent=True),
    ),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("", include("players.urls")),
    path("", include("tournaments.urls")),
    path("", include("matchmaking.urls")),
    path("", include("games.urls")),
]


# Uploaded avatars (PNG files the site wrote itself, players/avatars.py), served by the site
# for `make run`, which has no proxy in front and runs with DEBUG off; behind a proxy the proxy
# serves MEDIA_ROOT before a request reaches the site (docs/deploy.md).
@require_safe
def media(request: HttpRequest, path: str) -> HttpResponse:
    """An uploaded file, or 404 for any name the file system will not open (one longer than it
    allows was a 500); GET and HEAD only."""
    try:
        return serve(request, path, document_root=settings.MEDIA_ROOT)
    except OSError:
        raise Http404("No such file.") from None


urlpatterns += [re_path(rf"^{re.escape(settings.MEDIA_URL.lstrip('/'))}(?P<path>.+)$", media)]

# allauth's rate limits (sign-up, sign-in, password resets) answer with the site's 429 page and
# Retry-After, as the site's own limits do (accounts/limits.py, rummi_site/limits.py).
handler429 = "accounts.limits.too_many_attempts"
# A request Django could not read says what was wrong (too large, a file name too long).
handler400 = "rummi_site.refusals.bad_request"
