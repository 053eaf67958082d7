"""Puzzles, attempts and ratings will live here."""
