from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("api/seek", api.seek, name="api_seek"),
]
