"""Template context: whether the signed-in player is in a running tournament, so every page
loads the table toast (static/tournaments/toast.js) for them and nobody else."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from . import services


def playing(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    return {"in_tournament": services.in_running_tournament(user)}
