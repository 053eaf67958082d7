"""The session engine: Django's database sessions, taking only keys Django could have made.

A session cookie is untrusted text. Django's database store looks any cookie of 8 characters or
more up by its key, so ``sessionid="abcdefgh\\000"`` (a quoted cookie's octal escape gives a
NUL) was a query PostgreSQL refused: a 500 on every page, then ``'SessionStore' object has no
attribute '_session_cache'`` as the response was saved. Django makes keys of lower-case ASCII
letters and digits (``get_random_string`` with ``VALID_KEY_CHARS``); any other key is taken
for no session, as an unknown one is, without a query (rummi_site/untrusted.py).

>>> store = SessionStore()
>>> store._validate_session_key("a\\x00" * 16), store._validate_session_key("k" * 32)
(False, True)
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS

KEY_CHARS = frozenset(VALID_KEY_CHARS)


class SessionStore(db.SessionStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return bool(super()._validate_session_key(key)) and set(key or "") <= KEY_CHARS
