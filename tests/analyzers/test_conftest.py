"""An analyzer test is set up like the pure Python it tests: no Django settings, no folder."""

from __future__ import annotations

import pytest


def test_an_analyzer_test_gets_no_django_settings_or_media_folder(
    request: pytest.FixtureRequest,
) -> None:
    assert "settings" not in request.fixturenames
    assert "tmp_path" not in request.fixturenames


def test_a_test_that_asks_for_a_folder_still_gets_its_own(tmp_path) -> None:
    assert tmp_path.is_dir()
    assert list(tmp_path.iterdir()) == []
