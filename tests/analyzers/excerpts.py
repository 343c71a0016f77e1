"""Diagnose a few short log files the way the pipeline does, for tests written as excerpts.

Most knowledge tests hold a handful of lines in a real format and check the label and the
line to read first; they need the scan → correlate → diagnose chain without an archive.
"""

from __future__ import annotations

import io
from collections.abc import Mapping

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.classify.accelerator import accelerator_of
from analyzers.core.types import Diagnosis, FileInfo, FileScan
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


def diagnose_files(files: Mapping[str, str]) -> Diagnosis:
    """Several files of one small bundle, diagnosed together."""
    matcher = CheckpointMatcher(())
    scans = [scan_text(path, text, matcher) for path, text in files.items()]
    place_year_less_times(scans)
    assign_worker_ranks(scans)
    correlation = correlate(scans, None)
    return diagnose(scans, correlation, correlation.world_size, accelerator_of(scans))


def diagnose_text(path: str, text: str) -> Diagnosis:
    return diagnose_files({path: text})
