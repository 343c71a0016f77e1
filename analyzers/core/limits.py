"""How much of a bundle one analysis may read, write and hold, and what was cut.

An upload comes from outside: a 2.5 MB tar may inflate to terabytes, hold 200,000 empty
files, a 1 GB pax header or archives nested twenty deep. Each budget below is generous for
real jobs (their bundles are many GB) and, once spent, stops that kind of reading with a
`LimitHit` in the report that says what was cut, e.g.
"read 64.0 GiB of an archive that holds more: total size limit (RANKLENS_LIMIT_TOTAL_BYTES)".

Defaults come from the environment (`Limits.from_env`), so a site can raise them; callers
may also pass their own `Limits` in `AnalyzeOptions`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields

from analyzers.core.phrases import Said, say

GiB = 1024**3
MiB = 1024**2
# More ranks than any job we know of; a larger "world size" or rank in a log is noise (or
# hostile), and taken at its word it would make a list of a billion ranks.
MAX_WORLD_SIZE = 1 << 17

ENV_PREFIX = "RANKLENS_LIMIT_"


@dataclass(frozen=True, slots=True)
class Limits:
    total_bytes: int = 64 * GiB  # uncompressed bytes read from the bundle, all members
    ratio: int = 1000  # uncompressed : compressed, checked once ratio_grace bytes are out
    ratio_grace: int = 100 * MiB
    members: int = 50_000  # files read; later ones are counted, not read
    header_bytes: int = 1 * MiB  # one tar long-name or pax header
    depth: int = 3  # archives inside archives inside the bundle
    store_bytes: int = 16 * GiB  # the log viewer's copy of one run (8 KiB per file counted)
    store_files: int = 10_000  # files copied for the log viewer (each costs a disk file or two)
    listed_files: int = 10_000  # files named in the report; the rest are counted

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """Defaults, each overridden by RANKLENS_LIMIT_<NAME> (e.g. RANKLENS_LIMIT_MEMBERS)."""
        environ = os.environ if environ is None else environ
        values = {}
        for item in fields(cls):
            raw = environ.get(ENV_PREFIX + item.name.upper(), "").strip()
            if raw:
                values[item.name] = _positive(raw, ENV_PREFIX + item.name.upper())
        return cls(**values)


def _positive(raw: str, name: str) -> int:
    if not raw.isdigit() or len(raw) > 20 or int(raw) < 1:
        raise ValueError(f"{name} must be a whole number of 1 or more, not {raw[:40]!r}")
    return int(raw)


def small_int(text: str | bytes) -> int:
    """An int read from log text; a run of digits too long for any count reads as 0 (more
    than 4300 digits would even make `int()` raise)."""
    return int(text) if len(text) <= 18 else 0


def plausible_rank(value: object) -> int | None:
    """`value` as a rank or world size when it is one a job can have, else None."""
    text = str(value).strip() if value is not None else ""
    if not text.isdigit() or len(text) > 7 or int(text) > MAX_WORLD_SIZE:
        return None
    return int(text)


@dataclass(frozen=True, slots=True)
class LimitHit:
    """One budget that was spent: its name (a `Limits` field) and what was cut, in English
    (`message`) and Chinese (`message_zh`, None in reports written before it existed)."""

    limit: str
    message: str
    message_zh: str | None = None

    @classmethod
    def said(cls, limit: str, message: Said) -> LimitHit:
        """The hit of budget `limit`, its message followed by the variable that sets it."""
        full = say("limit.env", message=message, env=env_name(limit))
        return cls(limit, full.en, full.zh)


def env_name(limit: str) -> str:
    return ENV_PREFIX + limit.upper()


def size_text(size: int) -> str:
    """`4.0 GiB`, `512 KiB`, `17 bytes`: sizes as a person reads them."""
    for unit, scale in (("GiB", GiB), ("MiB", MiB), ("KiB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"
