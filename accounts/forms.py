"""The preferences form: what a signed-in player wants emailed (kept by games.notices)."""

from __future__ import annotations

from django import forms


class PreferencesForm(forms.Form):
    email_turn_notices = forms.BooleanField(
        required=False,
        label="Email me when a correspondence game waits for my move (at most twice a day), "
        "and when a move clock is 80% gone",
    )
