from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("preferences/", views.preferences, name="preferences"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
