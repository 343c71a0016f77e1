"""Gzip decompression through ISA-L when it is installed, else the standard library.

Inflating a multi-GB `.tar.gz` is the one step of an analysis that cannot be spread over
processes (a gzip stream is read front to back), so its speed bounds the whole run. ISA-L's
inflater (the `isal` package) does the same work about four times faster than zlib; the
standard library stays the fallback so a platform without a wheel still works.
"""

from __future__ import annotations

import gzip
import zlib
from typing import BinaryIO

try:
    from isal import igzip as _igzip
    from isal.igzip_lib import IsalError as _IsalError
except ImportError:  # pragma: no cover - isal ships wheels for the platforms we run on
    _igzip = None
    _IsalError = zlib.error

# What a corrupt or truncated gzip stream raises, whichever inflater reads it.
INFLATE_ERRORS: tuple[type[Exception], ...] = (
    zlib.error,
    gzip.BadGzipFile,
    EOFError,
    _IsalError,
)


def gunzip_stream(raw: BinaryIO) -> BinaryIO:
    """A readable stream of the decompressed bytes of the gzip stream(s) in `raw`."""
    if _igzip is not None:
        return _igzip.IGzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]


def inflater_name() -> str:
    """For benchmarks and diagnostics: which inflater this process uses."""
    return "isal" if _igzip is not None else "zlib"
