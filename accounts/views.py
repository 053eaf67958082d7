"""Sign-up (allauth's, its account taken under the name lock); preferences: what a player
wants emailed; a one-click unsubscribe from any email."""

from __future__ import annotations

from typing import Any

from allauth.account.views import SignupView as AllauthSignupView
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.errors import DomainError
from games.names import check_name, hold_names
from games.notices import set_turn_emails, turn_emails_on, user_from_token

from .forms import PreferencesForm


class SignupView(AllauthSignupView):  # type: ignore[misc]
    """allauth's sign-up, the account made while holding the name lock (``names.hold_names``)
    and its username checked again under it (docs/fair-play.md "Names"): the form's own check
    ran before, and two sign-ups of one name, or of look-alikes, sent at once both passed it
    (found on 2026-12-08: five of six such requests answered 500, and ``oscar``, ``OSCAR`` and
    ``Oscar`` were all made). The one that comes second gets the form back, with the reason."""

    def form_valid(self, form: Any) -> HttpResponse:
        username = str(form.cleaned_data.get("username") or "")
        try:
            with transaction.atomic():
                hold_names()
                check_name(username)
                response: HttpResponse = super().form_valid(form)
                return response
        except DomainError as error:
            form.add_error("username", error.message)
            response = self.form_invalid(form)
            return response


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
