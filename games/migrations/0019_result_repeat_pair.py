"""``GameResult.repeat_pair``: a game two of whose accounts had already finished 3 counted games
together in the 24 h before counts in nobody's figures, win counts or trophies
(docs/fair-play.md "Games between the same players"; ``games.services.fairness.repeated_pair``,
which the result writer runs on every finished game). The games finished before it are marked
here, in the order they finished, by the same rule; the trophies they gave stay until an
operator takes them back (``manage.py awardtrophies --take-back``). Backwards, the column goes.
"""

from collections import Counter
from datetime import timedelta
from itertools import combinations
from typing import Any

from django.db import migrations, models

WINDOW = timedelta(hours=24)
COUNTED = 3


def fill(apps: Any, schema_editor: Any) -> None:
    GameResult = apps.get_model("games", "GameResult")
    rows = GameResult.objects.filter(kind="human", user__isnull=False, absent=False)
    seated: dict[int, set[int]] = {}
    ended: dict[int, Any] = {}
    aborted: set[int] = set()
    for game_id, user_id, finished, was_aborted in rows.order_by("finished", "game_id").values_list(
        "game_id", "user_id", "finished", "aborted"
    ):
        seated.setdefault(game_id, set()).add(user_id)
        ended[game_id] = finished
        if was_aborted:
            aborted.add(game_id)
    counted: list[int] = []  # games counted so far, in finish order
    start = 0  # the first of them still inside the window
    repeats: list[int] = []
    for game_id in sorted(ended, key=lambda g: (ended[g], g)):
        people = seated[game_id]
        if len(people) < 2 or game_id in aborted:
            continue
        since = ended[game_id] - WINDOW
        while start < len(counted) and ended[counted[start]] <= since:
            start += 1
        together = Counter(
            pair
            for other in counted[start:]
            for pair in combinations(sorted(seated[other] & people), 2)
        )
        if any(n >= COUNTED for n in together.values()):
            repeats.append(game_id)
        else:
            counted.append(game_id)
    GameResult.objects.filter(game_id__in=repeats).update(repeat_pair=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0018_seat_resigned")]

    operations = [
        migrations.AddField(
            model_name="gameresult",
            name="repeat_pair",
            field=models.BooleanField(
                default=False,
                help_text="two accounts at the table had finished 3 counted games together in "
                "the 24 h before: the game counts in nobody's figures, win counts or trophies "
                "(the same on every row of the game)",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
