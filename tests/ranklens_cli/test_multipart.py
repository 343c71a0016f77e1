"""The streamed multipart body: what Django's own parser reads back, chunk by chunk."""

from __future__ import annotations

import io

import pytest
from django.http.multipartparser import MultiPartParser

from ranklens_cli import multipart
from ranklens_cli.multipart import MultipartBody


def parse(body: MultipartBody):
    """Read the body back the way the server does (Django's multipart parser)."""
    raw = b"".join(body)
    meta = {"CONTENT_TYPE": body.content_type, "CONTENT_LENGTH": str(len(raw))}
    return MultiPartParser(meta, io.BytesIO(raw), upload_handlers=_handlers()).parse()


def _handlers():
    from django.core.files.uploadhandler import MemoryFileUploadHandler

    return [MemoryFileUploadHandler()]


def test_django_reads_back_the_fields_and_the_file(settings, crash_bundle):
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024**2
    body = MultipartBody(fields={"title": "nightly ✓ run"}, file_field="bundle", path=crash_bundle)

    post, files = parse(body)

    assert post["title"] == "nightly ✓ run"
    assert files["bundle"].name == "crash_one_rank.tar.gz"
    assert files["bundle"].read() == crash_bundle.read_bytes()


def test_length_is_known_before_sending_and_matches_the_bytes(crash_bundle):
    body = MultipartBody(fields={"title": "x"}, file_field="bundle", path=crash_bundle)

    assert len(body) == len(b"".join(body))
    assert len(body) > crash_bundle.stat().st_size


def test_the_file_is_sent_in_chunks_not_read_whole(monkeypatch, tmp_path):
    monkeypatch.setattr(multipart, "CHUNK_BYTES", 4096)
    path = tmp_path / "rank0.log"
    path.write_text("".join(f"[rank0]: decode step {i} passed\n" for i in range(3000)))
    body = MultipartBody(fields={}, file_field="bundle", path=path)

    chunks = list(body)

    assert {len(c) for c in chunks[1:-2]} == {4096}
    assert b"".join(chunks[1:-1]) == path.read_bytes()


def test_a_quote_in_the_file_name_cannot_break_the_header(settings, tmp_path):
    path = tmp_path / 'job "7".log'
    path.write_text("[rank0]: RuntimeError: boom\n")

    _, files = parse(MultipartBody(fields={}, file_field="bundle", path=path))

    assert files["bundle"].read() == path.read_bytes()
    assert '"' not in files["bundle"].name.replace("%22", "")


def test_a_file_that_grows_while_sent_is_an_error_not_a_corrupt_upload(tmp_path):
    path = tmp_path / "rank0.log"
    path.write_text("[rank0]: step 1 passed\n")
    body = MultipartBody(fields={}, file_field="bundle", path=path)
    path.write_text("[rank0]: step 1 passed\n[rank0]: step 2 passed\n")

    with pytest.raises(OSError, match="changed size"):
        list(body)
