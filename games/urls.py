from __future__ import annotations

from django.urls import path

from rummi_site import converters  # noqa: F401  (registers <segment:...>)

from . import api, views

urlpatterns = [
    path("", views.home, name="home"),
    path("how-to-play/", views.how_to_play, name="how_to_play"),
    path("how-to-play/r45/<segment:rule>/", views.teaching_replay, name="teaching_replay"),
    path("games/new", views.new_game, name="new_game"),
    path("join/<segment:token>/", views.join, name="join"),
    path("g/<segment:gid>/", views.game_page, name="game"),
    path("g/<segment:gid>/replay/", views.replay_page, name="replay"),
    path("g/<segment:gid>/record.json", views.record, name="record"),
    path("g/<segment:gid>/verify/", views.verify, name="verify"),
    path("api/games/", api.create, name="api_create"),
    path("api/join/<segment:token>", api.join, name="api_join"),
    path("api/games/<segment:gid>/", api.game_detail, name="api_game"),
    path("api/games/<segment:gid>/events", api.game_events, name="api_events"),
    path("api/games/<segment:gid>/hint", api.game_hint, name="api_hint"),
    path("api/games/<segment:gid>/end", api.game_end, name="api_end"),
    path("api/games/<segment:gid>/rematch", api.game_rematch, name="api_rematch"),
    path("api/games/<segment:gid>/away", api.game_away, name="api_away"),
    path("api/games/<segment:gid>/leave", api.game_leave, name="api_leave"),
    path("g/<segment:gid>/rematch", views.rematch, name="rematch"),
    path("g/<segment:gid>/leave", views.leave, name="leave"),
    path("api/games/<segment:gid>/<segment:action>", api.game_action, name="api_action"),
    path("internal/frames", api.relayed_frames, name="relayed_frames"),
]
