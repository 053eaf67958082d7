"""Django's PostgreSQL backend with a pool that replaces dead connections: see base.py."""
