"""Nothing logs a player's rack, even with every site logger at DEBUG."""

from __future__ import annotations

import json
import logging
import logging.config
import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games import services
from games.engine.state import state_from_record
from games.models import Game
from rummi_site.settings import logging_from_env

from .conftest import client_for, key, viewer

pytestmark = pytest.mark.django_db


class Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name} {record.getMessage()}")


@pytest.fixture
def kept() -> Iterator[Keep]:
    """Every line logged, with the site configured at RUMMI_LOG_LEVEL=DEBUG and Django's
    cursors logging their queries (as with DEBUG on)."""
    logging.config.dictConfig(logging_from_env({**os.environ, "RUMMI_LOG_LEVEL": "DEBUG"}))
    keep = Keep()
    logging.getLogger().addHandler(keep)
    connection.force_debug_cursor = True
    yield keep
    connection.force_debug_cursor = False
    logging.getLogger().removeHandler(keep)
    logging.config.dictConfig(settings.LOGGING)


def _play_a_little(game: Game, alice: Any, bob: Any) -> list[str]:
    """Draw a few turns through the services and the API; the racks seen on the way."""
    racks = []
    for _ in range(4):
        game.refresh_from_db()
        state = state_from_record(game.state)
        who = (alice, bob)[state.turn]
        services.act(game.public_id, viewer(who), "draw", {"expected_seq": game.seq, "key": key()})
        for player in (alice, bob):
            view = client_for(player).get(f"/api/games/{game.public_id}/").json()["view"]
            racks.append(json.dumps(view["rack"]))
    return racks


def test_no_line_logged_shows_a_rack(kept: Keep, duel: Game, alice: Any, bob: Any) -> None:
    racks = _play_a_little(duel, alice, bob)

    assert logging.getLogger("games").isEnabledFor(logging.DEBUG)
    text = "\n".join(kept.lines)
    assert "rack" not in text.lower()
    for rack in racks:
        assert rack not in text


def test_the_check_would_see_a_rack_if_sql_were_logged(
    kept: Keep, duel: Game, alice: Any, bob: Any
) -> None:
    """The control: SQL at DEBUG carries the cached state, racks and all."""
    logging.getLogger("django.db.backends").setLevel(logging.DEBUG)
    _play_a_little(duel, alice, bob)

    assert "rack" in "\n".join(kept.lines).lower()
