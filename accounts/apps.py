"""Accounts: sign-in through django-allauth, profiles and preferences.

A guest who signs in keeps their games and puzzle progress: the games app's sign-in receiver
adopts them (games/receivers.py), so this app writes no other app's rows.
"""

from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
