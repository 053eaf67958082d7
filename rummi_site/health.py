"""``GET /health/``: is this web process fit to serve? For the proxy and for monitors
(docs/deploy.md, "Health").

django-health-check runs the checks: the database (``SELECT 1``), the cache (a set and a get:
Redis when ``REDIS_URL`` is set, where the rate limits count) and, with Redis, the Celery
broker (a ``PING`` on ``CELERY_BROKER_URL``). Workers are not asked: a web process serves
moves without them, and a check that failed every web process together would take the whole
site out of the proxy. The answer is plain text, one line a check, with 200 when all pass and
503 (not the library's 500: nothing here is the site's error) when one fails.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from health_check.checks import Cache, Database
from health_check.contrib.redis import Redis
from health_check.views import HealthCheckView
from redis.asyncio import Redis as RedisClient


def _broker_client() -> RedisClient:
    return RedisClient.from_url(str(settings.CELERY_BROKER_URL), socket_timeout=2)


def checks() -> tuple[Any, ...]:
    found: tuple[Any, ...] = (Database, Cache)
    if str(settings.CELERY_BROKER_URL).startswith(("redis://", "rediss://")):
        found += ((Redis, {"client_factory": _broker_client}),)
    return found


class HealthView(HealthCheckView):
    """The library's view, answering text whatever the Accept header, 503 on a failure."""

    def get_checks(self) -> Any:
        self.checks = checks()
        return super().get_checks()

    async def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response: HttpResponse = await super().get(request, *args, **kwargs)
        if response.status_code == 500:
            response.status_code = 503
        return response

    def render_to_response(self, context: Any, **kwargs: Any) -> HttpResponse:
        return self.render_to_response_text(kwargs.get("status", 200))
