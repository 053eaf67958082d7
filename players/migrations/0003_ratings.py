"""Rating and RatingChange belong to the ratings app now (ratings/migrations/0001_initial.py
took them over, docs/design.md "Ratings"): the players app forgets them in Django's state only,
so their tables and rows stay. Their content types (and so their permissions) follow them.
"""

from typing import Any

from django.db import migrations

MODELS = ("rating", "ratingchange")


def relabel(apps: Any, schema_editor: Any, old: str, new: str) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    rows = content_type.objects.using(schema_editor.connection.alias)
    for model in MODELS:
        if not rows.filter(app_label=new, model=model).exists():
            rows.filter(app_label=old, model=model).update(app_label=new)


def to_ratings(apps: Any, schema_editor: Any) -> None:
    relabel(apps, schema_editor, "players", "ratings")


def to_players(apps: Any, schema_editor: Any) -> None:
    relabel(apps, schema_editor, "ratings", "players")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("players", "0002_trophy_link"),
        ("ratings", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="RatingChange"),
                migrations.DeleteModel(name="Rating"),
            ],
        ),
        migrations.RunPython(to_ratings, to_players),
    ]
