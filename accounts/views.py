"""Preferences: what a player wants emailed; a one-click unsubscribe from any email."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.notices import set_turn_emails, turn_emails_on, user_from_token

from .forms import PreferencesForm


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = PreferencesForm(request.POST)
        if not form.is_valid():
            return render(request, "accounts/preferences.html", {"form": form}, status=400)
        set_turn_emails(request.user.pk, form.cleaned_data["email_turn_notices"])
        messages.success(request, "Preferences saved.")
        return redirect("preferences")
    form = PreferencesForm(initial={"email_turn_notices": turn_emails_on(request.user.pk)})
    return render(request, "accounts/preferences.html", {"form": form})


@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    user_id = user_from_token(token)
    if user_id is None:
        return render(request, "accounts/unsubscribe.html", {"bad": True}, status=400)
    if request.method == "POST":
        set_turn_emails(user_id, False)
        return render(request, "accounts/unsubscribe.html", {"done": True})
    return render(request, "accounts/unsubscribe.html", {"token": token})
