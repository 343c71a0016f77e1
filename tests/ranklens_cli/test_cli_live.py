"""`ranklens upload --wait` against the real app on a live server, with a real token.

Celery runs eagerly here: the upload's commit runs the analysis in the server's request
thread, so the status the client polls is the one a worker would have written.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import analyzers
from analyzers import BundleError
from incidents.models import Incident, RunState
from ranklens_cli import cli

pytestmark = pytest.mark.slow


def upload(live_server, token: str, path, *extra: str) -> int:
    argv = ["upload", str(path), "--url", live_server.url, "--token", token, *extra]
    return cli.main(argv)


def test_upload_and_wait_prints_the_verdict_of_the_real_analysis(
    transactional_db, live_server, eager_celery, alice_token, crash_bundle, capsys
):
    code = upload(live_server, alice_token, crash_bundle, "--title", "nightly", "--wait")

    incident = Incident.objects.get()
    url = f"{live_server.url}/incidents/INC-{incident.pk}/"
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert incident.title == "nightly"
    assert incident.latest_run().state == RunState.DONE
    assert out[0] == url
    assert out[1].startswith(f"INC-{incident.pk}: shape_mismatch (confidence ")
    assert out[2] == "culprit ranks: 3"
    assert out[3].startswith("first error: rank 3, job-f0dddebb/log_3.log:")
    assert out[3].endswith("mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)")
    assert out[4] == url


def test_a_failed_analysis_exits_1_with_the_reason(
    transactional_db, live_server, eager_celery, alice_token, crash_bundle, monkeypatch, capsys
):
    def unreadable(path, options):  # what the analyzer raises for a bundle it cannot read
        raise BundleError(f"{options.name}: the tar data is corrupt (unexpected end of data)")

    monkeypatch.setattr(analyzers, "analyze", unreadable)

    code = upload(live_server, alice_token, crash_bundle, "--wait", "--timeout", "60")

    incident = Incident.objects.get()
    assert code == cli.EXIT_ANALYSIS_FAILED
    assert incident.latest_run().state == RunState.FAILED
    assert capsys.readouterr().out.splitlines()[1] == (
        f"INC-{incident.pk}: analysis failed: "
        "crash_one_rank.tar.gz: the tar data is corrupt (unexpected end of data)"
    )


def test_a_wrong_token_exits_3_with_the_apis_message(
    transactional_db, live_server, crash_bundle, capsys
):
    code = upload(live_server, "rl_not-a-real-token", crash_bundle)

    assert code == cli.EXIT_HTTP_ERROR
    assert "upload failed: HTTP 401: " in capsys.readouterr().err
    assert not Incident.objects.exists()


def test_a_file_that_is_no_bundle_exits_3_and_stores_nothing(
    transactional_db, live_server, alice_token, tmp_path, capsys
):
    junk = tmp_path / "core.dump"
    junk.write_bytes(bytes(range(256)) * 64)

    code = upload(live_server, alice_token, junk)

    assert code == cli.EXIT_HTTP_ERROR
    assert "HTTP 400: " in capsys.readouterr().err
    assert not Incident.objects.exists()


def test_the_client_imports_neither_django_nor_the_analyzers():
    probe = (
        "import sys, ranklens_cli.cli as cli; cli.build_parser();"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'django', 'celery', 'analyzers', 'incidents', 'config'}))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)

    assert done.stdout.strip() == "[]", done.stderr


def test_the_console_script_is_installed_with_help():
    script = Path(sys.executable).parent / "ranklens"

    done = subprocess.run([script, "upload", "--help"], capture_output=True, text=True)

    assert done.returncode == 0
    assert "--wait" in done.stdout
    assert "RANKLENS_TOKEN" in done.stdout
