"""What a frame line says of the code that ran there: the job's, a package's, Python's own
machinery, or a statement typed at the interactive prompt."""

import io

import pytest

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.formats.traceback_frames import (
    is_generated_path,
    is_machinery_frame,
    is_package_frame,
    is_stdlib_path,
)
from analyzers.scan.member import scan_file


def scan(text: str, rank: int | None = None):
    return scan_file(io.BytesIO(text.encode()), FileInfo("log_0.log", FileKind.RANK_LOG, rank))


def errors(result):
    return [(e.line, e.source, e.message) for e in result.events if e.kind == EventKind.ERROR]


def test_a_statement_typed_at_the_prompt_marks_its_traceback_interactive() -> None:
    result = scan(
        ">>> engine.run(batch)\n"
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        "RuntimeError: backend failed\n",
    )
    (record,) = result.facts["tracebacks"]
    assert record["interactive"] is True


def test_a_script_frame_leaves_the_traceback_not_interactive() -> None:
    result = scan(
        "Traceback (most recent call last):\n"
        '  File "/srv/app/serve.py", line 30, in <module>\n'
        "    engine.run(batch)\n"
        "RuntimeError: backend failed\n",
    )
    (record,) = result.facts["tracebacks"]
    assert record["interactive"] is False


@pytest.mark.parametrize(
    ("frame", "machinery", "package"),
    [
        (
            '  File "/usr/lib/python3.10/multiprocessing/connection.py", line 383, in _recv',
            True,
            False,
        ),
        (
            '  File "/opt/venv/lib/python3.10/site-packages/torch/_ops.py", line 9, in f',
            False,
            True,
        ),
        ('  File "/usr/lib/python3/dist-packages/yaml/reader.py", line 7, in read', False, True),
        ('  File "<string>", line 1, in <module>', True, False),
        ('  File "/srv/job/train.py", line 5, in <listcomp>', True, False),
        ('  File "/srv/job/train.py", line 5, in main', False, False),
    ],
)
def test_a_frame_is_the_jobs_a_packages_or_machinery(
    frame: str, machinery: bool, package: bool
) -> None:
    assert (is_machinery_frame(frame), is_package_frame(frame)) == (machinery, package)


@pytest.mark.parametrize(
    ("path", "stdlib", "generated"),
    [
        ("/usr/lib/python3.11/json/decoder.py", True, False),
        ("<frozen importlib._bootstrap>", True, True),
        ("/usr/lib/python3.11/site-packages/numpy/core.py", False, False),
        ("<stdin>", False, True),
        ("/srv/job/train.py", False, False),
    ],
)
def test_a_frames_file_is_pythons_own_or_generated(
    path: str, stdlib: bool, generated: bool
) -> None:
    assert (is_stdlib_path(path), is_generated_path(path)) == (stdlib, generated)
