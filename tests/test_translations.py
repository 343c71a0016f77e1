"""Every text of the web UI has its Simplified Chinese, and the compiled catalogs the app
reads say the same as the .po files.

The texts are extracted afresh the way `make messages` does it (`makemessages`, templates,
Python and static/js), into a copy of locale/, so a `{% translate %}` added anywhere without
its Chinese fails here, naming the text. Fix: `make messages`, fill in the empty or fuzzy
msgstr entries of locale/zh_Hans/LC_MESSAGES/*.po, `make messages` again, commit both the
.po and the .mo.
"""

from __future__ import annotations

import contextlib
import gettext
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[1]
MESSAGES = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES"
DOMAINS = ("django", "djangojs")
# What `make messages` extracts from: the app, its templates and its static scripts.
SOURCES = ("config", "incidents", "templates", "static")
IGNORED = ["static/vendor", "incidents/migrations"]

needs_gettext = pytest.mark.skipif(
    shutil.which("msgfmt") is None or shutil.which("xgettext") is None,
    reason="GNU gettext (msgfmt, xgettext) is not installed",
)


@pytest.fixture(scope="module")
def fresh_catalogs(tmp_path_factory) -> Path:
    """locale/ copied beside links to the sources, then brought up to date by makemessages."""
    work = tmp_path_factory.mktemp("messages")
    for name in SOURCES:
        (work / name).symlink_to(ROOT / name, target_is_directory=True)
    shutil.copytree(ROOT / "locale", work / "locale")
    with override_settings(LOCALE_PATHS=[work / "locale"]), contextlib.chdir(work):
        for domain in DOMAINS:
            call_command(
                "makemessages",
                locale=["zh_Hans"],
                domain=domain,
                symlinks=True,
                ignore_patterns=IGNORED,
                no_obsolete=True,
                verbosity=0,
            )
    return work / "locale" / "zh_Hans" / "LC_MESSAGES"


def entries(po: Path, *flags: str) -> list[str]:
    """The msgids `msgattrib` selects with `flags` (e.g. the untranslated ones)."""
    out = subprocess.run(
        ["msgattrib", "--no-wrap", "--no-obsolete", *flags, str(po)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ids = [line[len("msgid ") :] for line in out.splitlines() if line.startswith("msgid ")]
    return [i for i in ids if i != '""']  # the header


@needs_gettext
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_ui_text_has_chinese(fresh_catalogs, domain):
    po = fresh_catalogs / f"{domain}.po"
    missing = entries(po, "--untranslated") + entries(po, "--only-fuzzy")

    assert not missing, (
        f"locale/zh_Hans/LC_MESSAGES/{domain}.po lacks Chinese for: {'; '.join(missing)} "
        "(run `make messages`, fill in these msgstr and drop their fuzzy flag, run it again)"
    )


@needs_gettext
@pytest.mark.parametrize("domain", DOMAINS)
def test_extraction_finds_the_ui(fresh_catalogs, domain):
    """The check above is only as good as the extraction: it sees templates, Python, JS."""
    ids = " ".join(entries(fresh_catalogs / f"{domain}.po"))
    expected = {
        "django": ['"Incidents"', '"Queued"', '"Clear the mark"', '"Diagnosis tree"'],
        "djangojs": ['"Uploading…"', '"first causal error"'],
    }[domain]
    for msgid in expected:
        assert msgid in ids


@needs_gettext
@pytest.mark.parametrize("domain", DOMAINS)
def test_committed_mo_says_what_the_po_says(tmp_path, domain):
    po, mo = MESSAGES / f"{domain}.po", MESSAGES / f"{domain}.mo"
    fresh = tmp_path / f"{domain}.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(po)], check=True)

    with mo.open("rb") as committed, fresh.open("rb") as compiled:
        committed_catalog = gettext.GNUTranslations(committed)._catalog
        compiled_catalog = gettext.GNUTranslations(compiled)._catalog
    assert committed_catalog == compiled_catalog, (
        f"{mo.name} is out of date: run `make messages` and commit it"
    )


def test_locale_dir_is_the_one_settings_read():
    assert MESSAGES.parent.parent in [Path(p) for p in settings.LOCALE_PATHS]
