from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from games import views as game_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", game_views.home, name="home"),
]
