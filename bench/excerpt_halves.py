"""Split the test-excerpt set in two halves that stay the same from one build to the next.

Hint words are tuned on the misses of a rule ablation; scored on the same cases they flatter
themselves. So the excerpt set (`tests/analyzers/excerpt_set.py`) is cut in two before any
change: the words are tuned on the `studied` half only, and the `unseen` half, never looked
at, gives the honest figure::

    PYTHONPATH=. python -m pytest tests/analyzers -q -p tests.analyzers.excerpt_set
    python bench/excerpt_halves.py var/excerpt-set var/excerpt-halves
    python -m analyzers.ablation --corpus var/excerpt-halves/studied \
        --corpus var/excerpt-halves/unseen

A case goes by a SHA-256 of its name: the test that wrote it (`source` in its truth, such as
`tests/analyzers/x/test_y.py::test_z#0`). The folder's number (`e0042`) is not that name: the
set numbers its folders in order, so one test added or removed renumbers every later case and
would move it to the other half. Each half is a labelled set `analyzers.eval` reads
(`cases/<folder>/...`), the case folders copied as they are.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from collections import Counter
from pathlib import Path

HALVES = ("studied", "unseen")


def half_of(name: str) -> str:
    """The half a case of this name belongs to, the same on every machine and every build."""
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    return HALVES[digest[0] & 1]


def case_name(case: Path) -> str:
    """The test that wrote the case, or the folder's name for a set that does not record it."""
    truth = json.loads((case / "truth.json").read_text(encoding="utf-8"))
    return str(truth.get("source") or case.name)


def split(source: Path, target: Path) -> Counter[str]:
    """Copy every case of `source/cases` into `target/<half>/cases`; the cases per half."""
    counts: Counter[str] = Counter()
    for half in HALVES:
        shutil.rmtree(target / half, ignore_errors=True)
        (target / half / "cases").mkdir(parents=True)
    for case in sorted((source / "cases").iterdir()):
        if (case / "truth.json").is_file():
            half = half_of(case_name(case))
            shutil.copytree(case, target / half / "cases" / case.name)
            counts[half] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="the excerpt set (holds cases/)")
    parser.add_argument("target", type=Path, help="where the studied/ and unseen/ sets go")
    args = parser.parse_args(argv)
    counts = split(args.source, args.target)
    for half in HALVES:
        print(f"{half}: {counts[half]} cases in {args.target / half}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
