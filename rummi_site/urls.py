from __future__ import annotations

from django.conf import settings
from django.conf.urls.static import static as served_in_debug
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from puzzles.views import missed_play_puzzle

urlpatterns = [
    # A finished game's missed play, opened as a puzzle: the puzzles app's, under the game.
    path("g/<str:gid>/replay/<int:seq>/puzzle", missed_play_puzzle, name="missed_play_puzzle"),
    # Browsers ask for /favicon.ico whatever the page links: send them to the static icon.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("", include("players.urls")),
    path("", include("tournaments.urls")),
    path("", include("matchmaking.urls")),
    path("", include("games.urls")),
]
# Uploaded avatars, served by the site in debug only; production serves MEDIA_ROOT from the
# proxy (docs/deploy.md).
urlpatterns += served_in_debug(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
