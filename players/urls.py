from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("@/<str:username>/", views.profile, name="player_profile"),
    path("@/<str:username>/games/", views.games, name="player_games"),
    path("@/<str:username>/avatar.svg", views.default_avatar, name="player_avatar"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
