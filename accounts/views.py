"""Preferences: what a player wants emailed; a one-click unsubscribe from any email."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.notices import user_from_token

from .forms import PreferencesForm
from .models import Profile


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    profile = Profile.of(request.user)
    if request.method == "POST":
        form = PreferencesForm(request.POST, instance=profile)
        if not form.is_valid():
            context = {"profile": profile, "form": form}
            return render(request, "accounts/preferences.html", context, status=400)
        # Only this column: a digest being sent may be writing last_digest meanwhile.
        form.save(commit=False).save(update_fields=["email_turn_notices"])
        messages.success(request, "Preferences saved.")
        return redirect("preferences")
    form = PreferencesForm(instance=profile)
    return render(request, "accounts/preferences.html", {"profile": profile, "form": form})


@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    user_id = user_from_token(token)
    if user_id is None:
        return render(request, "accounts/unsubscribe.html", {"bad": True}, status=400)
    if request.method == "POST":
        Profile.objects.update_or_create(user_id=user_id, defaults={"email_turn_notices": False})
        return render(request, "accounts/unsubscribe.html", {"done": True})
    return render(request, "accounts/unsubscribe.html", {"token": token})
