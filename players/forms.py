"""The account page's forms: the display name and bio, and the avatar upload."""

from __future__ import annotations

import re

from django import forms

from .avatars import MAX_BYTES

NAME_RULES = "3 to 24 letters, digits, spaces, dots, dashes or underscores; unique."
NAME_PATTERN = re.compile(r"^[\w .-]{3,24}$")


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        label="Display name", max_length=24, required=False, help_text=NAME_RULES
    )
    bio = forms.CharField(
        label="About you", max_length=280, required=False, widget=forms.Textarea(attrs={"rows": 3})
    )

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())
        if name and not NAME_PATTERN.match(name):
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
