"""The two calls the client makes: upload a bundle, read an incident's status."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from ranklens_cli.multipart import MultipartBody

USER_AGENT = "ranklens-cli/0.1 (urllib)"
# Per socket operation, not for the whole upload: a slow link may take an hour to send.
SOCKET_TIMEOUT_S = 300


class ApiError(Exception):
    """The server answered with an error, or could not be reached at all.

    `status` is the HTTP status (None when no answer came); `transient` says whether
    asking again later may work (a gateway error, 503, 429, or a dropped connection);
    `retry_after` is the server's `Retry-After` in seconds, when it sent one.
    """

    def __init__(
        self, message: str, *, status: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after

    @property
    def transient(self) -> bool:
        return self.status is None or self.status in (429, 502, 503, 504)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirected POST would silently turn into a GET without the bundle: refuse it."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


class Client:
    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token

    def upload(self, path: Path, *, title: str = "") -> dict[str, Any]:
        """POST the bundle to /api/incidents/; the answer holds `id`, `url`, `status_url`."""
        body = MultipartBody(
            fields={"title": title} if title else {}, file_field="bundle", path=path
        )
        headers = {"Content-Type": body.content_type, "Content-Length": str(len(body))}
        return self._call("POST", f"{self.base_url}/api/incidents/", body=body, headers=headers)

    def status(self, status_url: str) -> dict[str, Any]:
        return self._call("GET", status_url)

    def _call(
        self, method: str, url: str, *, body: Any = None, headers: dict[str, str] | None = None
    ) -> dict[str, Any]:
        request = urllib.request.Request(url, data=body, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        request.add_header("User-Agent", USER_AGENT)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with _opener.open(request, timeout=SOCKET_TIMEOUT_S) as response:
                return _json_of(response.read(), url)
        except urllib.error.HTTPError as error:
            raise ApiError(
                _error_message(error),
                status=error.code,
                retry_after=_seconds(error.headers.get("Retry-After")),
            ) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise ApiError(f"could not reach {url}: {reason}") from None


def _json_of(raw: bytes, url: str) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except ValueError:
        raise ApiError(f"{url} did not answer JSON; is --url the Ranklens server?") from None
    if not isinstance(data, dict):
        raise ApiError(f"{url} answered JSON that is not an object")
    return data


def _seconds(value: str | None) -> float | None:
    """`Retry-After` in its delay-seconds form; an HTTP date or garbage reads as absent."""
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


def _error_message(error: urllib.error.HTTPError) -> str:
    """The API's own `error` text when it sent one, else the status line."""
    if 300 <= error.code < 400:
        location = error.headers.get("Location", "")
        return f"HTTP {error.code}: the server redirects to {location}; pass that as --url"
    try:
        message = json.loads(error.read()).get("error")
    except (ValueError, AttributeError, OSError):
        message = None
    return f"HTTP {error.code}: {message or error.reason}"
