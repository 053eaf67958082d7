"""Celery tasks for puzzles: the daily pick, run by beat at 00:00 UTC (settings)."""

from __future__ import annotations

from celery import shared_task

from .daily import pick_daily, today


@shared_task(ignore_result=True)
def pick_daily_puzzle() -> str:
    """Pick today's daily puzzle (idempotent: a second run the same day changes nothing)."""
    return pick_daily(today()).puzzle.slug
