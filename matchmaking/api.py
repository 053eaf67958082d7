"""The seek endpoint of docs/api.md ("Matchmaking"): thin, over matchmaking.services."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_http_methods

from games.identity import identity_of, seated_identity
from rummi_site.jsonapi import json_errors, read_body
from rummi_site.limits import limited

from . import services


@require_http_methods(["GET", "HEAD", "POST", "DELETE"])
@json_errors
@limited("seek", methods=("POST", "DELETE"))
def seek(request: HttpRequest) -> JsonResponse:
    """GET: your seek's state; POST ``{"mode", "players", "bots_after", "bot_strength"}``:
    seek (replacing an open seek); DELETE: stop seeking. Signed-in players only."""
    viewer = identity_of(request)
    if request.method == "POST":
        # Seated under the name every page shows (docs/fair-play.md "Names").
        return JsonResponse(services.seek(seated_identity(request), read_body(request)))
    if request.method == "DELETE":
        return JsonResponse(services.cancel(viewer))
    return JsonResponse(services.status(viewer))
