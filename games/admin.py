"""Admin registrations for games, seats and events."""
