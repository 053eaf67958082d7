"""Players hear of a correspondence tournament table in the email digest, which says which
tournament, round and table it is; the game's page title and replay say it too."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.notices import send_digests
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_digest_names_the_tournament_round_and_table(
    alice: Any, bob: Any, make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(name="Winter cup", correspondence_days=3, clock_seconds=None)
    services.join(alice, t.pk)
    services.join(bob, t.pk)
    services.start(None, t.pk)
    (table,) = Table.objects.filter(round__tournament=t)
    game = table.game
    assert game.correspondence_days == 3
    assert game.occasion == "Winter cup, round 1, table 1"

    assert send_digests() == 1
    (digest,) = mail.outbox
    assert f"/g/{game.public_id}/" in digest.body
    assert "Winter cup, round 1, table 1" in digest.body

    client = Client()
    client.force_login(alice)
    page = client.get(game.get_absolute_url()).content.decode()
    assert (
        f"<title>{game.get_mode_display()} · Winter cup, round 1, table 1 · Rummi</title>" in page
    )
    replay = client.get(f"/g/{game.public_id}/replay/").content.decode()
    assert '<p class="occasion">Winter cup, round 1, table 1</p>' in replay
