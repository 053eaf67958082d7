"""The preferences form: what a signed-in player wants emailed."""

from __future__ import annotations

from django import forms

from .models import Profile


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["email_turn_notices"]
        labels = {
            "email_turn_notices": "Email me when a correspondence game waits for my move (at "
            "most twice a day), and when a move clock is 80% gone"
        }
