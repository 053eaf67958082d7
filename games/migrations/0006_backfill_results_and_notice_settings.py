"""Results as rows for every game finished before they were written with the final event
(docs/design.md "Results"), by replaying each log; and the players' email wishes, moved
here from accounts.Profile (games must not read another app's rows)."""

from django.db import migrations

from games.engine.results import seat_results


def backfill_results(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameResult = apps.get_model("games", "GameResult")
    for game in Game.objects.filter(status="finished").exclude(results__isnull=False).iterator():
        logged = list(game.events.order_by("seq").values_list("payload", "created"))
        if not logged:
            continue
        epoch = logged[0][1]
        times = [(created - epoch).total_seconds() for _, created in logged]
        seats = {s.index: s for s in game.seats.all()}
        rows = []
        # The rows as the model given has them: the columns of its time (every count a
        # column), or, run on a later model, the common ones and Rummikub's details (0015).
        flat = not any(f.name == "details" for f in GameResult._meta.fields)
        for row in seat_results([payload for payload, _ in logged], times):
            fields = row.to_dict() if flat else row.row()
            index = fields.pop("seat")
            seat = seats.get(index)
            rows.append(
                GameResult(
                    game=game,
                    seat=index,
                    user_id=seat.user_id if seat else None,
                    kind=seat.kind if seat else "human",
                    bot_strength=seat.bot_strength if seat else "",
                    name=seat.name if seat else "",
                    finished=game.finished or logged[-1][1],
                    **fields,
                )
            )
        GameResult.objects.bulk_create(rows)


def move_notice_settings(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    NoticeSettings = apps.get_model("games", "NoticeSettings")
    for profile in Profile.objects.all().iterator():
        NoticeSettings.objects.update_or_create(
            user_id=profile.user_id,
            defaults={
                "email_turn_notices": profile.email_turn_notices,
                "last_digest": profile.last_digest,
            },
        )


def move_notice_settings_back(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    NoticeSettings = apps.get_model("games", "NoticeSettings")
    for wishes in NoticeSettings.objects.all().iterator():
        Profile.objects.update_or_create(
            user_id=wishes.user_id,
            defaults={
                "email_turn_notices": wishes.email_turn_notices,
                "last_digest": wishes.last_digest,
            },
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_results_and_notice_settings"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(backfill_results, migrations.RunPython.noop, elidable=True),
        migrations.RunPython(move_notice_settings, move_notice_settings_back, elidable=True),
    ]
