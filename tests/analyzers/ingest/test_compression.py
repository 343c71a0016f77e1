"""Deflate through ISA-L when installed; the bytes are byte for byte what zlib would read."""

import gzip
import io

import pytest

from analyzers.ingest.compression import INFLATE_ERRORS, gunzip_stream, inflater_name


def test_the_fast_inflater_is_installed():
    # a dependency in pyproject.toml: without it a .tar.gz takes ~4x longer to inflate
    assert inflater_name() == "isal"


def test_inflates_concatenated_members_like_gzip():
    data = b"[default0]:2026-11-29 07:24:00,022 [rank0] INFO layer 0 passed\n" * 5000
    packed = gzip.compress(data[:1000]) + gzip.compress(data[1000:])
    with gunzip_stream(io.BytesIO(packed)) as stream:
        assert stream.read() == data


def test_a_cut_stream_raises_one_of_the_known_errors():
    packed = gzip.compress(b"x" * 100000)
    with pytest.raises(INFLATE_ERRORS), gunzip_stream(io.BytesIO(packed[:50])) as stream:
        stream.read()


def test_a_block_written_by_one_library_reads_with_the_other():
    import zlib

    from analyzers.ingest.compression import compress_block, decompress_block

    lines = b"[INFO] RUNTIME(40020,python):2026-11-29-07:24:00.021.518 launch kernel ok\n" * 900
    assert zlib.decompress(compress_block(lines)) == lines
    assert decompress_block(zlib.compress(lines, 6)) == lines
