"""moreutils' `ts` in front of every line does not change what a log says.

`some_job 2>&1 | ts '%Y-%m-%dT%H:%M:%.S'` (or `ts '%FT%T%z'`, or plain `ts`) stamps each line
a process writes with the time it arrived. Every corpus case and torch bundle is read again
with such a stamp on every line of every file: the category, the first error (its file, line,
rank, and its text behind the stamp) and the culprit ranks are those of the unstamped copy.
"""

from __future__ import annotations

import io
import tarfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.labelled_sets import as_bundle, is_corpus, samples
from tests.corpus_path import CORPUS

SAMPLES = samples(CORPUS) if is_corpus(CORPUS) else []
Stamp = Callable[[int], str]


def _iso_fraction(n: int) -> str:  # ts '%Y-%m-%dT%H:%M:%.S'
    return f"2026-03-01T10:22:{n % 60:02d}.{n * 7919 % 1_000_000:06d} "


def _iso_seconds(n: int) -> str:  # ts '%FT%T'
    return f"2026-03-01T10:22:{n % 60:02d} "


def _iso_zoned(n: int) -> str:  # ts '%FT%T%z'
    return f"2026-03-01T10:22:{n % 60:02d}+0800 "


def _default(n: int) -> str:  # ts
    return f"Mar 01 10:22:{n % 60:02d} "


STAMPS = [_iso_fraction, _iso_seconds, _iso_zoned, _default]


def _stamped(data: bytes, stamp: Stamp) -> bytes:
    lines = data.split(b"\n")
    last = [lines.pop()] if lines[-1] == b"" else []
    return b"\n".join([stamp(n).encode() + line for n, line in enumerate(lines)] + last)


def _restamp(bundle: Path, stamp: Stamp, where: Path) -> Path:
    stamped = where / bundle.name
    with tarfile.open(bundle) as source, tarfile.open(stamped, "w:gz") as target:
        for member in source.getmembers():
            if member.isfile():
                data = _stamped(source.extractfile(member).read(), stamp)  # type: ignore[union-attr]
                info = tarfile.TarInfo(member.name)
                info.size = len(data)
                target.addfile(info, io.BytesIO(data))
    return stamped


def _reading(bundle: Path, stamp: Stamp | None) -> dict[str, Any]:
    diagnosis = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()["diagnosis"]
    first = diagnosis["first_error"]
    if first is not None:
        prefix = stamp(first["line"] - 1) if stamp else ""
        text = first["text"]
        first = (first["file"], first["line"], first["rank"], text.removeprefix(prefix))
    return {
        "category": diagnosis["category"],
        "first_error": first,
        "culprit_ranks": diagnosis["culprit_ranks"],
    }


@pytest.mark.parametrize("stamp", STAMPS, ids=lambda stamp: stamp.__name__.lstrip("_"))
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda sample: sample.name)
def test_a_ts_stamp_on_every_line_changes_no_reading(sample, stamp, tmp_path):
    with as_bundle(sample) as bundle:
        plain = _reading(bundle, None)
        assert _reading(_restamp(bundle, stamp, tmp_path), stamp) == plain
