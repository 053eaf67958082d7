"""The columns beat's sweeps read instead of each running game's state (issue #27): the seats
that may act (bit n: seat n), the seat a stand-in may play a turn for, and when the last event
was written. The event writer keeps them from the family's ``Turn`` (games/services/record.py).

Running games get them here from their cached state, through their family's engine: unlike the
key lists of migration 0016, this reads code that may change, and may, because it is what the
site itself does with the same cached state at every move (a state record of any earlier
version is read by today's engine: tests/engine/test_it_replays_records_of_every_version.py).
Other games keep the defaults: no seat acts, no stand-in. Backwards, the columns go.
"""

from typing import Any

from django.db import migrations, models

BATCH = 500


def fill(apps: Any, schema_editor: Any) -> None:
    from games.engine.families import family_named

    Game = apps.get_model("games", "Game")
    GameEvent = apps.get_model("games", "GameEvent")
    running = Game.objects.filter(status="playing").exclude(state=None).order_by("pk")
    last = 0
    while True:
        games = list(running.filter(pk__gt=last)[:BATCH])
        if not games:
            return
        for game in games:
            turn = family_named(game.family).turn(
                family_named(game.family).state_from_record(game.state)
            )
            game.acting = sum(1 << seat for seat in set(turn.to_act))
            game.stand_in_seat = turn.stand_in_seat
            event = GameEvent.objects.filter(game_id=game.pk, seq=game.seq).first()
            game.moved = event.created if event is not None else game.started
        Game.objects.bulk_update(games, ["acting", "stand_in_seat", "moved"])
        last = games[-1].pk


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_result_details"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="acting",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="bit n set: seat n may act"
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="moved",
            field=models.DateTimeField(
                blank=True, help_text="when the last event was written", null=True
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="stand_in_seat",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
