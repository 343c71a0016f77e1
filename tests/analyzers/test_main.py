"""`python -m analyzers --json`: JSON on stdout whenever it exits 0; else one line on stderr."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.analyzers import hostile

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "analyzers", *args],
        capture_output=True,
        cwd=ROOT,
        env=env,
        check=False,
    )


@pytest.mark.parametrize(
    "build",
    [
        lambda d: hostile.named(d / "names.tar", ["bad\udcff.log", "new\nline.log"]),
        lambda d: hostile.nested(d / "n.tar.gz", 20),
        lambda d: hostile.zip_named_tgz(d / "z.tar.gz"),
    ],
    ids=["odd member names", "nested archives", "mislabelled archive"],
)
def test_exit_0_always_comes_with_json(tmp_path, build):
    done = _run("--json", "--workers", "1", str(build(tmp_path)), env={"LANG": "C"})

    assert done.returncode == 0
    assert json.loads(done.stdout.decode("utf-8"))["bundle"]["files"] is not None


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda d: hostile.corrupt_deflate(d / "c.tar.gz", at=300_000), "corrupt or truncated"),
        (lambda d: hostile.overlapping_zip(d / "o.zip"), "the archive is corrupt"),
        (lambda d: hostile.write(d / "x.bin", b"\x7fELF" + bytes(64)), "not a log bundle"),
    ],
    ids=["corrupt deflate", "overlapping zip entries", "not a bundle"],
)
def test_failure_is_one_line_on_stderr_and_a_non_zero_exit(tmp_path, build, message):
    done = _run("--json", "--workers", "1", str(build(tmp_path)))

    assert done.returncode != 0
    assert done.stdout == b""
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1
    assert message in lines[0]


def test_a_refused_checkpoint_pattern_is_one_line_too(tmp_path):
    bundle = hostile.named(tmp_path / "ok.tar", ["rank0.log"])

    done = _run("--json", "--checkpoint", r"(a)\1", str(bundle))

    assert done.returncode == 2
    assert done.stderr.decode().count("\n") == 1
    assert "backreferences" in done.stderr.decode()
