"""Fixtures shared by the knowledge-cache tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory of this test's own, as `RANKLENS_CACHE_DIR` names it."""
    directory = tmp_path / "cache"
    monkeypatch.setenv("RANKLENS_CACHE_DIR", str(directory))
    return directory
