"""Profiles: a player's preferences. Users are Django's own."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    email_turn_notices = models.BooleanField(
        default=True, help_text="email a digest of correspondence games waiting for my move"
    )
    last_digest = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"profile of {self.user}"

    @classmethod
    def of(cls, user: Any) -> Profile:
        profile, _ = cls.objects.get_or_create(user=user)
        return profile
