"""The games played unrated because a pair of their players had reached its limit of rated
games together (docs/fair-play.md "Rated games between the same players")."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_game_family"),
        ("ratings", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="PairLimited",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                (
                    "pool",
                    models.CharField(
                        choices=[
                            ("live2", "Live, 2 players"),
                            ("live36", "Live, 3-6 players"),
                            ("corr", "Correspondence"),
                            ("rush", "Rummy Rush"),
                            ("r45", "Rummy 45"),
                        ],
                        max_length=8,
                    ),
                ),
                ("pairs", models.JSONField()),
                ("decided", models.DateTimeField()),
            ],
        ),
    ]
