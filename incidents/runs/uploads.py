"""Receiving uploads: stream each file to a temporary file and hash it on the way.

Django's TemporaryFileUploadHandler writes each chunk to disk as it arrives; this
subclass also feeds the chunk to SHA-256, so storing the bundle later is a rename
instead of a second pass over gigabytes. If writing fails (a full disk), the partial
file is removed at once rather than whenever the request object is collected.
"""

from __future__ import annotations

import contextlib
import hashlib
import os

from django.conf import settings
from django.core.files.uploadhandler import TemporaryFileUploadHandler


class HashingTemporaryFileUploadHandler(TemporaryFileUploadHandler):
    def new_file(self, *args, **kwargs) -> None:
        os.makedirs(settings.FILE_UPLOAD_TEMP_DIR, exist_ok=True)
        super().new_file(*args, **kwargs)
        self._digest = hashlib.sha256()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        self._digest.update(raw_data)
        try:
            super().receive_data_chunk(raw_data, start)
        except OSError:
            self._discard()
            raise

    def file_complete(self, file_size: int):
        try:
            uploaded = super().file_complete(file_size)  # flushes the last buffered bytes
        except OSError:
            self._discard()
            raise
        uploaded.sha256 = self._digest.hexdigest()
        return uploaded

    def _discard(self) -> None:
        """Close and so delete the temporary file; closing flushes, which may fail again."""
        with contextlib.suppress(OSError):
            self.file.close()
        with contextlib.suppress(OSError):
            os.unlink(self.file.temporary_file_path())
