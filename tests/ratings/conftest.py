"""Ratings fixtures: rated games are played to their end as the players tests play them
(tests/players/conftest.py), with tasks run in this process."""

from __future__ import annotations

from tests.players.conftest import _eager_tasks  # noqa: F401  (autouse: tasks run eagerly)
