"""Games: the rules engine (games.engine) and the Django side that stores and serves games."""
