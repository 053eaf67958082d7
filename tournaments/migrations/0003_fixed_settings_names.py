"""Tournaments saved with a setting their mode fixes now state what their tables played
(docs/fair-play.md "Tournament settings"): a live Rummy Rush table always ran at 60 s a turn
and a live Blitz table at 30 s, whatever the tournament said, and Rush, LAN and Rummy 45 tables
never read a target score. The values are games.modes.setup_from's when this was written."""

from __future__ import annotations

from typing import Any

from django.db import migrations

FIXED_CLOCKS = {"rush": 60, "blitz": 30}
NO_TARGET = ("rush", "lan", "r45")


def tell_the_truth(apps: Any, schema_editor: Any) -> None:
    tournament = apps.get_model("tournaments", "Tournament")
    for mode, seconds in FIXED_CLOCKS.items():
        live = tournament.objects.filter(mode=mode, correspondence_days__isnull=True)
        live.exclude(clock_seconds=seconds).update(clock_seconds=seconds)
    tournament.objects.filter(mode__in=NO_TARGET, target_score__isnull=False).update(
        target_score=None
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_tournament_mode_r45")]

    operations = [migrations.RunPython(tell_the_truth, migrations.RunPython.noop)]
