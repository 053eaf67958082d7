"""Game, Seat and GameEvent (the log) will live here."""
