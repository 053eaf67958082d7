"""Profiles: what a player shows of themselves. Users are Django's own.

A player's email wishes for their games live with the games (games.models.NoticeSettings).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )

    def __str__(self) -> str:
        return f"profile of {self.user}"

    @classmethod
    def of(cls, user: Any) -> Profile:
        profile, _ = cls.objects.get_or_create(user=user)
        return profile
