"""Who is asking: one type and one reader for HTTP requests and sockets (docs/design.md
"Identity").

An :class:`Identity` is a signed-in user, or a guest known by a random key kept in their
session under :data:`GUEST_KEY`, the one place that name is written. :func:`identity_of` reads
it from an HTTP request or a Channels socket scope alike. Services take an Identity, never a
request.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from .errors import Invalid
from .names import check_name, shown_name

# The session keys of a guest's identity: their key, and the display name they chose.
GUEST_KEY = "guest_key"
GUEST_NAME = "guest_name"
NAME_MAX = 24


@dataclass(frozen=True)
class Identity:
    """A signed-in user (``user_id``), a guest (``guest_key``), or nobody yet (neither)."""

    user_id: int | None = None
    guest_key: str = ""
    name: str = ""

    @property
    def known(self) -> bool:
        return self.user_id is not None or bool(self.guest_key)

    @property
    def anonymous(self) -> bool:
        return not self.known

    def owns(self, prefix: str = "") -> Q:
        """The rows (seats, attempts, ratings) that belong to this identity: rows with a
        ``user`` and a ``guest_key`` column, reached through ``prefix`` (``"seat__"``)."""
        if self.user_id is not None:
            return Q(**{f"{prefix}user_id": self.user_id})
        if not self.guest_key:
            return Q(pk__in=[])
        return Q(**{f"{prefix}user__isnull": True, f"{prefix}guest_key": self.guest_key})

    def fields(self) -> dict[str, Any]:
        """The ``user_id`` and ``guest_key`` to store on a row this identity owns."""
        if self.user_id is not None:
            return {"user_id": self.user_id, "guest_key": ""}
        return {"user_id": None, "guest_key": self.guest_key}


def identity_of(source: Any) -> Identity:
    """Who sent an HTTP request, or opened a socket (``source`` is then its scope)."""
    if isinstance(source, Mapping):
        user, session = source.get("user"), source.get("session")
    else:
        user, session = getattr(source, "user", None), getattr(source, "session", None)
    if user is not None and user.is_authenticated:
        return Identity(user_id=user.pk, name=user.get_username())
    if session is None:
        return Identity()
    return Identity(guest_key=session.get(GUEST_KEY) or "", name=session.get(GUEST_NAME, ""))


def clean_name(name: object) -> str:
    """A display name: whitespace collapsed, at most ``NAME_MAX`` characters, not empty."""
    text = " ".join(str(name or "").split())[:NAME_MAX]
    if not text:
        raise Invalid("name_required", "Choose a display name.")
    return text


def guest_key(session: Any) -> str:
    """The session's guest key, made now if it has none (a visitor's first puzzle, say)."""
    key = session.get(GUEST_KEY)
    if not key:
        key = session[GUEST_KEY] = secrets.token_urlsafe(24)
    return str(key)


def seated_identity(request: Any) -> Identity:
    """Who takes a seat (creating, joining, seeking): a signed-in user under the name every page
    shows for them, their display name or else their username (docs/fair-play.md "Names")."""
    viewer = identity_of(request)
    if request.user.is_authenticated:
        return Identity(user_id=viewer.user_id, name=shown_name(request.user))
    return viewer


def length_problem(name: str) -> str | None:
    """The sentence refusing a name longer than ``NAME_MAX`` (a guest's, a display name, an
    account's username: docs/fair-play.md "Names"), or None.

    >>> length_problem("Ada")
    >>> length_problem("L" * 150)
    'A name has at most 24 characters (this one has 150).'
    """
    if len(name) > NAME_MAX:
        return f"A name has at most {NAME_MAX} characters (this one has {len(name)})."
    return None


def become_guest(request: Any, name: object) -> Identity:
    """Give an anonymous visitor a guest identity with a display name (kept in the session);
    a signed-in user stays who they are (:func:`seated_identity`). The name follows the name
    rules (games/names.py): one that hides characters, is longer than ``NAME_MAX``, is reserved
    or looks like an account's is refused, not cleaned."""
    if request.user.is_authenticated:
        return seated_identity(request)
    text = str(name or "")
    too_long = length_problem(text)
    if too_long:
        # As the page's form says it: refused, never cut (docs/fair-play.md "Names").
        raise Invalid("bad_name", too_long)
    if text.strip():
        check_name(text)
    request.session[GUEST_NAME] = clean_name(name)
    guest_key(request.session)
    return identity_of(request)
