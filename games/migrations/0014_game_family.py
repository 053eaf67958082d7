"""A game says what it is: its family, and the family's own setup in one field (Rummikub's
rules and match format, which a Rummy 45 game stored without reading)."""

from django.db import migrations, models


def forwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.only("pk", "mode", "rules", "match").iterator():
        if game.mode == "r45":
            game.family, game.config = "r45", {}
        else:
            game.family, game.config = "rummikub", {"rules": game.rules, "match": game.match}
        game.save(update_fields=["family", "config"])


def backwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    # A Rummy 45 game stored the classic rules and a single game before, never read.
    classic = {"name": "classic", "opening": 30, "penalty": 3, "hand": 14}
    for game in Game.objects.only("pk", "config", "family").iterator():
        if game.family == "rummikub":
            game.rules, game.match = game.config["rules"], game.config["match"]
        else:
            game.rules, game.match = classic, {"kind": "single"}
        game.save(update_fields=["rules", "match"])


class Migration(migrations.Migration):
    dependencies = [("games", "0013_game_occasion")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="family",
            field=models.CharField(default="rummikub", max_length=16),
        ),
        migrations.AddField(
            model_name="game",
            name="config",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="the family's own setup (Rummikub: its rules and match format)",
            ),
        ),
        migrations.AlterField(
            model_name="game", name="rules", field=models.JSONField(null=True, blank=True)
        ),
        migrations.AlterField(
            model_name="game", name="match", field=models.JSONField(null=True, blank=True)
        ),
        migrations.AddField(
            model_name="game",
            name="occasion_url",
            field=models.CharField(
                blank=True,
                help_text="where the game's end leads back to (its tournament's page), set by "
                "its maker",
                max_length=200,
            ),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="game", name="rules"),
        migrations.RemoveField(model_name="game", name="match"),
    ]
