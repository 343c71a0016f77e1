"""Deflate through ISA-L when it is installed, else through the standard library's zlib.

Two steps of an analysis are bound by deflate speed. Inflating a multi-GB `.tar.gz` cannot
be spread over processes (a gzip stream is read front to back), so it bounds the whole run;
and every scanned byte is compressed again into the log viewer's line store. ISA-L (the
`isal` package) inflates about four times faster than zlib and compresses at level 1 about
four times faster with a better ratio; its output is plain zlib/gzip data either way, so a
store written with one library reads with the other. The standard library stays the
fallback so a platform without a wheel still works.
"""

from __future__ import annotations

import gzip
import zlib
from typing import BinaryIO

try:
    from isal import igzip as _igzip
    from isal import isal_zlib as _zlib
    from isal.igzip_lib import IsalError as _IsalError
except ImportError:  # pragma: no cover - isal ships wheels for the platforms we run on
    _igzip = None
    _zlib = zlib  # type: ignore[assignment]
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


def compress_block(data: bytes | memoryview) -> bytes:
    """One zlib stream at the fastest level that still compresses logs well (~5x)."""
    return _zlib.compress(data, 1)


def decompress_block(packed: bytes) -> bytes:
    return _zlib.decompress(packed)


def inflater_name() -> str:
    """For benchmarks and diagnostics: which library this process deflates with."""
    return "isal" if _igzip is not None else "zlib"
