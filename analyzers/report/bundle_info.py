"""The bundle's part of the report: its files, and the warnings and limit hits that say what
was cut or read another way (checkpoints past the budget, start lines, host labels and offsets,
empty rank logs, ranks with no log in the bundle, a first error read from a file's last lines).

Gathered in one place so that every budget that cuts the reading is stated twice alike: as a
warning a person reads and as a `LimitHit` a program can test.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.checkpoints.restarts import starts_cut
from analyzers.core.limits import LimitHit, Limits
from analyzers.core.phrases import Said, say
from analyzers.core.report import BundleInfo, Diagnosis
from analyzers.core.types import Correlation, Event, FileInfo, FileScan, SkippedFile
from analyzers.formats.start_lines import (
    FIRST_REPEATS,
    LAST_REPEATS,
    START_LINES,
    STARTS_DROPPED,
)
from analyzers.ingest.bundle import Bundle
from analyzers.scan import host_labels, host_offsets
from analyzers.scan.store_budget import StoreBudget
from analyzers.timeline.rank_logs import empty_logs_said, logless_said


def bundle_info(
    name: str,
    sha256: str,
    size: int,
    scans: Sequence[FileScan],
    bundle: Bundle,
    store: StoreBudget,
    limits: Limits,
    correlation: Correlation,
    notes: Sequence[Said] = (),
) -> BundleInfo:
    """The bundle's part of the report; past `limits.listed_files` files are only counted."""
    hits = bundle.limit_hits()
    cut = _unplaced_checkpoints(scans)  # facts stop early there: the page's banner says so
    starts = _dropped_start_lines(scans)
    hosts = _dropped_host_labels(scans)
    offsets = [said for scan in scans for said in host_offsets.notes(scan)]
    empty, logless = _rank_logs_notes(correlation)
    if (store_hit := store.hit()) is not None:
        hits.append(store_hit)
    hits += [LimitHit("checkpoints", message.en, message.zh) for message in cut]
    hits += [LimitHit("start_lines", message.en, message.zh) for message in starts]
    hits += [LimitHit("host_labels", message.en, message.zh) for message in hosts]
    hits += [LimitHit("host_offsets", message.en, message.zh) for message in offsets]
    hits += [LimitHit("empty_logs", message.en, message.zh) for message in empty]
    hits += [LimitHit("missing_logs", message.en, message.zh) for message in logless]
    warnings = bundle.all_warnings() + cut + starts + hosts + offsets + empty + logless
    warnings += list(notes)
    files = inventory(scans, bundle.binary)
    return BundleInfo(
        name=name,
        sha256=sha256,
        size_bytes=size,
        files=files[: limits.listed_files],
        warnings=[warning.en for warning in warnings],
        warnings_zh=[warning.zh for warning in warnings],
        limits=hits,
        files_not_listed=max(0, len(files) - limits.listed_files),
    )


def inventory(
    scans: Sequence[FileScan], skipped: Sequence[tuple[int, SkippedFile]]
) -> list[FileInfo]:
    """Every file of the bundle in its order: those read, and those skipped as binary, each
    placed after the files read before it, so the list reads like the archive's."""
    files: list[FileInfo] = []
    done = 0
    for before, listed in skipped:
        files += [scan.info for scan in scans[done:before]]
        files.append(listed)
        done = before
    return files + [scan.info for scan in scans[done:]]


def tail_notes(diagnosis: Diagnosis, from_tails: Sequence[Event]) -> list[Said]:
    """The page's note that the first error was read from a file's last lines, because no
    line of the bundle read as an error (`classify.tail_reading`)."""
    cited = diagnosis.first_error
    if cited is None:
        return []
    for event in from_tails:
        if (event.file, event.line) == (cited.file, cited.line):
            return [say("bundle.read_from_tail", path=event.file, line=event.line)]
    return []


def _rank_logs_notes(correlation: Correlation) -> tuple[list[Said], list[Said]]:
    """Rank logs that are all empty, and ranks of the job with no log in the bundle (which
    leave no checkpoint known to be common to all ranks): `timeline.rank_logs`."""
    logs = correlation.rank_logs
    empty = [empty_logs_said(logs.all_empty)] if logs.all_empty else []
    logless = [logless_said(logs.logless, len(correlation.ranks))] if logs.logless else []
    return empty, logless


def _unplaced_checkpoints(scans: Sequence[FileScan]) -> list[Said]:
    """Files whose checkpoints went past the per-file budget: the report says it was cut."""
    warnings = []
    for scan in scans:
        track = scan.facts.get("checkpoints")
        if track is not None and track.unplaced:
            placed, more = f"{len(track):,}", f"{track.unplaced:,}"
            warnings.append(
                say("bundle.checkpoints_cut", path=scan.info.path, placed=placed, more=more)
            )
    return warnings


def _dropped_start_lines(scans: Sequence[FileScan]) -> list[Said]:
    """Files cut at a rank's start lines (`checkpoints.restarts`) that repeated it more often
    than `formats.start_lines` keeps: the attempts begun by the repeats between the kept ones
    read as one."""
    warnings = []
    for scan in scans:
        dropped = scan.facts.get(STARTS_DROPPED)
        if dropped and starts_cut(scan):
            kept = len(scan.facts.get(START_LINES, ()))
            warnings.append(
                say(
                    "bundle.start_lines_cut",
                    path=scan.info.path,
                    total=f"{kept + dropped:,}",
                    first=f"{FIRST_REPEATS + 1:,}",
                    last=f"{LAST_REPEATS:,}",
                    more=f"{dropped:,}",
                )
            )
    return warnings


def _dropped_host_labels(scans: Sequence[FileScan]) -> list[Said]:
    """Files whose host labels named more hosts than `scan.host_labels` keeps: the ranks of
    the later hosts' lines are placed on no host."""
    return [
        say(
            "bundle.host_labels_cut",
            path=scan.info.path,
            kept=f"{host_labels.MAX_HOSTS:,}",
        )
        for scan in scans
        if scan.facts.get(host_labels.DROPPED)
    ]
