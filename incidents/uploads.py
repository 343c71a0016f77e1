"""Receiving uploads: stream each file to a temporary file and hash it on the way.

Django's TemporaryFileUploadHandler writes each chunk to disk as it arrives; this
subclass also feeds the chunk to SHA-256, so storing the bundle later is a rename
instead of a second pass over gigabytes.
"""

from __future__ import annotations

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
        super().receive_data_chunk(raw_data, start)

    def file_complete(self, file_size: int):
        uploaded = super().file_complete(file_size)
        uploaded.sha256 = self._digest.hexdigest()
        return uploaded
