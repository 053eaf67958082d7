"""Celery tasks for games: turn clocks and bot turns, each idempotent on the turn number."""
