"""The account page's forms: the display name and bio, and the avatar upload."""

from __future__ import annotations

import re

from django import forms

from games.names import problem

from .avatars import MAX_BYTES

NAME_RULES = (
    "3 to 24 letters, digits, spaces, dots, dashes or underscores; unique, and not like another "
    "player's name, a bot's or a staff word."
)
NAME_PATTERN = re.compile(r"^[\w .-]{3,24}$")


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        label="Display name",
        max_length=24,
        required=False,
        help_text=NAME_RULES,
        strip=False,  # the name rules see every character typed (games/names.py)
    )
    bio = forms.CharField(
        label="About you", max_length=280, required=False, widget=forms.Textarea(attrs={"rows": 3})
    )

    def clean_display_name(self) -> str:
        raw = self.cleaned_data["display_name"]
        if not raw:
            return ""
        # The name rules first (docs/fair-play.md "Names"), so a hidden character is named,
        # never folded away by the split below; players.account.rename checks other accounts.
        found = problem(raw)
        if found is not None:
            raise forms.ValidationError(found, code="bad_name")
        name = " ".join(raw.split())  # plain spaces only, by now: runs of them fold to one
        if not NAME_PATTERN.match(name):
            raise forms.ValidationError(f"A display name is {NAME_RULES}")
        return name


class AvatarForm(forms.Form):
    avatar = forms.FileField(
        label="Avatar (PNG, JPEG, WebP or GIF, at most 2 MB)",
        widget=forms.ClearableFileInput(
            attrs={"accept": "image/png,image/jpeg,image/webp,image/gif"}
        ),
    )

    def clean_avatar(self) -> object:
        upload = self.cleaned_data["avatar"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError("An avatar may be at most 2 MB.")
        return upload


class DeleteForm(forms.Form):
    confirm = forms.CharField(label="Type your username to delete your account", max_length=150)
