# Fair play (docs/fair-play.md "Stand-ins, absence and aborts"): when a seat was first seen,
# and each result's absence, stand-in turns and abort. Games finished before keep False and 0
# until ``manage.py recomputeratings`` rewrites them from their logs.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_game_family"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="first_seen",
            field=models.DateTimeField(
                blank=True,
                help_text="the seat's socket first heard from (stand-in games): a seat not seen in the game's first minute is absent (docs/fair-play.md)",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="gameresult",
            name="absent",
            field=models.BooleanField(
                default=False,
                help_text="a person never seen in the game's first minute: scored last",
            ),
        ),
        migrations.AddField(
            model_name="gameresult",
            name="stand_in_turns",
            field=models.PositiveIntegerField(
                default=0, help_text="turns a stand-in bot played for this seat"
            ),
        ),
        migrations.AddField(
            model_name="gameresult",
            name="aborted",
            field=models.BooleanField(
                default=False,
                help_text="the game was aborted: a person resigned or timed out before any real move of their own (the same on every row of the game)",
            ),
        ),
    ]
