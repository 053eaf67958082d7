"""``Seat.resigned``: when the seat's player resigned, so that a player who resigned a game the
others play on is no longer playing it (docs/fair-play.md "One live game at a time"). The event
writer keeps it from the log (games/services/record.py); running games get it here from their
logged resignations (an event of kind ``PlayerResigned``, whichever family wrote it, names its
seat). Backwards, the column goes.
"""

from typing import Any

from django.db import migrations, models


def fill(apps: Any, schema_editor: Any) -> None:
    GameEvent = apps.get_model("games", "GameEvent")
    Seat = apps.get_model("games", "Seat")
    resignations = GameEvent.objects.filter(game__status="playing", kind="PlayerResigned")
    for game_id, payload, created in resignations.values_list("game_id", "payload", "created"):
        seat = payload.get("seat") if isinstance(payload, dict) else None
        if isinstance(seat, int):
            Seat.objects.filter(game_id=game_id, index=seat).update(resigned=created)


class Migration(migrations.Migration):
    dependencies = [("games", "0017_sweep_columns")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="resigned",
            field=models.DateTimeField(
                blank=True,
                help_text="when the seat's player resigned (the log's resignation, kept by the "
                "event writer): they no longer play it, though the others may play on",
                null=True,
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
