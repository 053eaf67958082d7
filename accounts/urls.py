from __future__ import annotations

from django.urls import path

from rummi_site import converters  # noqa: F401  (registers <segment:...>)

from . import views

urlpatterns = [
    # Before allauth's own, at its address and name: its sign-up under the name lock.
    path("signup/", views.SignupView.as_view(), name="account_signup"),
    path("preferences/", views.preferences, name="preferences"),
    path("unsubscribe/<segment:token>/", views.unsubscribe, name="unsubscribe"),
]
