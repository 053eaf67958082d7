from __future__ import annotations

from django.urls import path

from rummi_site import converters  # noqa: F401  (registers <segment:...>)

from . import api, views

app_name = "puzzles"

urlpatterns = [
    path("", views.trainer, name="trainer"),
    path("next/", views.next_puzzle, name="next"),
    path("daily/", views.daily, name="daily"),
    path("daily/archive/", views.daily_archive, name="archive"),
    path("editor/", views.editor, name="editor"),
    path("s/<segment:token>/", views.shared_page, name="shared"),
    path("api/trainer", api.trainer, name="api_trainer"),
    path("api/daily", api.daily, name="api_daily"),
    path("api/editor", api.editor, name="api_editor"),
    path("api/<slug:slug>/attempt", api.attempt, name="api_attempt"),
    path("api/<slug:slug>/submit", api.submit, name="api_submit"),
    path("api/<slug:slug>/hint", api.hint, name="api_hint"),
    path("api/<slug:slug>/give-up", api.give_up, name="api_give_up"),
    path("<slug:slug>/", views.puzzle_page, name="puzzle"),
]
