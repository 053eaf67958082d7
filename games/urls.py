from __future__ import annotations

from django.urls import path

from . import api, views

urlpatterns = [
    path("", views.home, name="home"),
    path("how-to-play/", views.how_to_play, name="how_to_play"),
    path("games/new", views.new_game, name="new_game"),
    path("join/<str:token>/", views.join, name="join"),
    path("g/<str:gid>/", views.game_page, name="game"),
    path("g/<str:gid>/replay/", views.replay_page, name="replay"),
    path("g/<str:gid>/record.json", views.record, name="record"),
    path("g/<str:gid>/verify/", views.verify, name="verify"),
    path("api/games/", api.create, name="api_create"),
    path("api/join/<str:token>", api.join, name="api_join"),
    path("api/games/<str:gid>/", api.game_detail, name="api_game"),
    path("api/games/<str:gid>/events", api.game_events, name="api_events"),
    path("api/games/<str:gid>/hint", api.game_hint, name="api_hint"),
    path("api/games/<str:gid>/end", api.game_end, name="api_end"),
    path("api/games/<str:gid>/rematch", api.game_rematch, name="api_rematch"),
    path("api/games/<str:gid>/away", api.game_away, name="api_away"),
    path("g/<str:gid>/rematch", views.rematch, name="rematch"),
    path("api/games/<str:gid>/<str:action>", api.game_action, name="api_action"),
    path("internal/frames", api.relayed_frames, name="relayed_frames"),
]
