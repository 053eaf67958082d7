"""The site's own path converter: ``<segment:gid>``, for a game id, an invite or share token
or a username in a path.

Django's ``str`` converter takes any character but the slash, the NUL character (U+0000)
included, which PostgreSQL cannot hold in a query: ``GET /g/a%00b/`` was a 500 there and a
404 on SQLite. A segment holds no control character (U+0000 to U+001F, U+007F), so such a path
matches no URL and is the site's 404 ("There is nothing at this address", or the JSON API's
``http_404`` with its sentence) on every database, before any view or socket consumer runs. No
id, token or username the site makes holds one (README.md, "Limits and hostile input").

Importing this module registers the converter; each URL module that uses it imports it.

>>> import re
>>> [bool(re.fullmatch(Segment.regex, s)) for s in ("Ab-3_x", "alice.b@c", "a\\x00b", "a/b")]
[True, True, False, False]
"""

from __future__ import annotations

from django.urls import register_converter


class Segment:
    """One path segment without control characters, given to the view as it is."""

    regex = r"[^/\x00-\x1f\x7f]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(Segment, "segment")
