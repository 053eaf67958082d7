"""The display names accounts go by, for the name rules of games/names.py (a look-alike of
any of them is refused): registered as a name source when the app is ready."""

from __future__ import annotations

from collections.abc import Iterable

from games.names import name_source

from .models import PlayerProfile


@name_source
def display_names(exclude_user_id: int | None = None) -> Iterable[str]:
    profiles = PlayerProfile.objects.exclude(display_name="")
    if exclude_user_id is not None:
        profiles = profiles.exclude(user_id=exclude_user_id)
    yield from profiles.values_list("display_name", flat=True).iterator()
