"""The analysis pipeline: bundle → per-file scans → rank correlation → diagnosis → report.

Each stage is a pure function of the previous stage's output, so the CLI, the Celery task
and the tests all run exactly this code.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Sequence
from pathlib import Path

from analyzers.checkpoints.track import JobBudget
from analyzers.classify.accelerator import accelerator_of
from analyzers.classify.hints import load_hints
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tail_reading import read_tails
from analyzers.core import regex_programs
from analyzers.core.limits import Limits
from analyzers.core.options import AnalyzeOptions
from analyzers.core.phrases import phrasebook
from analyzers.core.report import Diagnosis, Report
from analyzers.core.types import Correlation, FileScan
from analyzers.ingest.bundle import Bundle
from analyzers.library import matching as cases
from analyzers.report.bundle_info import bundle_info, tail_notes
from analyzers.report.diagnose import diagnose
from analyzers.report.fingerprint import load_miner
from analyzers.report.not_started import mark_workers_not_started
from analyzers.report.rank_ends import settle_rank_statuses
from analyzers.scan.parallel import ScanSettings, scan_members
from analyzers.scan.quiet_tail import TailBudget
from analyzers.scan.store_budget import StoreBudget
from analyzers.timeline.agent_consoles import mark_agent_consoles
from analyzers.timeline.agent_ranks import place_agent_ranks
from analyzers.timeline.bundle_year import place_year_less_times
from analyzers.timeline.correlate import correlate
from analyzers.timeline.rank_hosts import rank_hosts
from analyzers.timeline.shared_tags import keep_slots_of_shared_tags
from analyzers.timeline.worker_ranks import assign_worker_ranks
from analyzers.tree import walk as tree

# Checkpoints placed per job (~26 bytes each with their rank sequence): the rest are counted.
MAX_JOB_CHECKPOINTS = 8_000_000
VERSION = "0.3.0"  # stored on every run; bump when reports change meaning


def analyze(path: str | os.PathLike[str], options: AnalyzeOptions | None = None) -> Report:
    """Analyze one bundle (archive, single log or directory) and return its report.

    Raises `analyzers.BundleError` with a user-facing message for unreadable input.
    """
    options = options or AnalyzeOptions()
    limits = options.limits or Limits.from_env()
    regex_programs.analysis_ran()  # the regex programs kept at exit are this run's
    progress = _Progress(options)
    bundle = Bundle(
        path,
        on_progress=lambda done: progress(5 + int(60 * done), "reading logs"),
        limits=limits,
        name=options.name,
    )
    progress(5, "reading log files")
    scans, store = _scan_bundle(bundle, options, limits, progress)
    from_tails = read_tails(scans, load_knowledge())  # only when no line read as an error
    sha256, size = bundle.sha256()  # computed while reading, except for zip and directories
    progress(70, "correlating rank timelines")
    world_size = _world_size_hint(scans)
    correlation = correlate(scans, world_size)
    progress(80, "classifying the failure")
    stack = accelerator_of(scans)
    diagnosis = diagnose(scans, correlation, correlation.world_size, stack)
    mark_workers_not_started(diagnosis, correlation)
    settle_rank_statuses(correlation, scans)  # after every stage that reads the statuses
    _place_last_common(diagnosis, correlation)
    progress(90, "walking the diagnosis tree and matching known cases")
    _walk_tree(diagnosis, correlation, scans, stack)
    matches = cases.match_cases(diagnosis, scans, tree_links=tree.case_links(), stack=stack)
    progress(98, "writing the report")
    notes = tail_notes(diagnosis, from_tails)
    info = bundle_info(
        Path(path).name, sha256, size, scans, bundle, store, limits, correlation, notes
    )
    return Report(
        bundle=info,
        world_size=correlation.world_size,
        ranks=correlation.ranks,
        diagnosis=diagnosis,
        cases=matches,
        timeline=correlation.timeline,
        environment=_environment(scans, stack, correlation),
        correlation=_correlation_facts(correlation),
        analyzer_version=VERSION,
    )


def _scan_bundle(
    bundle: Bundle, options: AnalyzeOptions, limits: Limits, progress: _Progress
) -> tuple[list[FileScan], StoreBudget]:
    """Every member scanned (in worker processes when asked), then the layout the files
    share read across them: years, agent consoles, worker and agent ranks."""
    settings = ScanSettings(tuple(options.checkpoint_patterns), options.store_dir)
    store = StoreBudget(options.store_dir, limits.store_bytes, limits.store_files)
    placed = JobBudget(MAX_JOB_CHECKPOINTS)
    warm_up = _WarmUp()
    tails = TailBudget()

    def scanned(scan: FileScan) -> None:
        warm_up.start()  # the scanner processes exist by now: no fork sees the thread
        placed.take(scan)
        tails.take(scan)
        progress(5 + int(60 * bundle.fraction_read()), f"read {scan.info.path}")

    scans = scan_members(bundle.members(), settings, options.workers, scanned, store=store)
    warm_up.join()
    bundle.check_holds_text()
    place_year_less_times(scans)  # a file that never said its year takes the bundle's
    mark_agent_consoles(scans)  # an agent's console kept under any name
    assign_worker_ranks(scans)  # serving workers' tags that need the bundle's layout
    keep_slots_of_shared_tags(scans)  # one rank tag in several slots' files names none of them
    place_agent_ranks(scans)  # a second torchrun agent's local ranks, made global
    return scans, store


def _place_last_common(diagnosis: Diagnosis, correlation: Correlation) -> None:
    common = correlation.last_common
    diagnosis.last_common_checkpoint = common.text if common else None
    diagnosis.last_common_checkpoint_occurrence = common.index + 1 if common else None
    diagnosis.last_common_checkpoint_qualified = common.qualified if common else None


def _correlation_facts(correlation: Correlation) -> dict[str, object]:
    common = correlation.last_common
    return {
        "checkpoints": correlation.timeline.total(),
        "last_common_checkpoint_qualified": common.qualified if common else None,
        "ahead_ranks": correlation.ahead_ranks,
        "behind_ranks": correlation.behind_ranks,
        "missing_ranks": correlation.missing_ranks,
        "workers_started": correlation.workers_started,
        "divergent_ranks": correlation.divergent_ranks,
        "divergence": correlation.divergence,
        "divergence_at": correlation.divergence_at,
        "clock_offsets": {str(rank): off for rank, off in correlation.clock_offsets.items()},
    }


def _walk_tree(
    diagnosis: Diagnosis,
    correlation: Correlation,
    scans: Sequence[FileScan],
    accelerator: str | None,
) -> None:
    """The tree's path, its questions and answers worded for the stack the advice is for."""
    stack = tree.tree_stack(diagnosis.stack, accelerator)
    steps = tree.walk_tree(tree.facts_from(diagnosis, correlation, scans), stack=stack)
    diagnosis.tree_steps = steps
    diagnosis.tree_path = [step.node for step in steps]


def _world_size_hint(scans: Sequence[FileScan]) -> int | None:
    """The largest world size any env dump or launcher line states."""
    sizes = [scan.facts["world_size"] for scan in scans if scan.facts.get("world_size")]
    return max(sizes) if sizes else None


def _environment(
    scans: Sequence[FileScan], stack: str | None, correlation: Correlation
) -> dict[str, object]:
    """Env vars, versions and npu-smi snapshots, merged across files, the accelerator
    stack the bundle shows and the host each rank ran on, for the report."""
    env: dict[str, object] = {}
    if stack is not None:
        env["accelerator"] = stack
    if hosts := rank_hosts(scans, correlation.ranks):
        env["rank_hosts"] = hosts
    for scan in scans:
        for topic in ("env", "versions"):
            if scan.facts.get(topic):
                env.setdefault(topic, {}).update(scan.facts[topic])  # type: ignore[attr-defined]
        if scan.facts.get("npu_smi"):
            env.setdefault("npu_smi", []).append(  # type: ignore[attr-defined]
                {"file": scan.info.path, **scan.facts["npu_smi"]}
            )
    return env


class _WarmUp:
    """Reads the knowledge of the last stages (signatures, fallback hints, tree, case library,
    the report's phrasebook) on a thread while the logs are scanned: the parent process mostly waits on
    its scanners then, and what comes after the scan runs on one core. A broken file is left for the stage that
    reads it to report."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._load, name="knowledge", daemon=True)
            self._thread.start()

    def join(self) -> None:
        if self._thread is not None:
            self._thread.join()

    @staticmethod
    def _load() -> None:
        with contextlib.suppress(Exception):
            load_knowledge()
            load_hints()
            cases.load_cases()
            tree.case_links()
            load_miner()
            phrasebook()


class _Progress:
    def __init__(self, options: AnalyzeOptions) -> None:
        self._callback = options.progress

    def __call__(self, percent: int, step: str) -> None:
        if self._callback:
            self._callback(percent, step)
