"""Content-addressed storage of uploaded bundles: MEDIA_ROOT/bundles/<sha[:2]>/<sha>.

The same bytes uploaded twice are stored once. Files are written under a temporary
name and renamed into place, so a reader never sees a half-written bundle.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile

CHUNK_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True)
class StoredBlob:
    sha256: str
    size_bytes: int
    path: Path
    reused: bool


def root() -> Path:
    return Path(settings.MEDIA_ROOT) / "bundles"


def path_for(sha256: str) -> Path:
    return root() / sha256[:2] / sha256


def store_upload(upload: UploadedFile) -> StoredBlob:
    """Put an uploaded file into the store and return where it lives."""
    sha256 = getattr(upload, "sha256", None)
    if sha256 and hasattr(upload, "temporary_file_path"):
        return _adopt_hashed_file(Path(upload.temporary_file_path()), sha256, upload.size)
    return _copy_hashing(upload)


def _adopt_hashed_file(source: Path, sha256: str, size: int) -> StoredBlob:
    """The upload handler already hashed the bytes: a rename puts them in place."""
    target = path_for(sha256)
    if target.exists():
        return StoredBlob(sha256, size, target, reused=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(f"{target.name}.part-{secrets.token_hex(4)}")
    try:
        shutil.move(source, part)  # a rename on one filesystem, a copy across two
        os.replace(part, target)
    except BaseException:
        part.unlink(missing_ok=True)  # a copy cut short by a full disk
        raise
    return StoredBlob(sha256, size, target, reused=False)


def _copy_hashing(upload: UploadedFile) -> StoredBlob:
    """Copy the upload into the store while hashing it, then name it by its hash."""
    root().mkdir(parents=True, exist_ok=True)
    digest, size = hashlib.sha256(), 0
    with tempfile.NamedTemporaryFile(dir=root(), suffix=".part", delete=False) as part:
        try:
            for chunk in upload.chunks(CHUNK_BYTES):
                digest.update(chunk)
                size += len(chunk)
                part.write(chunk)
            part.flush()
        except BaseException:
            os.unlink(part.name)  # a full disk must not keep the partial copy
            raise
    sha256 = digest.hexdigest()
    target = path_for(sha256)
    if target.exists():
        os.unlink(part.name)
        return StoredBlob(sha256, size, target, reused=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(part.name, target)
    return StoredBlob(sha256, size, target, reused=False)


def discard(blob: StoredBlob) -> None:
    """Remove a blob this request stored but could not record (its rows were not
    committed). A blob that was already there belongs to other bundles and stays."""
    if not blob.reused:
        blob.path.unlink(missing_ok=True)
