"""A Rummy 45 clock that runs out: the setup's waiting seats are readied, and in play the seat
in turn draws (if it has not taken) and discards the tile drawn; a stale or early call does
nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def run_out(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=5))


def test_a_timeout_readies_the_setup_then_draws_and_discards(r45_duel: Game) -> None:
    r45_duel.refresh_from_db()
    assert not services.timeout(r45_duel.public_id, 0)  # its clock has not run out
    run_out(r45_duel)
    assert services.timeout(r45_duel.public_id, 0)
    r45_duel.refresh_from_db()
    state = r45_duel.state
    assert state is not None and state["phase"] == "play" and r45_duel.deadline is not None
    assert r45_duel.deadline > timezone.now()
    turn = state["turn"]
    run_out(r45_duel)
    assert services.timeout(r45_duel.public_id, 0)  # the first player lays the locomotive
    r45_duel.refresh_from_db()
    assert r45_duel.turn_number == 1 and len(r45_duel.state["train"]) == 1
    assert not services.timeout(r45_duel.public_id, 0)  # that turn is over: stale
    run_out(r45_duel)
    before = len(r45_duel.state["stock"])
    assert services.timeout(r45_duel.public_id, 1)
    r45_duel.refresh_from_db()
    kinds = list(r45_duel.events.order_by("-seq").values_list("kind", flat=True)[:2])
    assert kinds == ["Discarded", "TileDrawn"]
    drawn, discarded = (
        r45_duel.events.order_by("-seq")[1].payload["tile"],
        r45_duel.events.order_by("-seq")[0].payload["tile"],
    )
    assert drawn == discarded and len(r45_duel.state["stock"]) == before - 1
    assert r45_duel.state["turn"] == turn


def test_bots_play_on_after_a_persons_timeout(
    r45_bots: Game, django_capture_on_commit_callbacks: Any
) -> None:
    r45_bots.refresh_from_db()
    assert r45_bots.state is not None and r45_bots.state["ready"] == [False, True, True]
    run_out(r45_bots)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.timeout(r45_bots.public_id, 0)
    r45_bots.refresh_from_db()
    state = r45_bots.state
    assert state["phase"] == "play"
    assert state["turn"] == 0  # the bots have played up to alice's turn
