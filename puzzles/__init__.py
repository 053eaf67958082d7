"""Puzzles: curated and generated positions, the trainer ramp and the daily puzzle."""
