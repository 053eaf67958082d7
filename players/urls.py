from __future__ import annotations

from django.urls import path

from rummi_site import converters  # noqa: F401  (registers <segment:...>)

from . import views

urlpatterns = [
    path("@/<segment:username>/", views.profile, name="player_profile"),
    path("@/<segment:username>/games/", views.games, name="player_games"),
    path("@/<segment:username>/avatar.svg", views.default_avatar, name="player_avatar"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("account/", views.account_page, name="account_page"),
    path("account/profile", views.account_profile, name="account_profile"),
    path("account/avatar", views.account_avatar, name="account_avatar"),
    path("account/data.json", views.account_data, name="account_data"),
    path("account/delete", views.account_delete, name="account_delete"),
    path("account/board", views.account_board, name="account_board"),
    path("api/ratings/game/<segment:gid>", views.game_rating_changes, name="api_rating_changes"),
    path("api/me/settings", views.settings_api, name="api_settings"),
]
