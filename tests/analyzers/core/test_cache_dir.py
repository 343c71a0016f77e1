"""Where the analyzer keeps its caches, and when it keeps none."""

from __future__ import annotations

import stat

from analyzers.core.cache_dir import cache_dir


def test_the_configured_directory_is_created_private(tmp_path, monkeypatch) -> None:
    wanted = tmp_path / "ranklens-cache"
    monkeypatch.setenv("RANKLENS_CACHE_DIR", str(wanted))
    assert cache_dir() == wanted
    assert stat.S_IMODE(wanted.stat().st_mode) & 0o077 == 0


def test_an_empty_setting_switches_caching_off(monkeypatch) -> None:
    monkeypatch.setenv("RANKLENS_CACHE_DIR", "")
    assert cache_dir() is None


def test_a_directory_others_may_write_to_is_refused(tmp_path, monkeypatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("RANKLENS_CACHE_DIR", str(shared))
    assert cache_dir() is None


def test_without_a_setting_it_sits_under_the_users_cache_home(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("RANKLENS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "ranklens"
