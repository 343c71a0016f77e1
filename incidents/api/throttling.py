"""Request rates per API caller, so one runaway CI loop can't flood the workers or the disk.

Each caller (the token's or session's user; the address for a request that is still
anonymous) gets a budget per window, read from settings on every request so an operator can
change or switch off a rate without a restart of the code that built the API. Counts live in
Django's default cache: Redis when `REDIS_URL` is set, so every web process shares them.
When the cache itself is unreachable the request is let through: throttling protects the
service and must never be the thing that takes it down.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from ninja.throttling import SimpleRateThrottle

log = logging.getLogger(__name__)


class CallerThrottle(SimpleRateThrottle):
    """At most the rate in `settings.<setting>` (`"600/min"`, `"30/hour"`; empty: no limit)."""

    def __init__(self, setting: str, scope: str) -> None:
        # The rate is read per request, not parsed once here as the base class does.
        self.setting = setting
        self.scope = scope

    def allow_request(self, request: HttpRequest) -> bool:
        rate = getattr(settings, self.setting, None)
        if not rate:
            return True
        self.num_requests, self.duration = self.parse_rate(rate)
        self.cache = cache
        try:
            return super().allow_request(request)
        except Exception:  # the cache is down: serve the request, say so in the log
            log.warning("API throttle %s: cache unreachable, request not counted", self.scope)
            return True

    def get_cache_key(self, request: HttpRequest) -> str:
        user = getattr(request, "auth", None)
        ident = f"user-{user.pk}" if user is not None else f"addr-{self.get_ident(request)}"
        return f"ranklens:throttle:{self.scope}:{ident}"


# Every operation counts against the caller's general budget; an upload also against its own,
# smaller one, because each upload stores a bundle and starts an analysis.
EVERY_CALL = CallerThrottle("RANKLENS_API_RATE", "api")
UPLOADS = [EVERY_CALL, CallerThrottle("RANKLENS_API_UPLOAD_RATE", "upload")]
