"""Diagnose a few short log files the way the pipeline does, for tests written as excerpts.

Most knowledge tests hold a handful of lines in a real format and check the label and the
line to read first; they need the scan → correlate → diagnose chain without an archive.
They state what they expect with `assert_reads`, or read pieces with `rules_of` and
`alternative_labels`, so every test checks a reading the same way.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.classify.accelerator import accelerator_of
from analyzers.core.report import Diagnosis
from analyzers.core.types import Correlation, FileInfo, FileScan
from analyzers.ingest.layout import classify_path
from analyzers.report.diagnose import diagnose
from analyzers.scan.member import scan_file
from analyzers.timeline.bundle_year import place_year_less_times
from analyzers.timeline.correlate import correlate
from analyzers.timeline.worker_ranks import assign_worker_ranks


def scan_text(path: str, text: str, matcher: CheckpointMatcher | None = None) -> FileScan:
    """One file, classified by its path as in a bundle."""
    kind, rank = classify_path(path)
    info = FileInfo(path=path, kind=kind, rank=rank, size_bytes=len(text))
    return scan_file(io.BytesIO(text.encode()), info, matcher or CheckpointMatcher(()))


def correlate_files(files: Mapping[str, str]) -> tuple[list[FileScan], Correlation]:
    """Several files of one small bundle, scanned and their ranks correlated."""
    matcher = CheckpointMatcher(())
    scans = [scan_text(path, text, matcher) for path, text in files.items()]
    place_year_less_times(scans)
    assign_worker_ranks(scans)
    return scans, correlate(scans, None)


def diagnose_files(files: Mapping[str, str]) -> Diagnosis:
    """Several files of one small bundle, diagnosed together."""
    scans, correlation = correlate_files(files)
    return diagnose(scans, correlation, correlation.world_size, accelerator_of(scans))


def diagnose_text(path: str, text: str) -> Diagnosis:
    return diagnose_files({path: text})


def rules_of(diagnosis: Diagnosis) -> set[str]:
    """The rules that read any cited line: which knowledge spoke, whatever role its line took."""
    return {evidence.rule for evidence in diagnosis.evidence if evidence.rule}


def alternative_labels(diagnosis: Diagnosis) -> list[str]:
    """The labels offered beside the chosen one, strongest first as the report lists them."""
    return [alternative.category for alternative in diagnosis.alternatives]


def assert_reads(
    diagnosis: Diagnosis,
    category: str,
    *,
    first_error: str,
    rule: str | None = None,
    beside: Iterable[str] = (),
) -> None:
    """Fail unless the diagnosis gives `category`, a first error holding the phrase, the rule
    among those that read (when named) and each label of `beside` among the alternatives.

    On failure the message shows the whole reading and the root cause it gave, so a changed
    rule is seen at once rather than one mismatch at a time.
    """
    line = diagnosis.first_error.text if diagnosis.first_error else None
    wrong = [
        f"category {category!r}" if diagnosis.category != category else "",
        "a first error" if line is None else "",
        f"a first error holding {first_error!r}" if line and first_error not in line else "",
        f"rule {rule!r}" if rule and rule not in rules_of(diagnosis) else "",
        *(f"{label!r} beside" for label in beside if label not in alternative_labels(diagnosis)),
    ]
    assert not any(wrong), _reading(diagnosis, [w for w in wrong if w])


def _reading(diagnosis: Diagnosis, wanted: list[str]) -> str:
    line = repr(diagnosis.first_error.text) if diagnosis.first_error else "no first error"
    return (
        f"expected {', '.join(wanted)}; read {diagnosis.category} from {line}, "
        f"rules {sorted(rules_of(diagnosis))}, beside {alternative_labels(diagnosis)}; "
        f"root cause: {diagnosis.root_cause}"
    )
