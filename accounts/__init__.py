"""Accounts: sign-in through django-allauth, profiles, trophies, unlocks and preferences."""
