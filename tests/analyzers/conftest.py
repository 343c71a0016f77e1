"""The analyzer tests run without Django: the web app's per-test set-up is switched off here.

`tests/conftest.py` gives every test its own media root, a cheap password hasher and no API
budgets through pytest-django's `settings` fixture and a temporary folder. The analyzer never
imports Django, so none of that reaches it, yet it cost each of the ten thousand analyzer tests
a folder and a round of setting-changed signals (about half of a knowledge check's time). These
fixtures take the same names, so pytest uses them for the tests below this folder instead.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def media_root() -> None:
    """The analyzer stores no uploads; a test that writes files asks for `tmp_path` itself."""


@pytest.fixture(autouse=True)
def quick_password_hashing() -> None:
    """The analyzer makes no people."""


@pytest.fixture(autouse=True)
def api_budgets_off() -> None:
    """The analyzer serves no API."""
