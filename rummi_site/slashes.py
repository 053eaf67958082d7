"""Django's CommonMiddleware, without redirecting a POST to the path with a slash.

With ``APPEND_SLASH`` a request for ``/accounts/login`` that finds no page is redirected to
``/accounts/login/``. A POST cannot be: the browser would send the redirect's request as a GET,
without its body (with DEBUG on Django raises RuntimeError instead, a 500). Here a POST, PUT,
PATCH or DELETE to such a path is a 404 that says where the page is: under /api/ a JSON answer
with a sentence (rummi_site/jsonapi.py), elsewhere the site's own 404 page.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware import common
from django.views import defaults

from rummi_site.jsonapi import is_json_path

REDIRECTABLE = ("GET", "HEAD", "OPTIONS")


class CommonMiddleware(common.CommonMiddleware):
    def should_redirect_with_slash(self, request: HttpRequest) -> bool:
        return request.method in REDIRECTABLE and super().should_redirect_with_slash(request)

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if (
            response.status_code == 404
            and request.method not in REDIRECTABLE
            and super().should_redirect_with_slash(request)
        ):
            return self._no_slash(request)
        return super().process_response(request, response)

    def _no_slash(self, request: HttpRequest) -> HttpResponse:
        there = f"{request.path}/"
        if is_json_path(request):
            message = f"There is nothing at {request.path}; the address ends with a slash: {there}"
            return JsonResponse({"error": "not_found", "message": message}, status=404)
        return defaults.page_not_found(request, Exception(f"{request.path} ends with a slash"))
