"""The ratings app takes over the players app's Rating and RatingChange (docs/design.md
"Ratings"): in Django's state only. The tables stay as they are, named as the players app named
them (the models' ``db_table``), so no row is copied, dropped or made again; the players app
forgets the models in its own migration (players/migrations/0003_ratings.py), after this one.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0008_game_rated"),
        ("players", "0002_trophy_link"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Rating",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
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
                        ("mu", models.FloatField()),
                        ("sigma", models.FloatField()),
                        ("shown", models.IntegerField()),
                        ("games", models.PositiveIntegerField(default=0)),
                        ("updated", models.DateTimeField()),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="ratings",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "players_rating",
                        "indexes": [
                            models.Index(fields=["pool", "-shown"], name="players_rating_board")
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("user", "pool"), name="one_rating_per_pool"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RatingChange",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
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
                        ("seat", models.PositiveSmallIntegerField()),
                        ("place", models.PositiveSmallIntegerField()),
                        ("mu_before", models.FloatField()),
                        ("sigma_before", models.FloatField()),
                        ("mu_after", models.FloatField()),
                        ("sigma_after", models.FloatField()),
                        ("shown_before", models.IntegerField()),
                        ("shown_after", models.IntegerField()),
                        ("finished", models.DateTimeField()),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="games.game",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rating_changes",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "players_ratingchange",
                        "indexes": [
                            models.Index(
                                fields=["user", "pool", "finished"], name="players_change_hist"
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("game", "user"), name="one_rating_change_per_seat"
                            )
                        ],
                    },
                ),
            ],
        ),
    ]
