from __future__ import annotations

from django.urls import path

from rummi_site import converters  # noqa: F401  (registers <segment:...>)

from . import views

urlpatterns = [
    path("preferences/", views.preferences, name="preferences"),
    path("unsubscribe/<segment:token>/", views.unsubscribe, name="unsubscribe"),
]
