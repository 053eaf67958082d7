"""Tournament signals, sent after the change committed: ``standings_changed`` with
``tournament_id`` (the page's live standings hang on it: tournaments/receivers.py)."""

from __future__ import annotations

from django.dispatch import Signal

standings_changed = Signal()
