"""Ticket links: a URL as people paste it, and the key people type to find it again."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.utils.translation import gettext as _

MAX_URL = 500

# Tracker URL shapes, most specific first: the key is what people quote in chat.
_KEY_SHAPES = (
    # Jira: https://jira.example.com/browse/PROJ-123 (or ?selectedIssue=PROJ-123)
    re.compile(r"(?:/browse/|selectedIssue=)(?P<key>[A-Z][A-Z0-9_]+-\d+)\b"),
    # GitLab: https://gitlab.example.com/group/sub/project/-/issues/12
    re.compile(r"^/(?P<repo>.+?)/-/(?:issues|merge_requests|work_items)/(?P<num>\d+)"),
    # GitHub / Gitea: https://github.com/owner/repo/issues/12 or /pull/12
    re.compile(r"^/(?P<repo>[^/]+/[^/]+)/(?:issues|pull|pulls)/(?P<num>\d+)"),
)
_BARE_KEY = re.compile(r"\b[A-Z][A-Z0-9_]+-\d+\b")


class TicketInvalid(ValueError):
    pass


def ticket_url_clean(value: str) -> str:
    """An http(s) URL with a host, without surrounding space; anything else is refused."""
    url = value.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise TicketInvalid(_("%(value)s is not an http(s) URL") % {"value": repr(value)})
    if len(url) > MAX_URL:
        raise TicketInvalid(_("a ticket URL is at most %(limit)d characters") % {"limit": MAX_URL})
    return url


def ticket_key(url: str) -> str:
    """`PROJ-123`, `owner/repo#12`, or '' when the URL has no recognisable key."""
    parts = urlsplit(url)
    for shape in _KEY_SHAPES:
        found = shape.search(parts.path if "repo" in shape.groupindex else url)
        if found and "key" in shape.groupindex:
            return found["key"]
        if found:
            return f"{found['repo']}#{found['num']}"
    bare = _BARE_KEY.search(url)
    return bare.group(0) if bare else ""
