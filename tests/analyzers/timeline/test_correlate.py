"""Rank correlation on real multi-rank runs (the torch corpus), on fixture bundles that
reproduce real failure patterns, and on small hand-built scans for the edge cases."""

from __future__ import annotations

import io
import json
import shutil
import tarfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import (
    Correlation,
    Event,
    EventKind,
    FileInfo,
    FileKind,
    FileScan,
    RankStatus,
)
from analyzers.ingest.layout import classify_path
from analyzers.scan.member import scan_file
from analyzers.timeline.correlate import correlate

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "multirank"
# The scanner reads "timeout=10s" in a plain-print init line as an error (its error words
# include "timeout"); until it stops doing so, the first error of such ranks is that line.


def _scan_tree(root: Path, patterns: tuple[str, ...] = ()) -> list[FileScan]:
    """Scan every file below root the way the pipeline does."""
    matcher = CheckpointMatcher(patterns)
    scans = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = path.relative_to(root).as_posix()
        kind, rank = classify_path(relative)
        info = FileInfo(relative, kind, rank, size_bytes=path.stat().st_size)
        with path.open("rb") as stream:
            scans.append(scan_file(stream, info, matcher))
    return scans


def _by_rank(correlation):
    return {summary.rank: summary for summary in correlation.ranks}


def _checkpoints(correlation, rank):
    timeline = correlation.timeline
    return [timeline.checkpoint(rank, i) for i in range(len(timeline.ranks.get(rank, ())))]


# --- the real torch corpus -----------------------------------------------------------------

TORCH_BUNDLES = ["crash_one_rank", "divergent_monitored_barrier", "healthy", "killed_rank"]


def _torch_run(corpus: Path, tmp_path: Path, bundle: str):
    """(correlation, truth) for one real torch bundle."""
    with tarfile.open(corpus / "torch" / f"{bundle}.tar.gz") as archive:
        archive.extractall(tmp_path, filter="data")
    truth = json.loads((corpus / "torch" / f"{bundle}.truth.json").read_text())
    return correlate(_scan_tree(tmp_path), None), truth


@pytest.fixture(params=TORCH_BUNDLES)
def torch_run(request, corpus, tmp_path):
    return _torch_run(corpus, tmp_path, request.param)


def test_torch_corpus_per_rank_last_checkpoints(torch_run):
    correlation, truth = torch_run
    ranks = _by_rank(correlation)
    assert correlation.world_size == truth["world_size"]
    assert {str(r): s.last_checkpoint for r, s in ranks.items()} == truth[
        "per_rank_last_checkpoint"
    ]
    assert {str(r): s.last_checkpoint_qualified for r, s in ranks.items()} == truth[
        "per_rank_last_checkpoint_qualified"
    ]
    assert {str(r): s.checkpoints for r, s in ranks.items()} == truth["per_rank_checkpoint_count"]


def test_torch_corpus_last_common_checkpoint(torch_run):
    correlation, truth = torch_run
    common = correlation.last_common
    assert correlation.last_common_checkpoint == truth["last_common_checkpoint"]
    assert common.qualified == truth["last_common_checkpoint_qualified"]


@pytest.mark.parametrize(
    "bundle",
    [
        "crash_one_rank",
        "divergent_monitored_barrier",
        "healthy",
        "killed_rank",
    ],
)
def test_torch_corpus_first_error_per_rank(corpus, tmp_path, bundle):
    correlation, truth = _torch_run(corpus, tmp_path, bundle)
    firsts = {str(r): s.first_error for r, s in _by_rank(correlation).items()}
    assert {r: e.text if e else None for r, e in firsts.items()} == truth[
        "per_rank_first_error_line"
    ]
    rank = str(truth["first_error_rank"])
    if truth["first_error_file"] in truth["rank_log_files"].get(rank, []):
        assert firsts[rank].file == truth["first_error_file"]


@pytest.mark.parametrize(
    ("bundle", "statuses", "ahead"),
    [
        ("crash_one_rank", {0: "error", 1: "error", 2: "error", 3: "error"}, []),
        ("divergent_monitored_barrier", {0: "error", 1: "error", 2: "error", 3: "error"}, [2]),
        ("healthy", {0: "ok", 1: "ok", 2: "ok", 3: "ok"}, []),
        # rank 1 died of SIGSEGV; rank 3, SIGTERMed by torchrun, reads as waiting here: the
        # report settles it killed (tests/analyzers/report/test_rank_ends.py)
        ("killed_rank", {0: "error", 1: "killed", 2: "error", 3: "hung"}, []),
    ],
)
def test_torch_corpus_statuses(corpus, tmp_path, bundle, statuses, ahead):
    with tarfile.open(corpus / "torch" / f"{bundle}.tar.gz") as archive:
        archive.extractall(tmp_path, filter="data")
    correlation = correlate(_scan_tree(tmp_path), None)
    assert {r: str(s.status) for r, s in _by_rank(correlation).items()} == statuses
    assert correlation.ahead_ranks == ahead
    assert correlation.missing_ranks == []
    assert correlation.divergent_ranks == []


def test_torch_corpus_launcher_copy_is_not_counted_twice(corpus, tmp_path):
    with tarfile.open(corpus / "torch" / "killed_rank.tar.gz") as archive:
        archive.extractall(tmp_path, filter="data")
    correlation = correlate(_scan_tree(tmp_path), None)
    rank0 = _by_rank(correlation)[0]
    assert rank0.checkpoints == 11
    assert rank0.files[-1].endswith("launcher.log")
    assert all("attempt_0/0/" in c.file for c in _checkpoints(correlation, 0))


# --- fixture bundles reproducing real failure patterns ---------------------------------------


def _fixture(name: str):
    return correlate(_scan_tree(FIXTURES / name), None)


def test_rank_skipping_a_collective_diverges():
    correlation = _fixture("skipped_collective")
    assert correlation.divergent_ranks == [2]
    assert correlation.divergence == (
        "rank 2 left the common sequence after 'layer 1 / attention passed' (checkpoint 7): it "
        "logged 'layer 1 passed' where ranks 0, 1, 3 logged 'layer 1 / MoE passed'."
    )
    assert {s.checkpoints for s in correlation.ranks} == {10}
    assert correlation.last_common_checkpoint == "norm passed"
    assert correlation.last_common.qualified == "layer 2 / norm passed"
    assert _by_rank(correlation)[2].last_checkpoint_qualified == "layer 2 / attention passed"


def test_rank_dying_in_weight_loading_while_others_wait():
    correlation = _fixture("weights_death")
    ranks = _by_rank(correlation)
    assert ranks[3].status == RankStatus.ERROR
    assert (ranks[3].checkpoints, ranks[3].last_checkpoint) == (0, None)
    assert [ranks[r].last_checkpoint for r in (0, 1, 2)] == ["load weights passed"] * 3
    assert correlation.behind_ranks == [3]
    assert correlation.last_common_checkpoint is None
    assert correlation.clock_offsets == {}


def test_first_error_of_the_rank_that_failed_to_load_weights():
    ranks = _by_rank(_fixture("weights_death"))
    assert ranks[3].first_error.text.startswith("[rank3]: FileNotFoundError: [Errno 2]")


def test_killed_rank_from_the_launchers_report():
    correlation = _fixture("killed_rank")
    ranks = _by_rank(correlation)
    assert {r: str(s.status) for r, s in ranks.items()} == {
        0: "error",
        1: "error",
        2: "killed",
        3: "hung",
    }
    assert ranks[2].first_error is None
    assert {s.checkpoints for s in correlation.ranks} == {20}
    assert correlation.last_common_checkpoint == "decode step 1 passed"
    assert (correlation.ahead_ranks, correlation.behind_ranks) == ([], [])


def test_the_launchers_report_behind_srun_labels_stays_the_launchers(tmp_path):
    """`srun --label` puts its task's number before every line the agent writes (`3: ` for
    the node started as task 3), the agent's records of its children and the ChildFailedError
    summary included: they still report on the ranks and are no rank's own output."""
    shutil.copytree(FIXTURES / "killed_rank", tmp_path, dirs_exist_ok=True)
    launcher = next(tmp_path.rglob("launcher.log"))
    lines = launcher.read_text().splitlines(keepends=True)
    launcher.write_text("".join(f"3: {line}" for line in lines))
    ranks = _by_rank(correlate(_scan_tree(tmp_path), None))
    assert {r: str(s.status) for r, s in ranks.items()} == {
        0: "error",
        1: "error",
        2: "killed",
        3: "hung",
    }
    assert ranks[2].first_error is None
    assert ranks[3].first_error is None


SHARED_CONSOLE = """\
W1205 10:40:01.123000 4411 torch/distributed/run.py:793] *****************************************
[rank1]:W1205 10:40:09.512000 4421 torch/distributed/distributed_c10d.py:2889] Some parameters are unused
[rank0]: Traceback (most recent call last):
[rank0]:   File "/home/u/train.py", line 33, in main
[rank0]:     out = model(x)
[rank0]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x32)
"""


def test_a_rank_whose_only_line_in_a_shared_console_is_a_warning_ran(tmp_path):
    """Rank 1 wrote one tagged warning and nothing else before rank 0 failed: it ran (the
    job has two ranks), it is not a rank without a log."""
    (tmp_path / "job").mkdir()
    (tmp_path / "job" / "console.log").write_text(SHARED_CONSOLE)
    correlation = correlate(_scan_tree(tmp_path), None)
    assert correlation.world_size == 2
    assert correlation.missing_ranks == []
    assert str(_by_rank(correlation)[0].status) == "error"


LONG_CONSOLE_START = (
    "[rank{0}]:I1205 10:40:01.000000 441{0} train.py:20] init process group: backend=gloo "
    "rank={0} world_size=3\n"
)
LONG_CONSOLE_STEP = "[rank0]:I1205 10:40:{0:02d}.000000 4410 train.py:41] step {1} loss 1.25\n"
LONG_CONSOLE_END = (
    "[rank0]: Traceback (most recent call last):\n"
    "[rank0]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x32)\n"
)


def _long_console(tmp_path, late_line: str) -> Correlation:
    """Ranks 0 and 1 start, rank 0 then prints ~140 KiB of steps, more than twice the head
    the hints read (64 KiB), before `late_line` and rank 0's failure."""
    steps = "".join(LONG_CONSOLE_STEP.format(i % 60, i) for i in range(2_000))
    text = LONG_CONSOLE_START.format(0) + LONG_CONSOLE_START.format(1) + steps
    (tmp_path / "job").mkdir()
    (tmp_path / "job" / "console.log").write_text(text + late_line + LONG_CONSOLE_END)
    return correlate(_scan_tree(tmp_path), None)


def test_a_rank_whose_only_tagged_line_comes_far_past_the_head_ran(tmp_path):
    late = "[rank2]:W1205 10:41:09.512000 4412 torch/distributed/distributed_c10d.py:2889] "
    correlation = _long_console(tmp_path, late + "Some parameters are unused\n")
    assert correlation.world_size == 3
    assert correlation.missing_ranks == []


def test_a_rank_tag_inside_a_message_far_past_the_head_is_no_line_of_that_rank(tmp_path):
    late = "[rank0]:W1205 10:41:09.512000 4410 train.py:57] still waiting for [rank2]: to send\n"
    correlation = _long_console(tmp_path, late)
    assert correlation.world_size == 3
    assert correlation.missing_ranks == [2]


def test_hang_without_any_error():
    correlation = _fixture("hang_no_error")
    ranks = _by_rank(correlation)
    assert {s.status for s in correlation.ranks} == {RankStatus.HUNG}
    assert all(s.first_error is None for s in correlation.ranks)
    assert correlation.behind_ranks == [1]
    assert ranks[1].last_checkpoint == "layer 2 passed"
    assert ranks[0].last_checkpoint_qualified == "layer 3 / norm passed"
    assert correlation.last_common_checkpoint == "layer 2 passed"
    assert correlation.divergent_ranks == []


def test_untimed_print_logs_merge_stdout_stderr_and_launcher_copy():
    correlation = _fixture("untimed_torchrun")
    ranks = _by_rank(correlation)
    assert {s.checkpoints for s in correlation.ranks} == {19}
    assert all(c.timestamp is None for r in ranks for c in _checkpoints(correlation, r))
    assert correlation.clock_offsets == {}
    assert ranks[1].first_error.text.startswith("[rank1]: RuntimeError: probability tensor")
    assert ranks[1].first_error.file.endswith("attempt_0/1/stderr.log")
    assert {str(s.status) for s in correlation.ranks} == {"error"}
    assert correlation.last_common_checkpoint == "decode step 0 passed"


def test_skewed_clocks_are_measured_from_shared_checkpoints():
    correlation = _fixture("skewed_clocks")
    offsets = correlation.clock_offsets
    assert sorted(offsets) == [0, 1, 2, 3]
    assert offsets[0] == 0.0
    assert abs(offsets[1]) < 0.01
    assert offsets[2] == pytest.approx(2.75, abs=0.01)
    assert offsets[3] == pytest.approx(2.75, abs=0.01)
    assert {s.status for s in correlation.ranks} == {RankStatus.OK}
    assert correlation.last_common_checkpoint == "model run success"


def test_user_pattern_adds_checkpoints_through_the_scanner():
    plain = correlate(_scan_tree(FIXTURES / "skewed_clocks"), None)
    custom = correlate(_scan_tree(FIXTURES / "skewed_clocks", (r"generated tokens",)), None)
    assert {s.checkpoints for s in plain.ranks} == {22}
    assert {s.checkpoints for s in custom.ranks} == {23}
    assert [c.text for c in _checkpoints(custom, 3)[-2:]] == [
        "generated tokens",
        "model run success",
    ]


# --- hand-built scans: edge cases --------------------------------------------------------------

T0 = datetime(2026, 11, 30, 8, 0, 0)


def _log(path, rank, texts, *, start=T0, kind=FileKind.RANK_LOG, errors=(), timed=True):
    """A scan of one rank log: checkpoint texts in order, then error lines."""
    events = [
        Event(
            path,
            n,
            text,
            EventKind.CHECKPOINT,
            text,
            rank,
            start + timedelta(seconds=n) if timed else None,
        )
        for n, text in enumerate(texts, start=1)
    ]
    events += [
        Event(path, len(texts) + n, text, EventKind.ERROR, text, rank)
        for n, text in enumerate(errors, start=1)
    ]
    info = FileInfo(path, kind, rank if kind == FileKind.RANK_LOG else None, lines=len(events) + 3)
    return FileScan(info, events)


PREFILL = [
    "load weights passed",
    "norm passed",
    "attention passed",
    "layer 0 passed",
    "prefill passed",
]


def test_rank_without_any_file_is_missing():
    scans = [_log(f"log_{r}.log", r, PREFILL) for r in range(3)]
    correlation = correlate(scans, 4)
    assert correlation.missing_ranks == [3]
    assert _by_rank(correlation)[3].status == RankStatus.MISSING
    assert correlation.behind_ranks == []


def test_a_rank_without_any_log_leaves_the_common_checkpoint_unknown():
    # the common checkpoint is what every rank is known to have reached; a missing log
    # proves nothing of how far its rank got
    scans = [_log(f"log_{r}.log", r, PREFILL) for r in range(3)]
    correlation = correlate(scans, 4)
    assert correlation.last_common is None
    assert _by_rank(correlation)[0].last_checkpoint == "prefill passed"


def test_rank_with_an_empty_file_is_missing():
    scans = [_log(f"log_{r}.log", r, PREFILL) for r in range(2)]
    scans.append(FileScan(FileInfo("log_2.log", FileKind.RANK_LOG, 2, lines=0, size_bytes=0)))
    assert correlate(scans, None).missing_ranks == [2]


def test_an_empty_rank_log_leaves_no_checkpoint_common_to_all_ranks():
    # its log shows the rank reached nothing, like a log without checkpoint lines
    scans = [_log(f"log_{r}.log", r, PREFILL) for r in range(2)]
    scans.append(FileScan(FileInfo("log_2.log", FileKind.RANK_LOG, 2, lines=0, size_bytes=0)))
    correlation = correlate(scans, None)
    assert correlation.last_common_checkpoint is None
    assert _by_rank(correlation)[0].last_checkpoint == "prefill passed"


def test_an_empty_side_file_of_a_rank_is_not_its_log():
    # a device log is no rank's output: rank 2's own log is missing, not empty, and a
    # missing log leaves the common checkpoint unknown
    scans = [_log(f"log_{r}.log", r, PREFILL) for r in range(2)]
    scans.append(FileScan(FileInfo("device-2.log", FileKind.DEVICE_LOG, 2, lines=0)))
    correlation = correlate(scans, None)
    assert (correlation.rank_logs.empty, correlation.rank_logs.logless) == ((), (2,))
    assert correlation.last_common_checkpoint is None


@pytest.mark.parametrize(
    ("hint", "facts", "expected"),
    [
        (8, {}, 8),
        (None, {"world_size": 16}, 16),
        (None, {"env": {"WORLD_SIZE": "4"}}, 4),
        (None, {}, 2),
    ],
)
def test_world_size_from_hint_env_or_highest_rank(hint, facts, expected):
    scans = [_log(f"log_{r}.log", r, PREFILL) for r in range(2)]
    scans.append(FileScan(FileInfo("env.txt", FileKind.ENV, None, lines=1), facts=facts))
    assert correlate(scans, hint).world_size == expected


def test_decode_while_others_prefill_is_a_divergence():
    others = [*PREFILL[:3], "layer 0 passed"]
    scans = [_log(f"log_{r}.log", r, others) for r in (0, 1, 3)]
    scans.append(_log("log_2.log", 2, [*PREFILL[:1], "decode step 0 passed"]))
    correlation = correlate(scans, None)
    assert correlation.divergent_ranks == [2]
    assert (
        "it logged 'decode step 0 passed' where ranks 0, 1, 3 logged 'layer 0 / norm passed'"
        in (correlation.divergence)
    )


def test_stopping_early_or_going_further_is_no_divergence():
    scans = [
        _log("log_0.log", 0, PREFILL),
        _log("log_1.log", 1, PREFILL[:2]),
        _log("log_2.log", 2, PREFILL),
    ]
    scans.append(_log("log_3.log", 3, [*PREFILL, "decode step 0 passed"]))
    correlation = correlate(scans, None)
    assert correlation.divergent_ranks == []
    assert correlation.divergence is None
    assert (correlation.ahead_ranks, correlation.behind_ranks) == ([3], [1])


def test_same_checkpoint_in_stdout_and_stderr_counts_once():
    scans = [_log("0/stdout.log", 0, PREFILL), _log("0/stderr.log", 0, PREFILL[:3])]
    correlation = correlate(scans, None)
    assert _by_rank(correlation)[0].checkpoints == len(PREFILL)


def test_checkpoints_split_over_two_files_are_merged_in_time_order():
    stdout = _log("0/stdout.log", 0, ["load weights passed", "layer 0 passed"])
    stderr = _log("0/stderr.log", 0, ["load weights passed", "norm passed"])
    stdout.events[1].timestamp = T0 + timedelta(seconds=9)
    timeline = _checkpoints(correlate([stdout, stderr], None), 0)
    assert [c.text for c in timeline] == ["load weights passed", "norm passed", "layer 0 passed"]
    assert [c.index for c in timeline] == [0, 0, 0]


def test_untimed_checkpoints_split_over_two_files_follow_their_shared_anchor():
    stdout = _log("0/stdout.log", 0, ["load weights passed", "layer 0 passed"], timed=False)
    stderr = _log(
        "0/stderr.log", 0, ["load weights passed", "norm passed", "MoE passed"], timed=False
    )
    timeline = _checkpoints(correlate([stdout, stderr], None), 0)
    assert [c.text for c in timeline][:2] == ["load weights passed", "norm passed"]
    assert sorted(c.text for c in timeline[2:]) == ["MoE passed", "layer 0 passed"]


def test_status_killed_by_a_killed_line_and_not_by_sigterm():
    scans = [
        _log(
            "log_0.log", 0, PREFILL[:2], errors=["/bin/bash: line 1: 4711 Killed  python infer.py"]
        ),
        _log("log_1.log", 1, PREFILL[:2]),
        FileScan(
            FileInfo("launcher.log", FileKind.LAUNCHER, None, lines=20),
            facts={"elastic_failures": [{"rank": 1, "exitcode": -15, "signal": "SIGTERM"}]},
        ),
    ]
    ranks = _by_rank(correlate(scans, None))
    assert (ranks[0].status, ranks[1].status) == (RankStatus.KILLED, RankStatus.HUNG)


def _aborted(errors: list[str]) -> dict[int, RankStatus]:
    scans = [
        _log("log_0.log", 0, PREFILL[:2], errors=errors),
        _log("log_1.log", 1, PREFILL[:2]),
        FileScan(
            FileInfo("launcher.log", FileKind.LAUNCHER, None, lines=20),
            facts={"elastic_failures": [{"rank": 0, "exitcode": -6, "signal": "SIGABRT"}]},
        ),
    ]
    return {r: s.status for r, s in _by_rank(correlate(scans, None)).items()}


def test_status_error_when_a_rank_aborts_on_the_native_error_it_logged():
    """docs/labelling.md, "A rank that aborts on what a peer sent": SIGABRT is how a native
    exception nobody caught ends the process; the rank failed on what it logged, it was not
    killed."""
    logged = ["terminate called after throwing an instance of 'gloo::EnforceNotMet'"]
    assert _aborted(logged)[0] == RankStatus.ERROR


def test_status_killed_when_a_rank_aborts_without_a_word():
    assert _aborted([])[0] == RankStatus.KILLED


def test_status_error_from_a_positive_exit_code_without_an_error_line():
    scans = [_log("log_0.log", 0, PREFILL), _log("log_1.log", 1, PREFILL)]
    scans.append(
        FileScan(
            FileInfo("launcher.log", FileKind.LAUNCHER, None, lines=3),
            facts={"elastic_failures": [{"local_rank": 1, "exitcode": "1"}]},
        )
    )
    assert _by_rank(correlate(scans, None))[1].status == RankStatus.ERROR


def test_first_error_prefers_time_then_the_ranks_own_file():
    own = _log("attempt_0/0/stderr.log", 0, [], errors=["RuntimeError: boom"])
    copy = _log(
        "launcher.log", 0, [], kind=FileKind.LAUNCHER, errors=["[default0]:RuntimeError: boom"]
    )
    assert _by_rank(correlate([copy, own], None))[0].first_error.file == "attempt_0/0/stderr.log"


def test_last_common_is_none_when_ranks_share_nothing():
    scans = [_log("log_0.log", 0, ["a passed"]), _log("log_1.log", 1, ["b passed"])]
    assert correlate(scans, None).last_common_checkpoint is None


def test_clock_offsets_use_the_median_so_one_late_line_does_not_count():
    ref = _log("log_0.log", 0, PREFILL)
    late = _log("log_1.log", 1, PREFILL, start=T0 + timedelta(seconds=5))
    late.events[2].timestamp += timedelta(seconds=40)  # printed long after the collective
    assert correlate([ref, late], None).clock_offsets == {0: 0.0, 1: 5.0}


def _long_bisection_log(path: Path, rank: int, steps: int) -> None:
    """A decode loop printing a checkpoint per layer per step, like a long bisection run."""
    lines = [f"[rank{rank}] init process group: backend=hccl world_size=2\n"]
    for step in range(steps):
        lines += [f"layer {layer} passed\n" for layer in range(4)]
        lines.append(f"decode step {step} passed\n")
    path.write_text("".join(lines))


def test_a_long_run_counted_in_bulk_keeps_true_counts_and_indices(tmp_path):
    _long_bisection_log(tmp_path / "log_0.log", 0, steps=1000)
    _long_bisection_log(tmp_path / "log_1.log", 1, steps=998)
    by_rank = _by_rank(correlate(_scan_tree(tmp_path), None))
    assert by_rank[0].checkpoints == 5000
    assert by_rank[1].checkpoints == 4990
    assert by_rank[0].last_checkpoint == "decode step 999 passed"
    assert by_rank[1].last_checkpoint == "decode step 997 passed"


def test_a_long_run_compares_ranks_at_the_same_occurrence(tmp_path):
    _long_bisection_log(tmp_path / "log_0.log", 0, steps=1000)
    _long_bisection_log(tmp_path / "log_1.log", 1, steps=998)
    correlation = correlate(_scan_tree(tmp_path), None)
    common = correlation.last_common
    assert (common.text, common.index) == ("decode step 997 passed", 0)
    assert correlation.behind_ranks == [1]


# --- an agent's `--tee` console under any name ------------------------------------------------

_GLOO_TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78]"
    " Timed out waiting 5000ms for recv operation to complete"
)


def _tee_console(stopped: int) -> str:
    """torchrun --tee 3 without --log-dir, stdout and stderr redirected to one file (torch 2.13,
    gloo): every rank but `stopped` times out in its attention all_reduce, `stopped` blocks on
    a lock before it and prints nothing; the agent SIGTERMs it and prints its summary."""
    lines = []
    for rank in range(4):
        head = f"[default{rank}]:2026-12-05 01:47:45,{115 + rank:03d} INFO [rank{rank}] trainer:"
        lines.append(f"{head} init process group: backend=gloo rank={rank} world_size=4 node=0")
    for rank in range(4):
        head = f"[default{rank}]:2026-12-05 01:47:48,{650 + rank:03d} INFO [rank{rank}] trainer:"
        for step in ("prefill start: 8 tokens", "  norm passed", "  attention passed"):
            lines.append(f"{head} {step}")
        lines.append(f"{head}   MoE passed")
        lines.append(f"{head} layer 0 passed")
        lines.append(f"{head}   norm passed")
    for rank in range(4):
        if rank == stopped:
            continue
        tag = f"[default{rank}]:"
        lines += [
            f"{tag}2026-12-05 01:47:53,{769 + rank:03d} ERROR [rank{rank}] trainer: model run failed",
            f"{tag}Traceback (most recent call last):",
            f'{tag}  File "/srv/bench/toy.py", line 101, in forward',
            f"{tag}    dist.all_reduce(stat)  # sequence-parallel statistics sync",
            f"{tag}{_GLOO_TIMEOUT}",
            f"{tag}[rank{rank}]: Traceback (most recent call last):",
            f'{tag}[rank{rank}]:   File "/srv/bench/toy.py", line 101, in forward',
            f"{tag}[rank{rank}]:     dist.all_reduce(stat)  # sequence-parallel statistics sync",
            f"{tag}[rank{rank}]: {_GLOO_TIMEOUT}",
        ]
    api = "torch/distributed/elastic/multiprocessing/api.py"
    lines += [
        f"W1205 01:47:55.410000 15120 {api}:1028] Sending process 15198 closing signal SIGTERM",
        f"E1205 01:47:56.011000 15120 {api}:1002] failed (exitcode: 1) local_rank: 0 (pid: 15195) of binary: /usr/bin/python3",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        "/srv/bench/toy.py FAILED",
        "------------------------------------------------------------",
        "Failures:",
        "[1]:",
        "  time      : 2026-12-05_01:47:56",
        "  host      : localhost",
        f"  rank      : {stopped} (local_rank: {stopped})",
        "  exitcode  : -15 (pid: 15198)  (SIGTERM)",
        "  error_file: <N/A>",
        "  traceback : Signal 15 (SIGTERM) received by PID 15198",
        "------------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        "  time      : 2026-12-05_01:47:56",
        "  host      : localhost",
        "  rank      : 0 (local_rank: 0)",
        "  exitcode  : 1 (pid: 15195) ",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
        "============================================================",
    ]
    return "\n".join(lines) + "\n"


def test_agent_summary_in_a_console_under_any_name_is_not_the_ranks_error(tmp_path: Path) -> None:
    """The agent's summary of a child it stopped, in a `--tee` console saved as `stdout.txt`,
    says how the rank ended, not what it logged: the rank that never reached the collective
    logged nothing and is the one the others waited on."""
    from analyzers.core.options import AnalyzeOptions
    from analyzers.pipeline import analyze

    job = tmp_path / "bench_lock"
    job.mkdir()
    (job / "stdout.txt").write_text(_tee_console(stopped=3))
    report = analyze(job, AnalyzeOptions(workers=1))
    ranks = {r.rank: r for r in report.ranks}
    assert ranks[3].first_error is None
    assert ranks[0].first_error is not None
    assert report.diagnosis.category == "hccl"
    assert report.diagnosis.culprit_ranks == [3]


def test_a_rank_stopped_before_its_first_checkpoint_in_a_console_is_present(tmp_path: Path) -> None:
    """torchrun --tee 3 with plain prints, only the console kept: rank 2 started (its copied
    start line states its rank) but was stopped before its first checkpoint, so no checkpoint
    is common to every rank; it is not a rank whose output is missing."""
    lines = []
    for rank in range(3):
        lines.append(f"[default{rank}]:init process group: backend=gloo rank={rank} world_size=3")
        lines.append(f"[default{rank}]:prefill start: 8 tokens")
        if rank < 2:
            lines += [f"[default{rank}]:  norm passed", f"[default{rank}]:  attention passed"]
    lines.append(
        "E1205 02:28:34.899000 14049 torch/distributed/elastic/multiprocessing/api.py:1002] "
        "failed (exitcode: -9) local_rank: 1 (pid: 14082) of binary: /usr/bin/python3"
    )
    job = tmp_path / "bisect-prefill"
    job.mkdir()
    (job / "console.log").write_text("\n".join(lines) + "\n")
    correlation = correlate(_scan_tree(tmp_path), None)
    assert correlation.missing_ranks == []
    assert correlation.last_common is None
    assert _by_rank(correlation)[2].last_checkpoint is None


# Python logging to log_<rank>.log (torch 2.13, gloo); the disk filled while rank 1 was writing
# its layer 3 lines, so its file stops inside a timestamp with no line end. Rank 0's file is
# whole.
_WHOLE = """\
2026-12-05 05:05:40,550 INFO     [Rank 0] prefill start: 8 tokens
2026-12-05 05:05:40,553 INFO     [Rank 0]   norm passed
2026-12-05 05:05:40,564 INFO     [Rank 0] layer 0 passed
2026-12-05 05:05:40,600 ERROR    [Rank 0] model run failed: The size of tensor a (32) must match the size of tensor b (16) at non-singleton dimension 1
"""
_CUT = """\
2026-12-05 05:05:40,551 INFO     [Rank 1] prefill start: 8 tokens
2026-12-05 05:05:40,554 INFO     [Rank 1]   norm passed
2026-12-05 05:05:40,565 INFO     [Rank 1] layer 0 passed
2026-12-05 05:05:4"""


def _scan_files(files: dict[str, str]) -> list[FileScan]:
    scans = []
    for path, text in files.items():
        kind, rank = classify_path(path)
        info = FileInfo(path, kind, rank, size_bytes=len(text))
        scans.append(scan_file(io.BytesIO(text.encode()), info, CheckpointMatcher(())))
    return scans


def test_a_rank_log_that_stops_mid_line_is_reported_cut():
    ranks = _by_rank(correlate(_scan_files({"job/log_0.log": _WHOLE, "job/log_1.log": _CUT}), None))
    assert ranks[1].log_cut == [{"file": "job/log_1.log", "line": 4}]
    assert ranks[1].last_checkpoint == "layer 0 passed"


def test_an_older_rotated_segment_that_stops_mid_line_is_not_a_cut_log():
    """logrotate's `copytruncate` cut the line; the live file holds its rest."""
    rest = "0,580 INFO     [Rank 1] layer 1 passed\n"
    files = {"job/log_0.log": _WHOLE, "job/log_1.log-20261205": _CUT, "job/log_1.log": rest}
    ranks = _by_rank(correlate(_scan_files(files), None))
    assert ranks[1].log_cut == []


def test_a_rank_log_that_ends_with_its_line_end_is_not_cut():
    ranks = _by_rank(correlate(_scan_files({"job/log_0.log": _WHOLE}), None))
    assert ranks[0].log_cut == []


def test_a_rank_named_far_up_counts_every_rank_below_it_missing_without_slowing_down(
    tmp_path,
):
    """A file naming a rank in the tens of thousands (a worker log named after its pid reads
    as one) makes every rank below it a missing rank of the job; the correlation lists them
    all, exactly, and its passes over them stay linear in the world size."""
    (tmp_path / "log_0.log").write_text("[rank0] layer 0 passed\n")
    (tmp_path / "worker-60000.err").write_text("step 3: loss 0.41\n")
    started = time.process_time()
    correlation = correlate(_scan_tree(tmp_path), None)
    seconds = time.process_time() - started
    assert correlation.world_size == 60_001
    assert len(correlation.missing_ranks) == 59_999
    assert correlation.missing_ranks[:2] == [1, 2]
    assert len(correlation.ranks) == 60_001
    # a quadratic pass over 60,000 ranks takes minutes; a linear one a fraction of a second
    assert seconds < 20, seconds
