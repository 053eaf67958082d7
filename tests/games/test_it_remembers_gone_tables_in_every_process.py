"""A table deleted before it started (closed by its creator, closed unfilled by the sweep, a
rematch offer that lapsed) answers 410 with its reason for a week, whichever process deleted it
(docs/design.md "Waiting tables"). The sweeps run in the Celery worker: under `make run`
its cache was its own memory, so the web process answered such a table's address with a plain
404. The record is now a row (``GoneTable``), written in the deleting transaction; the cache is
emptied below to stand for the web process, which never saw the worker's."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games import services, tasks
from games.models import Game, GoneTable
from games.services import lobby

from .conftest import client_for, viewer
from .test_it_lapses_unanswered_rematches import aged, finished, post

pytestmark = pytest.mark.django_db
LIVE = {"mode": "parlor", "players": 2, "listed": False}


def test_a_table_the_workers_sweep_closed_answers_410_in_the_web_process(alice: Any) -> None:
    table = services.create_game(viewer(alice), LIVE)
    aged(table, timedelta(hours=1, seconds=1))

    assert tasks.expire_waiting_tables() == 1
    cache.clear()  # the web process: another process, another memory

    page = client_for(alice).get(table.get_absolute_url())
    assert page.status_code == 410
    assert "Nobody took its open seats in time" in page.content.decode()


def test_a_rematch_the_workers_sweep_lapsed_answers_410_in_the_web_process(
    alice: Any, bob: Any
) -> None:
    game = finished(alice, bob, {"mode": "parlor"})
    post(client_for(alice), reverse("api_rematch", args=[game.public_id]), {})
    offer = Game.objects.get(rematch_of=game)
    aged(offer, timedelta(minutes=10))

    assert tasks.expire_rematches() == 1
    cache.clear()

    page = client_for(bob).get(offer.get_absolute_url())
    assert page.status_code == 410
    assert "The rematch offer lapsed" in page.content.decode()
    assert f'href="{game.get_absolute_url()}"' in page.content.decode()


def test_the_address_says_so_for_a_week_then_404(alice: Any) -> None:
    table = services.create_game(viewer(alice), LIVE)
    assert services.leave_table(table.public_id, viewer(alice)) is True
    url = table.get_absolute_url()
    assert client_for(alice).get(url).status_code == 410

    six_days = timezone.now() - timedelta(days=6, hours=23)
    GoneTable.objects.filter(public_id=table.public_id).update(gone=six_days)
    assert services.forget_gone_tables() == 0
    assert client_for(alice).get(url).status_code == 410

    GoneTable.objects.filter(public_id=table.public_id).update(gone=six_days - timedelta(hours=2))
    assert client_for(alice).get(url).status_code == 404  # read as gone, even before the prune
    assert tasks.expire_waiting_tables() == 0  # the minute's sweep prunes the week-old records
    assert not GoneTable.objects.exists()


def test_a_deletion_rolled_back_leaves_no_record(alice: Any) -> None:
    table = services.create_game(viewer(alice), LIVE)

    class Undone(Exception):
        pass

    with pytest.raises(Undone), transaction.atomic():
        lobby.leave_table(table.public_id, viewer(alice))
        raise Undone

    assert Game.objects.filter(pk=table.pk).exists()
    assert not GoneTable.objects.exists()
    assert client_for(alice).get(table.get_absolute_url()).status_code == 200
