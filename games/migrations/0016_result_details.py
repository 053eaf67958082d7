"""Result rows keep the columns every family fills (docs/design.md "Results"); each family's
own counts move into one ``details`` field, with the keys that family declares.

The key lists are copied here as they were when this migration was written (a migration must
not read code that may change): Rummikub's ten counts (games/engine/results.py ``DETAILS``),
and Rummy 45's seven, without its rounds won, which it filled from the winner (``went_out``
says the same) and the constant 0. A row of any other family keeps all ten. Backwards, the
columns are filled again from ``details``, and a Rummy 45 row's rounds from ``went_out``, as
its family counted them. Rows move in batches of :data:`BATCH`, in primary key order.
"""

from django.db import migrations, models

BATCH = 500
RUMMIKUB = (
    "rounds_won",
    "rounds_won_out",
    "rounds_won_blocked",
    "melds_laid",
    "tiles_played",
    "jokers_played",
    "jokers_held",
    "openings",
    "opening_points",
    "biggest_turn",
)
R45 = (
    "melds_laid",
    "tiles_played",
    "jokers_played",
    "jokers_held",
    "openings",
    "opening_points",
    "biggest_turn",
)
# The columns that move, with their types (all counts from 0).
COLUMNS = {
    "rounds_won": models.PositiveSmallIntegerField,
    "rounds_won_out": models.PositiveSmallIntegerField,
    "rounds_won_blocked": models.PositiveSmallIntegerField,
    "melds_laid": models.PositiveIntegerField,
    "tiles_played": models.PositiveIntegerField,
    "jokers_played": models.PositiveSmallIntegerField,
    "jokers_held": models.PositiveSmallIntegerField,
    "openings": models.PositiveSmallIntegerField,
    "opening_points": models.PositiveIntegerField,
    "biggest_turn": models.PositiveSmallIntegerField,
}


def _batches(GameResult, *fields):
    """The rows' ``(pk, family, *fields)``, in batches in primary key order."""
    last = 0
    while True:
        rows = list(
            GameResult.objects.filter(pk__gt=last)
            .order_by("pk")
            .values_list("pk", "game__family", *fields)[:BATCH]
        )
        if not rows:
            return
        yield rows
        last = rows[-1][0]


def forwards(apps, schema_editor):
    GameResult = apps.get_model("games", "GameResult")
    for rows in _batches(GameResult, *RUMMIKUB):
        moved = []
        for pk, family, *counts in rows:
            found = dict(zip(RUMMIKUB, counts, strict=True))
            keys = R45 if family == "r45" else RUMMIKUB
            moved.append(GameResult(pk=pk, details={key: found[key] for key in keys}))
        GameResult.objects.bulk_update(moved, ["details"])


def backwards(apps, schema_editor):
    GameResult = apps.get_model("games", "GameResult")
    for rows in _batches(GameResult, "details", "went_out"):
        moved = []
        for pk, family, details, went_out in rows:
            counts = {key: int(details.get(key, 0)) for key in RUMMIKUB}
            if family == "r45":
                won = int(went_out)
                counts.update(rounds_won=won, rounds_won_out=won, rounds_won_blocked=0)
            moved.append(GameResult(pk=pk, **counts))
        GameResult.objects.bulk_update(moved, list(RUMMIKUB))


class Migration(migrations.Migration):
    dependencies = [("games", "0015_fair_play")]

    operations = [
        migrations.AddField(
            model_name="gameresult",
            name="details",
            field=models.JSONField(
                blank=True, default=dict, help_text="the family's own counts (its result_details)"
            ),
        ),
        # A default, so that backwards the columns come back on a table that has rows.
        *[
            migrations.AlterField(model_name="gameresult", name=name, field=kind(default=0))
            for name, kind in COLUMNS.items()
        ],
        migrations.RunPython(forwards, backwards),
        *[migrations.RemoveField(model_name="gameresult", name=name) for name in COLUMNS],
    ]
