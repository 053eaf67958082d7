"""Who a request comes from: a signed-in user, or a guest known by a key in their session."""

from __future__ import annotations

import secrets

from django.http import HttpRequest

from .services import Viewer, clean_name

GUEST_KEY = "guest_key"
GUEST_NAME = "guest_name"


def viewer_of(request: HttpRequest) -> Viewer:
    user = request.user
    if user.is_authenticated:
        return Viewer(user_id=user.pk, name=user.get_username())
    return Viewer(
        guest_key=request.session.get(GUEST_KEY) or None,
        name=request.session.get(GUEST_NAME, ""),
    )


def become_guest(request: HttpRequest, name: object) -> Viewer:
    """Give an anonymous visitor a guest identity with a display name (kept in the session)."""
    if request.user.is_authenticated:
        return viewer_of(request)
    request.session[GUEST_NAME] = clean_name(name)
    if not request.session.get(GUEST_KEY):
        request.session[GUEST_KEY] = secrets.token_urlsafe(24)
    return viewer_of(request)
