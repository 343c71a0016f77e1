"""Collect the log excerpts the analyzer tests diagnose into a labelled set for the rule ablation.

The knowledge tests hold a few lines each in a real format and check the label and the line to
read first; each is a case whose first error a rule reads. Run the analyzer tests with this
module as a plugin and every `diagnose_files` call (`diagnose_text` goes through it) made by a
passing test whose source reads `first_error` becomes a case: the files it diagnosed, and as
its truth the category and first error the test accepted. Calls with no first error are left
out; identical inputs are kept once::

    PYTHONPATH=. python -m pytest tests/analyzers -q -p tests.analyzers.excerpt_set
    python -m analyzers.ablation --corpus var/excerpt-set

The set is written to `EXCERPT_SET` (default `var/excerpt-set`) as `cases/eNNNN/<files>` with a
`truth.json`, the layout `analyzers.eval` reads. Case names are neutral: the folder's name
leads every path of the packed bundle, and a test's name (`test_rank3_...`) must not tell the
analyzer a rank.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.analyzers import excerpts

_pending: dict[str, list[tuple[dict[str, str], str, str]]] = {}
_kept: dict[str, tuple[str, dict[str, str], str, str]] = {}
_current: list[str | None] = [None]


def pytest_configure(config: pytest.Config) -> None:
    original = excerpts.diagnose_files

    def recording(files: Mapping[str, str]) -> Any:
        diagnosis = original(files)
        node = _current[0]
        if node is not None and diagnosis.first_error is not None:
            case = (dict(files), diagnosis.category, diagnosis.first_error.text)
            _pending.setdefault(node, []).append(case)
        return diagnosis

    excerpts.diagnose_files = recording  # test modules import it after this


def pytest_runtest_setup(item: pytest.Item) -> None:
    _current[0] = item.nodeid if _reads_first_error(item) else None


def _reads_first_error(item: pytest.Item) -> bool:
    try:
        return "first_error" in inspect.getsource(item.function)  # type: ignore[attr-defined]
    except (AttributeError, OSError, TypeError):
        return False


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call":
        return
    calls = _pending.pop(report.nodeid, [])
    if not report.passed:
        return
    for index, (files, category, first) in enumerate(calls):
        key = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()
        if key not in _kept and all(_relative(path) for path in files):
            _kept[key] = (f"{report.nodeid}#{index}", files, category, first)


def _relative(path: str) -> bool:
    return not Path(path).is_absolute() and ".." not in Path(path).parts


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not _kept:
        return
    cases = Path(os.environ.get("EXCERPT_SET", "var/excerpt-set")) / "cases"
    cases.mkdir(parents=True, exist_ok=True)
    for number, (node, files, category, first) in enumerate(sorted(_kept.values())):
        case = cases / f"e{number:04d}"
        case.mkdir(exist_ok=True)
        for path, text in files.items():
            target = case / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        truth = {"category": category, "first_error_contains": first.strip(), "source": node}
        (case / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
