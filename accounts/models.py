"""Profiles, trophies, unlocks and preferences will live here; users are Django's own."""
