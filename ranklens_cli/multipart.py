"""A multipart/form-data body that streams its file instead of reading it into memory.

A bundle can be many gigabytes; urllib sends an iterable body chunk by chunk as long as the
request carries its Content-Length, which is known in advance from the file's size.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

CHUNK_BYTES = 1024 * 1024


def _quoted(value: str) -> str:
    """A header parameter value as browsers write it: quotes and line breaks escaped."""
    return value.replace("\\", "\\\\").replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


class MultipartBody:
    """Text fields, then one file field, as an iterable of byte chunks of known length."""

    def __init__(self, *, fields: dict[str, str], file_field: str, path: Path) -> None:
        self.boundary = "ranklens-" + secrets.token_hex(16)
        self.path = path
        self._size = os.stat(path).st_size
        head = b"".join(self._text_part(name, value) for name, value in fields.items())
        disposition = f'form-data; name="{file_field}"; filename="{_quoted(path.name)}"'
        self._head = head + self._part_header(disposition, "application/octet-stream")
        self._tail = f"\r\n--{self.boundary}--\r\n".encode()

    @property
    def content_type(self) -> str:
        return f"multipart/form-data; boundary={self.boundary}"

    def __len__(self) -> int:
        return len(self._head) + self._size + len(self._tail)

    def __iter__(self) -> Iterator[bytes]:
        yield self._head
        sent = 0
        with self.path.open("rb") as fh:
            while chunk := fh.read(CHUNK_BYTES):
                sent += len(chunk)
                yield chunk
        if sent != self._size:  # the file changed under us: the length we promised is wrong
            raise OSError(f"{self.path} changed size while it was being sent")
        yield self._tail

    def _part_header(self, disposition: str, content_type: str = "") -> bytes:
        lines = [f"--{self.boundary}", f"Content-Disposition: {disposition}"]
        if content_type:
            lines.append(f"Content-Type: {content_type}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    def _text_part(self, name: str, value: str) -> bytes:
        header = self._part_header(f'form-data; name="{_quoted(name)}"')
        return header + value.encode() + b"\r\n"
