"""The first causal error across files and ranks, and the ranks to blame."""

from __future__ import annotations

import io
import tarfile
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.causal.first_error import find_first_error
from analyzers.classify.matches import Classified
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import TIER_CASCADE, classify_event
from analyzers.core.report import Diagnosis
from analyzers.core.types import (
    Correlation,
    Event,
    EventKind,
    FileInfo,
    FileKind,
    FileScan,
    RankStatus,
    RankSummary,
)
from analyzers.formats.codes import extract_codes
from tests.analyzers.excerpts import assert_reads, diagnose_files

KNOWLEDGE = load_knowledge()
T0 = datetime(2026, 11, 29, 7, 24, 27)

WATCHDOG = (
    "[Rank {rank}] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=42, "
    "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800101 milliseconds before timing out."
)
OOM = (
    "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 1; 60.96 GiB total "
    "capacity; 58.10 GiB already allocated; 1.20 GiB free; 58.90 GiB reserved in total by PyTorch)"
)
CLOSED = (
    "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer "
    "[127.0.0.1]:1946. This is typically caused by a remote worker crashing."
)


def item(
    message: str,
    *,
    rank: int | None,
    order: int,
    line: int = 10,
    seconds: float | None = None,
    kind: FileKind = FileKind.RANK_LOG,
) -> Classified:
    stamp = T0 + timedelta(seconds=seconds) if seconds is not None else None
    event = Event(
        file=f"job/file_{order}.log",
        line=line,
        text=message,
        kind=EventKind.ERROR,
        message=message,
        rank=rank,
        timestamp=stamp,
        codes=extract_codes(message),
    )
    classified = classify_event(event, order, KNOWLEDGE)
    classified.rank, classified.kind = rank, kind
    return classified


def correlation(statuses: dict[int, RankStatus], offsets: dict[int, float] | None = None):
    ranks = [RankSummary(r, status, None, None) for r, status in statuses.items()]
    return Correlation(ranks=ranks, timeline={}, world_size=len(ranks), clock_offsets=offsets or {})


def test_peers_timing_out_on_a_rank_that_failed_first_are_cascades() -> None:
    items = [
        item(WATCHDOG.format(rank=0), rank=0, order=0, seconds=1800),
        item(OOM, rank=1, order=1, seconds=0),
        item(WATCHDOG.format(rank=2), rank=2, order=2, seconds=1800),
    ]
    chain = find_first_error(items)
    assert chain.first is items[1]
    assert chain.culprit_ranks == [1]
    assert all(i.demoted and i.tier == TIER_CASCADE for i in (items[0], items[2]))
    assert [c.rank for c in chain.cascades] == [0, 2]


def test_an_exception_after_the_timeout_does_not_explain_it() -> None:
    timeout = item(WATCHDOG.format(rank=0), rank=0, order=0, seconds=0)
    later = item("ValueError: communicator was aborted", rank=1, order=1, seconds=30)
    chain = find_first_error([timeout, later])
    assert chain.first is timeout
    assert not timeout.demoted


def test_within_one_file_line_order_wins_over_disagreeing_clocks() -> None:
    cpp = item(
        "[Rank 0]: Rank 2 failed to pass monitoredBarrier in 5000 ms",
        rank=0,
        order=0,
        line=20,
        seconds=0.6,
    )
    python = item(
        "model run failed: [Rank 0]: Ranks 2 failed to pass monitoredBarrier in 5000 ms",
        rank=0,
        order=0,
        line=22,
        seconds=0.3,
    )
    chain = find_first_error([python, cpp])
    assert chain.first is cpp
    assert chain.culprit_ranks == [2]


def test_across_files_the_earliest_on_one_clock_wins() -> None:
    # rank 1's clock runs 10 s ahead: its 10:00:05 is rank 0's 09:59:55
    rank0 = item("ValueError: bad batch", rank=0, order=0, seconds=0)
    rank1 = item("ValueError: bad batch", rank=1, order=1, seconds=5)
    assert find_first_error([rank0, rank1]).first is rank0
    offsets = correlation({0: RankStatus.ERROR, 1: RankStatus.ERROR}, {0: 0.0, 1: 10.0})
    assert find_first_error([rank0, rank1], offsets).first is rank1


def test_a_ranks_own_log_is_cited_before_the_launchers_copy() -> None:
    launcher = item(OOM, rank=1, order=0, seconds=0, kind=FileKind.LAUNCHER)
    own = item(OOM, rank=1, order=1, seconds=0)
    chain = find_first_error([launcher, own])
    assert chain.first is own


def test_lines_without_time_come_after_timed_ones_of_the_same_tier() -> None:
    untimed = item(OOM, rank=3, order=0)
    timed = item(OOM, rank=1, order=1, seconds=50)
    assert find_first_error([untimed, timed]).first is timed


def test_wrapper_and_summary_lines_support_the_specific_error_of_their_block() -> None:
    wrapper = item(
        "RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:565 NPU function"
        " error: AclrtSynchronizeDeviceWithTimeout, error code is 507015",
        rank=0,
        order=0,
        line=6,
    )
    summary = item(
        "[ERROR] 2026-10-22-12:47:24 (PID:8308179, Device:0, RankID:-1) ERR00100 PTA call acl api "
        "failed",
        rank=0,
        order=0,
        line=7,
    )
    device = item(
        "EZ9999: [PID: 8308179] 2026-10-22-12:47:24.466.609 The error from device(chipId:7, "
        "dieId:0), serial number is 575, there is an exception of fftsplus aivector error",
        rank=0,
        order=0,
        line=11,
    )
    chain = find_first_error([wrapper, summary, device])
    assert chain.first is device
    assert chain.supporting == [wrapper]
    assert summary in chain.nearby


def test_launcher_line_names_a_local_rank_mapped_through_the_failure_report() -> None:
    line = (
        "E1129 07:25:37.499000 26576 torch/distributed/elastic/multiprocessing/api.py:1002] failed "
        "(exitcode: -11) local_rank: 1 (pid: 26691) of binary: /opt/venv/bin/python"
    )
    launcher = item(line, rank=None, order=0, kind=FileKind.LAUNCHER)
    report = FileScan(
        FileInfo("job/launcher.log", FileKind.LAUNCHER, None),
        facts={"elastic_failures": [{"rank": 9, "local_rank": 1, "exitcode": -11}]},
    )
    chain = find_first_error([launcher], None, [report])
    assert chain.first is launcher
    assert chain.culprit_ranks == [9]


def test_a_timeout_alone_blames_the_killed_rank() -> None:
    timeout = item(WATCHDOG.format(rank=0), rank=0, order=0, seconds=0)
    statuses = {0: RankStatus.ERROR, 1: RankStatus.KILLED, 2: RankStatus.HUNG}
    chain = find_first_error([timeout], correlation(statuses))
    assert chain.culprit_ranks == [1]


def test_only_noise_means_no_first_error() -> None:
    noise = item("[ERROR] HCCL(1,python):| dest_ip(rank_id) | Role |", rank=0, order=0)
    assert find_first_error([noise]).first is None


def test_consequences_are_cited_one_per_file() -> None:
    items = [
        item("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)", rank=3,
             order=3),
        item(CLOSED, rank=0, order=0, line=40),
        item(CLOSED, rank=0, order=0, line=41),
        item(CLOSED, rank=1, order=1, line=40),
    ]  # fmt: skip
    chain = find_first_error(items)
    assert chain.culprit_ranks == [3]
    assert [(c.rank, c.event.line) for c in chain.cascades] == [(0, 40), (1, 40)]


def test_error_block_without_a_rank_takes_the_rank_its_other_lines_name() -> None:
    headline = item(
        "EE1002: 2024-12-11-13:03:41.366.560 Stream synchronize timeout. rtDeviceSynchronize "
        "execute failed, reason=[stream sync timeout]",
        rank=None,
        order=0,
        line=5,
    )
    summary = item(
        "[ERROR] 2024-12-11-13:03:41 (PID:6226122, Device:2, RankID:2) ERR00100 PTA call acl api "
        "failed",
        rank=2,
        order=0,
        line=2,
    )
    chain = find_first_error([summary, headline])
    assert chain.first is headline
    assert headline.rank == 2
    assert chain.consequence_ranks == []


def test_elastic_root_cause_is_only_a_last_resort_for_the_culprit() -> None:
    summary = item(
        "E1129 07:25:37.499000 26576 torch/distributed/elastic/multiprocessing/api.py:1002] failed "
        "(exitcode: 1) local_rank: 3 (pid: 26691) of binary: /opt/venv/bin/python",
        rank=None,
        order=0,
        kind=FileKind.LAUNCHER,
    )
    report = FileScan(
        FileInfo("job/launcher.log", FileKind.LAUNCHER, None),
        facts={"elastic_failures": [{"rank": 3, "exitcode": 1, "root_cause": True}]},
    )
    assert find_first_error([summary], None, [report]).culprit_ranks == [3]
    statuses = {0: RankStatus.ERROR, 1: RankStatus.KILLED, 2: RankStatus.ERROR, 3: RankStatus.ERROR}
    assert find_first_error([summary], correlation(statuses), [report]).culprit_ranks == [1]


def _receiver_aborts(root_cause: int) -> list[int]:
    mismatch = item(
        "  what():  [enforce fail at /src/gloo/transport/tcp/pair.cc:446] op.preamble.length "
        "<= op.nbytes. 2048 vs 1024. Received data size doesn't match expected size.",
        rank=1,
        order=0,
    )
    report = FileScan(
        FileInfo("job/launcher.log", FileKind.LAUNCHER, None),
        facts={"elastic_failures": [{"rank": root_cause, "exitcode": -6, "root_cause": True}]},
    )
    return find_first_error([mismatch], None, [report]).culprit_ranks


# docs/labelling.md, "A rank that aborts on what a peer sent": the launcher's root cause is the first child
# to exit, no culprit when it is the rank that reported a peer's bad message and died of it.
def test_the_rank_that_aborts_on_a_peers_message_is_not_blamed_for_exiting_first() -> None:
    assert _receiver_aborts(root_cause=1) == []


def test_another_rank_the_launcher_saw_exit_first_is_still_the_last_resort() -> None:
    assert _receiver_aborts(root_cause=3) == [3]


def _ranks_losing_rank_3(rank3_error: str | None, exitcode: int = 3) -> tuple[list, dict[str, str]]:
    """Rank 3 ends inside layer 1 (with or without a word of its own); its peers lose the
    connection; torchrun's launcher log reports rank 3's exit status."""
    from tests.analyzers.job_bundles import CLOSED, ranks

    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
    for rank, ms in ((0, 2100), (1, 2080), (2, 2120)):
        job[rank].at(ms).log("ERROR", f"model run failed: {CLOSED}")
    if rank3_error:
        job[3].at(2050).fails(rank3_error, frame="forward")
    launcher = (
        "W1129 07:24:24.020000 5120 torch/distributed/elastic/multiprocessing/api.py:1028] "
        "Sending process 5131 closing signal SIGTERM\n"
        "E1129 07:24:24.222000 5120 torch/distributed/elastic/multiprocessing/api.py:1002] "
        f"failed (exitcode: {exitcode}) local_rank: 3 (pid: 5134) of binary: /srv/env/bin/python3\n"
    )
    return job, {"launcher.log": launcher}


def test_a_rank_that_exits_without_a_word_is_named_by_the_launcher(tmp_path) -> None:
    from tests.analyzers.job_bundles import analyze_job

    job, extra = _ranks_losing_rank_3(None)
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert_reads(diagnosis, "device_fault", first_error="failed (exitcode: 3) local_rank: 3")
    assert diagnosis.culprit_ranks == [3]


def test_the_launcher_exit_line_only_summarises_a_rank_that_said_why(tmp_path) -> None:
    from tests.analyzers.job_bundles import analyze_job

    job, extra = _ranks_losing_rank_3("ValueError: top_k (9) is larger than the expert count (8)")
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.first_error is not None
    assert "top_k (9) is larger" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3]


@pytest.mark.parametrize("exitcode", [3, -6], ids=["exit-status", "sigabrt"])
def test_a_silent_rank_is_named_by_the_launcher_in_a_combined_torchrun_stdout(
    tmp_path, exitcode: int
) -> None:
    """`torchrun --tee 3` into one file: every rank's lines carry `[defaultN]:` and the
    agent's own lines follow them in the same file, where its exit line is read as rank 3's.
    Rank 3 ends with a plain exit status, or calls abort() (SIGABRT, -6), with nothing logged;
    the peers' lost connections come after it."""
    from analyzers import AnalyzeOptions, analyze
    from tests.analyzers.job_bundles import bundle

    job, extra = _ranks_losing_rank_3(None, exitcode=exitcode)
    combined = [f"[default{log.rank}]:{line}" for log in job for line in log.lines]
    combined += extra["launcher.log"].splitlines()
    path = bundle(tmp_path, [], 4, {"stdout.txt": "\n".join(combined) + "\n"})
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.first_error is not None
    assert f"failed (exitcode: {exitcode}) local_rank: 3" in diagnosis.first_error.text
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [3]


def test_a_rank_that_says_why_it_gives_up_is_the_first_error(tmp_path) -> None:
    """Rank 3 prints its own fatal line and exits without a traceback; no launcher log."""
    from tests.analyzers.job_bundles import CLOSED, analyze_job, ranks

    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
    job[3].at(2050).log("ERROR", "fatal: kv cache config invalid, aborting")
    for rank, ms in ((0, 2100), (1, 2080), (2, 2120)):
        job[rank].at(ms).log("ERROR", f"model run failed: {CLOSED}")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.first_error is not None
    assert "kv cache config invalid, aborting" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3]


def test_a_rank_that_logs_an_error_and_says_it_is_exiting_is_the_first_error(tmp_path) -> None:
    """Rank 3 logs an ERROR record that ends by saying it leaves (no `fatal:` word, no
    traceback) and calls sys.exit(3); the peers lose the connection later and the launcher
    reports the exit status. Before, the record matched no rule and a held-out gloo run was
    read from a peer's lost connection (`hccl`, blaming that peer)."""
    from tests.analyzers.job_bundles import analyze_job

    job, extra = _ranks_losing_rank_3(None)
    job[3].at(2050).log(
        "ERROR", "no training samples left in shard part-00003.jsonl after filtering; exiting"
    )
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert_reads(diagnosis, "other", first_error="after filtering; exiting")
    assert diagnosis.culprit_ranks == [3]


def test_an_info_line_that_says_a_rank_is_exiting_is_no_failure(tmp_path) -> None:
    """Counterexample: the same words at INFO level are the rank reporting its way out, not a
    failure; the launcher's exit line stays the first error."""
    from tests.analyzers.job_bundles import analyze_job

    job, extra = _ranks_losing_rank_3(None)
    job[3].at(2050).log("INFO", "checkpoint written to /ckpt/step_40; exiting")
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.first_error is not None
    assert "failed (exitcode: 3) local_rank: 3" in diagnosis.first_error.text


def test_a_launcher_line_for_a_rank_cut_out_of_the_paste_does_not_outrank_a_traceback() -> None:
    """Only rank 7's traceback was pasted; the agent then names local rank 1, whose own
    lines are not there at all. Nothing says that rank ended on its own."""
    from tests.analyzers.excerpts import diagnose_text

    paste = (
        '[rank7]:   File "/opt/venv/lib/python3.11/site-packages/torch/nn/parallel/'
        'distributed.py", line 1127, in _log_and_throw\n'
        "[rank7]:     raise err_type(err_msg)\n"
        "[rank7]: ValueError: DistributedDataParallel device_ids and output_device arguments "
        "only work with single-device/multiple-device GPU modules or CPU modules, but got "
        "device_ids [7], output_device None, and module parameters {device(type='cpu')}.\n"
        "W1106 00:20:32.722000 8200 torch/distributed/elastic/multiprocessing/api.py:858] "
        "Sending process 32426 closing signal SIGTERM\n"
        "E1106 00:20:32.742000 8200 torch/distributed/elastic/multiprocessing/api.py:833] "
        "failed (exitcode: 1) local_rank: 1 (pid: 32427) of binary: /opt/venv/bin/python3.11\n"
    )
    diagnosis = diagnose_text("train.log", paste)
    assert diagnosis.first_error is not None
    assert "ValueError: DistributedDataParallel device_ids" in diagnosis.first_error.text


FAULTHANDLER_STDERR = """\
Fatal Python error: Segmentation fault

Thread 0x00007fce53a956c0 (most recent call first):
  File "/srv/job/infer.py", line 366 in heartbeat
  File "/usr/lib/python3.11/threading.py", line 982 in run

Current thread 0x00007fce6e5c0b80 (most recent call first):
  File "/usr/lib/python3.11/ctypes/__init__.py", line 519 in string_at
  File "/srv/job/infer.py", line 136 in inject
"""

TORCHRUN_TAIL = """\
W1204 16:51:49.553000 6388 torch/distributed/elastic/multiprocessing/api.py:940] Sending process 6641 closing signal SIGTERM
E1204 16:51:49.554000 6388 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -11) local_rank: 5 (pid: 6646) of binary: /usr/bin/python3
"""


def test_a_ranks_own_crash_line_goes_before_the_launchers_timed_report_of_it() -> None:
    diagnosis = diagnose_files(
        {
            "job/launcher.log": TORCHRUN_TAIL,
            "job/torchrun_logs/a_1/attempt_0/5/stderr.log": FAULTHANDLER_STDERR,
            "job/torchrun_logs/a_1/attempt_0/5/stdout.log": " norm passed\n",
            "job/torchrun_logs/a_1/attempt_0/4/stdout.log": " norm passed\n attention passed\n",
        }
    )
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == "Fatal Python error: Segmentation fault"
    assert diagnosis.culprit_ranks == [5]


def test_the_launchers_report_stays_first_when_the_rank_said_nothing_of_its_crash() -> None:
    diagnosis = diagnose_files(
        {
            "job/launcher.log": TORCHRUN_TAIL,
            "job/torchrun_logs/a_1/attempt_0/5/stdout.log": " norm passed\n",
            "job/torchrun_logs/a_1/attempt_0/4/stdout.log": " norm passed\n attention passed\n",
        }
    )
    assert diagnosis.first_error is not None
    assert "failed (exitcode: -11) local_rank: 5" in diagnosis.first_error.text


# Ranks that log with Python logging print `logger.exception(...)` as one timed record and the
# traceback right under it; the exception line itself carries no time. Ranks 2 and 3 gave up
# waiting in the store at 09:14:21; ranks 0 and 1, still waiting for them, failed to connect
# the gloo mesh a minute later.
def _logged_record(rank: int, when: str, wait_line: str) -> str:
    return (
        f"2026-03-09 09:14:01,204 [rank{rank}] INFO init process group: backend=gloo "
        f"init_method=env:// rank={rank} world_size=4\n"
        f"2026-03-09 {when} [rank{rank}] ERROR model run failed\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/jobs/moe/infer.py", line 88, in main\n'
        "    dist.init_process_group(backend, init_method=init, rank=rank, world_size=ws)\n"
        '  File "/srv/env/lib/python3.11/site-packages/torch/distributed/rendezvous.py", '
        "line 199, in _create_c10d_store\n"
        "    return TCPStore(\n"
        "           ^^^^^^^^^\n"
        f"{wait_line}\n"
    )


STORE_WAIT = (
    "torch.distributed.DistStoreError: wait timeout after 10000ms, keys: /default_pg/0//cpu//0/0"
)
MESH_FAILED = (
    "RuntimeError: Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/"
    "gloo/transport/tcp/pair.h:311] Connect timeout [none]"
)


def _mesh_failure(rank: int) -> str:
    return (
        f"2026-03-09 09:14:01,188 [rank{rank}] INFO init process group: backend=gloo "
        f"init_method=env:// rank={rank} world_size=4\n"
        f"[E309 09:15:12.331820917 ProcessGroupGloo.cpp:67] {MESH_FAILED.split(': ', 1)[1]}\n"
        f"2026-03-09 09:15:12,402 [rank{rank}] ERROR model run failed\n"
        f"{MESH_FAILED}\n"
    )


def test_a_traceback_under_a_timed_log_record_is_placed_at_the_records_time() -> None:
    diagnosis = diagnose_files(
        {
            "job/log_0.log": _mesh_failure(0),
            "job/log_1.log": _mesh_failure(1),
            "job/log_2.log": _logged_record(2, "09:14:21,622", STORE_WAIT),
            "job/log_3.log": _logged_record(3, "09:14:21,140", STORE_WAIT),
        }
    )
    assert diagnosis.first_error is not None
    assert "wait timeout after 10000ms" in diagnosis.first_error.text
    assert diagnosis.first_error.rank == 3


def test_a_traceback_far_below_its_files_last_time_stays_untimed() -> None:
    far = _logged_record(3, "09:14:21,140", STORE_WAIT).replace(
        "ERROR model run failed\n", "ERROR model run failed\nretrying the store once more\n"
    )
    diagnosis = diagnose_files({"job/log_0.log": _mesh_failure(0), "job/log_3.log": far})
    assert diagnosis.first_error is not None
    assert "connectFullMesh" in diagnosis.first_error.text


def test_an_exception_the_rank_also_printed_in_its_stderr_keeps_the_copies_order() -> None:
    attempt = "job/torchrun_logs/job_x1/attempt_0"
    diagnosis = diagnose_files(
        {
            f"{attempt}/2/stderr.log": (
                "[rank2]: Traceback (most recent call last):\n"
                '[rank2]:   File "/srv/jobs/moe/infer.py", line 88, in main\n'
                "[rank2]:     dist.init_process_group(backend, rank=rank, world_size=ws)\n"
                f"[rank2]: {STORE_WAIT}\n"
            ),
            f"{attempt}/2/stdout.log": _logged_record(2, "09:14:21,622", STORE_WAIT),
        }
    )
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.file.endswith("2/stderr.log")


GLOO_RECV_TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78]"
    " Timed out waiting 12000ms for recv operation to complete"
)


def _timed_out_ranks(records: dict[int, str]) -> dict[str, str]:
    """torchrun --log-dir: each rank logs the timeout under a timed record in its stdout.log
    and torch prints its `[rankN]:` copy, with no time, in its stderr.log."""
    attempt = "job/torchrun_logs/job_x1/attempt_0"
    files = {}
    for rank, when in records.items():
        files[f"{attempt}/{rank}/stderr.log"] = (
            f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/srv/jobs/lm/train.py", line 170, in main\n'
            f"[rank{rank}]:     dist.all_reduce(prm.grad)\n"
            f"[rank{rank}]: {GLOO_RECV_TIMEOUT}\n"
        )
        files[f"{attempt}/{rank}/stdout.log"] = (
            f"2026-03-09 09:14:01,204 [rank{rank}] INFO train step 4 start\n"
            f"2026-03-09 {when} [rank{rank}] ERROR training failed\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/jobs/lm/train.py", line 170, in main\n'
            "    dist.all_reduce(prm.grad)\n"
            f"{GLOO_RECV_TIMEOUT}\n"
        )
    return files


def test_ranks_that_printed_an_exception_twice_are_ordered_by_their_records() -> None:
    diagnosis = diagnose_files(
        _timed_out_ranks({0: "09:14:23,299", 1: "09:14:23,292", 2: "09:14:23,299"})
    )
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == 1
    assert diagnosis.first_error.file.endswith("1/stderr.log")


def test_ranks_whose_records_carry_no_time_keep_their_files_order() -> None:
    files = _timed_out_ranks({0: "09:14:23,299", 1: "09:14:23,292"})
    for rank in (0, 1):
        out = f"job/torchrun_logs/job_x1/attempt_0/{rank}/stdout.log"
        files[out] = "\n".join(
            line.split(" ", 2)[2] if line.startswith("2026-") else line
            for line in files[out].split("\n")
        )
    diagnosis = diagnose_files(files)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == 0


def _left_early_job() -> dict[str, str]:
    """torchrun --log-dir: rank 1 logs that its shard is empty and exits 0; ranks 0, 2 and 3
    lose it in their next all_reduce (their logged record is timed, torch's `[rankN]:` copy
    in stderr is not) and the agent, whose lines are timed, reports rank 0's exit status."""
    closed = (
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
        "Connection closed by peer [127.0.0.1]:7304. This is typically caused by a remote "
        "worker crashing. Check the logs of the remote worker before reporting an error."
    )
    base = "torchrun/none_z_iry1uv/attempt_0"
    layer = ["  norm passed", "  attention passed", "  MoE passed", "layer 0 passed"]
    files = {
        "launcher.log": (
            "W1205 01:23:38.848000 26094 torch/distributed/elastic/multiprocessing/api.py:1028]"
            " Sending process 26130 closing signal SIGTERM\n"
            "E1205 01:23:38.883000 26094 torch/distributed/elastic/multiprocessing/api.py:1002]"
            " failed (exitcode: 1) local_rank: 0 (pid: 26128) of binary: /usr/bin/python3\n"
        )
    }
    for rank in range(4):
        out = [
            f"2026-12-05 01:23:38,{130 + i:03d} [rank{rank}] INFO {t}"
            for i, t in enumerate(["prefill start: 8 tokens", *layer])
        ]
        if rank == 1:
            out.append("2026-12-05 01:23:38,165 [rank1] INFO no more requests in my shard, exiting")
            files[f"{base}/1/stdout.log"] = "\n".join(out) + "\n"
            files[f"{base}/1/stderr.log"] = ""
            continue
        out += [
            f"2026-12-05 01:23:38,169 [rank{rank}] INFO prefill start: 8 tokens",
            f"2026-12-05 01:23:38,{281 + rank:03d} [rank{rank}] ERROR model run failed",
            "Traceback (most recent call last):",
            '  File "/srv/serve.py", line 70, in forward',
            "    dist.all_reduce(a)",
            closed,
        ]
        files[f"{base}/{rank}/stdout.log"] = "\n".join(out) + "\n"
        files[f"{base}/{rank}/stderr.log"] = (
            f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/srv/serve.py", line 70, in forward\n'
            f"[rank{rank}]:     dist.all_reduce(a)\n"
            f"[rank{rank}]: {closed}\n"
        )
    return files


def test_an_exit_status_comes_after_the_lost_connection_its_rank_logged() -> None:
    """Labelling guide, "A rank that exits without a word": when the rank the agent's exit
    line names logged an error, that error is the first error and the exit line a summary of
    it, even when both are consequences of another rank leaving and only the agent's line
    carries a time the other ranks' lines can be ordered against."""
    diagnosis = diagnose_files(_left_early_job())
    assert_reads(diagnosis, "hccl", first_error="Connection closed by peer")


# --- a rank that reached the store after the others' waits had run out ---------------------


def _store_start_up(connect_failed_at: str) -> dict[str, str]:
    """Four plain-print ranks at start-up: rank 0's store counts 3 of 4 clients, ranks 1
    and 2 wait for rank 0's key (c10d's timed warnings, then the untimed exception), rank 3's
    connect to the store times out at `connect_failed_at` (c10d's own time)."""
    init = "init process group: backend=gloo rank={rank} world_size=4 master=127.0.0.1:47823"
    frames = [
        "Traceback (most recent call last):",
        '  File "/home/user/llm-infer/infer.py", line 126, in init',
        '    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=6))',
    ]
    waiting = [
        "[W1205 15:42:27.428079671 socket.cpp:469] [c10d] waitForInput: poll for socket "
        "SocketImpl(fd=3, addr=[::ffff:127.0.0.1]:40740, remote=[::ffff:127.0.0.1]:47823) "
        "returned 0, likely a timeout",
        "[W1205 15:42:27.452136935 socket.cpp:494] [c10d] waitForInput: socket SocketImpl("
        "fd=3, addr=[::ffff:127.0.0.1]:40740, remote=[::ffff:127.0.0.1]:47823) timed out "
        "after 6000ms",
        *frames,
        "torch.distributed.DistStoreError: wait timeout after 6000ms, keys: /default_pg/0//cpu//0/0",
    ]
    timed_out = (
        "The client socket has timed out after 6000ms while trying to connect to "
        "(127.0.0.1, 47823)."
    )
    return {
        "job/log_0.log": "\n".join(
            [
                init.format(rank=0),
                *frames,
                "torch.distributed.DistStoreError: Timed out after 7 seconds waiting for "
                "clients. 3/4 clients joined.",
            ]
        )
        + "\n",
        "job/log_1.log": "\n".join([init.format(rank=1), *waiting]) + "\n",
        "job/log_2.log": "\n".join([init.format(rank=2), *waiting]) + "\n",
        "job/log_3.log": "\n".join(
            [
                init.format(rank=3),
                "waiting for local dataset cache lock",
                f"[E1205 {connect_failed_at} socket.cpp:1028] [c10d] {timed_out}",
                f"[W1205 {connect_failed_at} TCPStore.cpp:340] [c10d] TCP client failed to "
                "connect/validate to host 127.0.0.1:47823 - retrying (try=0, timeout=6000ms, "
                f"delay=1984ms): {timed_out}",
                *frames,
                f"torch.distributed.DistNetworkError: {timed_out}",
            ]
        )
        + "\n",
    }


def _archived(directory: Path, files: dict[str, str]) -> Diagnosis:
    """The files packed as a collector packs them, each member keeping the time it was last
    written (early December 2026): c10d's year-less times take the year from it."""
    path = directory / "job.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            member = tarfile.TarInfo(name)
            member.size, member.mtime = len(data), 1796485400
            tar.addfile(member, io.BytesIO(data))
    return analyze(path, AnalyzeOptions(workers=1)).diagnosis


def test_a_connect_begun_after_the_store_waits_ran_out_stands_behind_them(
    tmp_path: Path,
) -> None:
    """Rank 3 started connecting 3.5 s after rank 1's key wait had already timed out: the
    store had given up on it, so the store's count is the first error (docs/labelling.md,
    "A rank that never reached the store"); rank 3 is still the one the others waited for."""
    diagnosis = _archived(tmp_path, _store_start_up("15:42:36.959831103"))
    assert diagnosis.first_error is not None
    assert "3/4 clients joined" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3]


def test_a_connect_that_timed_out_while_the_others_waited_stays_the_first_error(
    tmp_path: Path,
) -> None:
    """Counterexample: rank 3's connect began before the waits ended (a wrong port, tried
    from the start): the count stands behind it, as before."""
    diagnosis = _archived(tmp_path, _store_start_up("15:42:27.959831103"))
    assert diagnosis.first_error is not None
    assert "while trying to connect" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3]


def _stalled_rank_stopped_by_the_script(peer_error: str) -> tuple[list, dict[str, str]]:
    """Rank 2 stops advancing inside layer 1 without a word; its peers fail 10 s later; the
    operator's timeout then stops the launch script, which forwards SIGTERM to rank 2, and
    the script's `wait` loop reports each rank's status."""
    from tests.analyzers.job_bundles import ranks

    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
    for rank, ms in ((0, 12100), (1, 12080), (3, 12120)):
        job[rank].at(ms).log("ERROR", f"model run failed: {peer_error}")
        job[rank].raw(f"[rank{rank}]: RuntimeError: {peer_error}")
    script = (
        "rank 0 (pid 4101) exited with status 1\n"
        "rank 1 (pid 4102) exited with status 1\n"
        "rank 2 (pid 4103) exited with status 143\n"
        "rank 3 (pid 4104) exited with status 1\n"
    )
    return job, {"launch.out": script}


def test_a_rank_stopped_after_its_peers_timed_out_on_it_is_no_first_error(tmp_path) -> None:
    """Peers that timed out waiting for rank 2 were waiting for a live rank: it stalled, and
    the SIGTERM that ended it came afterwards. The first timeout is the first error and the
    silent rank the culprit."""
    from tests.analyzers.job_bundles import RECV_TIMEOUT, analyze_job

    job, extra = _stalled_rank_stopped_by_the_script(RECV_TIMEOUT)
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert_reads(diagnosis, "hccl", first_error="Timed out waiting 10000ms for recv")
    assert diagnosis.culprit_ranks == [2]


def test_a_rank_stopped_while_its_peers_lost_it_is_still_the_first_error(tmp_path) -> None:
    """Counterexample: peers that lost the connection lost a rank that was gone; its stop
    record is what happened first, as before."""
    from tests.analyzers.job_bundles import CLOSED, analyze_job

    job, extra = _stalled_rank_stopped_by_the_script(CLOSED)
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.first_error is not None
    assert "exited with status 143" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]


def _dcp_failure(rank: int) -> str:
    """The end of one rank's log in a real gloo job (trimmed) whose distributed
    checkpoint save failed on rank 3: every rank raises the one `CheckpointException`, which
    quotes rank 3's traceback under `(RANK 3)`; no line of it carries a time."""
    tag = f"[rank{rank}]:"
    return "\n".join(
        [
            f"2026-12-05T18:47:12.310+00:00 rank={rank} INFO step 4 done",
            f"2026-12-05T18:47:12.311+00:00 rank={rank} INFO saving checkpoint to /mnt/ckpt/step_4",
            f"{tag} Traceback (most recent call last):",
            f'{tag}   File "/home/user/pretrain/train.py", line 199, in save',
            f"{tag}     dcp.save(sd, checkpoint_id=path)",
            f"{tag} torch.distributed.checkpoint.api.CheckpointException: CheckpointException"
            " ranks:dict_keys([3])",
            f"{tag} Traceback (most recent call last): (RANK 3)",
            f'{tag}   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/'
            'filesystem.py", line 520, in create_stream',
            f"{tag}     with path.open(mode) as stream:",
            f"{tag} OSError: [Errno 28] No space left on device",
            "",
        ]
    )


def test_a_failure_every_rank_quotes_is_cited_from_the_failed_ranks_own_log() -> None:
    """The quote in rank 0's log has the same words and no time, so file order alone cited
    rank 0's copy; rank 3's own log holds the line where rank 3 wrote it."""
    diagnosis = diagnose_files({f"log_{rank}.log": _dcp_failure(rank) for rank in range(4)})
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.file == "log_3.log"
    assert diagnosis.first_error.text == "[rank3]: OSError: [Errno 28] No space left on device"
    assert diagnosis.culprit_ranks == [3]
