"""``GoneTable``: why a table deleted before it started went, for its address to say so for a
week in every process (docs/design.md "Waiting tables"); until now a cache entry of the process
that deleted it."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_result_repeat_pair"),
    ]

    operations = [
        migrations.CreateModel(
            name="GoneTable",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("public_id", models.CharField(max_length=16, unique=True)),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("cancelled", "closed by its creator"),
                            ("unfilled", "nobody took its seats in time"),
                            ("lapsed", "a rematch offer not accepted in time"),
                        ],
                        max_length=10,
                    ),
                ),
                ("back", models.CharField(blank=True, default="", max_length=16)),
                ("gone", models.DateTimeField(db_index=True)),
            ],
        ),
    ]
