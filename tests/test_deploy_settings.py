"""Production settings from the environment: `check --deploy` is clean with the HTTPS
switch on, and each HTTPS setting can be overridden on its own.

Settings are read once per process, so each case runs Django in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION = {
    "SECRET_KEY": "x7Qp2-" + "".join(chr(65 + (i * 7) % 26) for i in range(60)),
    "DEBUG": "0",
    "ALLOWED_HOSTS": "ranklens.example.com",
    "RANKLENS_HTTPS": "1",
}


def run_django(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("RANKLENS_", "SECURE_"))}
    base |= {"RANKLENS_VAR_DIR": str(tmp_path), "MEDIA_ROOT": str(tmp_path / "media")}
    base.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=base | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def setting_values(tmp_path: Path, env: dict[str, str], *names: str) -> list[str]:
    code = (
        "import os, django; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; "
        "django.setup(); from django.conf import settings; "
        f"print(*[repr(getattr(settings, n, None)) for n in {names!r}], sep='\\n')"
    )
    result = run_django(tmp_path, env, "-c", code)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_deploy_checks_are_clean_with_production_environment(tmp_path):
    result = run_django(
        tmp_path, PRODUCTION, "manage.py", "check", "--deploy", "--fail-level", "WARNING"
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNINGS" not in result.stdout + result.stderr


def test_deploy_checks_warn_without_the_https_switch(tmp_path):
    env = PRODUCTION | {"RANKLENS_HTTPS": "0"}

    result = run_django(tmp_path, env, "manage.py", "check", "--deploy", "--fail-level", "WARNING")

    assert result.returncode != 0
    for code in ("W004", "W008", "W012", "W016"):
        assert code in result.stderr


def test_https_switch_turns_on_redirect_cookies_hsts_and_proxy_header(tmp_path):
    values = setting_values(
        tmp_path,
        PRODUCTION,
        "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
        "SECURE_PROXY_SSL_HEADER",
    )

    assert values == ["True", "True", "True", "31536000", "('HTTP_X_FORWARDED_PROTO', 'https')"]


@pytest.mark.parametrize(
    ("override", "name", "expected"),
    [
        ({"RANKLENS_SSL_REDIRECT": "0"}, "SECURE_SSL_REDIRECT", "False"),
        ({"RANKLENS_SECURE_COOKIES": "0"}, "SESSION_COOKIE_SECURE", "False"),
        ({"RANKLENS_HSTS_SECONDS": "600"}, "SECURE_HSTS_SECONDS", "600"),
        ({"RANKLENS_BEHIND_PROXY": "0"}, "SECURE_PROXY_SSL_HEADER", "None"),
    ],
)
def test_each_https_setting_has_its_own_override(tmp_path, override, name, expected):
    assert setting_values(tmp_path, PRODUCTION | override, name) == [expected]


def test_without_the_switch_nothing_forces_https(tmp_path):
    values = setting_values(
        tmp_path, {}, "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "SECURE_HSTS_SECONDS"
    )

    assert values == ["False", "False", "0"]
