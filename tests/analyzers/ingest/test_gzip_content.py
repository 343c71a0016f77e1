"""A log compressed in place under its plain name is read as the text it inflates to."""

from __future__ import annotations

import gzip
import io

from analyzers.ingest.gzip_content import GunzipIfPacked, starts_as_gzip

LOG = (
    b"2026-12-07 06:46:27,645 [rank1] INFO layer 3 passed\n"
    b"2026-12-07 06:46:28,101 [rank1] ERROR model run failed: Connection closed by peer\n"
)


def _read_all(stream: GunzipIfPacked, size: int = 7) -> bytes:
    parts = []
    while chunk := stream.read(size):
        parts.append(chunk)
    return b"".join(parts)


def test_gzip_bytes_under_a_log_name_are_inflated_and_their_size_counted() -> None:
    packed = GunzipIfPacked(io.BytesIO(gzip.compress(LOG)), lambda raw: gzip.GzipFile(fileobj=raw))
    assert _read_all(packed) == LOG
    assert packed.inflated_size == len(LOG)


def test_a_plain_log_passes_through_untouched() -> None:
    plain = GunzipIfPacked(io.BytesIO(LOG), lambda raw: gzip.GzipFile(fileobj=raw))
    assert _read_all(plain) == LOG
    assert plain.inflated_size is None


def test_the_two_magic_bytes_alone_do_not_make_gzip() -> None:
    assert starts_as_gzip(gzip.compress(LOG)[:64])
    assert not starts_as_gzip(b"\x1f\x8b not a deflate stream at all")
    assert not starts_as_gzip(LOG)
