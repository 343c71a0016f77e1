"""Member paths tell the file kind and the rank, the way real collections name them."""

import pytest

from analyzers.core.types import FileKind
from analyzers.ingest import layout
from analyzers.ingest.layout import (
    LIVE_AGE,
    agent_attempt,
    agent_local_rank,
    classify_path,
    host_folder,
    rotation_of,
)

CASES = [
    ("job-f0dddebb/log_3.log", FileKind.RANK_LOG, 3),
    ("job/torchrun_logs/job_x/attempt_0/2/stderr.log", FileKind.RANK_LOG, 2),
    ("job/launcher.log", FileKind.LAUNCHER, None),
    ("job/env.txt", FileKind.ENV, None),
    ("job/versions.txt", FileKind.VERSIONS, None),
    ("ascend/process_log/rank_76/debug/plog/plog-12337_20250805194601414.log", FileKind.PLOG, 76),
    (
        "worker-1/process_log/debug/device-3/device-1365_20250806230906733.log",
        FileKind.DEVICE_LOG,
        None,
    ),
    ("ascend/environment_check/worker-9/npu_info_after.txt", FileKind.NPU_SMI, None),
    ("npu-smi-info.txt", FileKind.NPU_SMI, None),
    ("modelarts-job-testdt-proc-rank-2-device-2.txt", FileKind.RANK_LOG, 2),
    ("train_call/worker-2/rank-0.txt", FileKind.RANK_LOG, 0),
    ("run_20261204_1312/worker-2.log", FileKind.RANK_LOG, 2),
    ("logs/worker_5.txt", FileKind.RANK_LOG, 5),
    ("job-48d52520/train_2.log", FileKind.RANK_LOG, 2),
    ("logs/infer-3.txt", FileKind.RANK_LOG, 3),
    ("out_1.log", FileKind.RANK_LOG, 1),
    ("job/stdout_0.txt", FileKind.RANK_LOG, 0),
    ("job-1aa0b24c/console_2.out", FileKind.RANK_LOG, 2),
    ("logs/console-5.log", FileKind.RANK_LOG, 5),
    ("logs/console_2024.log", FileKind.RANK_LOG, None),
    ("logs/train_2024.log", FileKind.RANK_LOG, None),
    ("logs/train_v2.log", FileKind.RANK_LOG, None),
    ("worker-3/stdout.log", FileKind.RANK_LOG, None),
    ("d12/log.txt", FileKind.RANK_LOG, None),
    ("logs/hccl_rank5.log", FileKind.HCCL_LOG, 5),
    ("pip_freeze.txt", FileKind.VERSIONS, None),
    ("ascend-kg-parser.json", FileKind.OTHER, None),
    # schedulers' and launch scripts' names for one task's console
    ("job-123/slurm-12345_3.out", FileKind.RANK_LOG, 3),
    ("slurm-12345_11.err", FileKind.RANK_LOG, 11),
    ("slurm-12345.out", FileKind.RANK_LOG, None),
    ("logs/gpu3.log", FileKind.RANK_LOG, 3),
    ("logs/gpu_5.txt", FileKind.RANK_LOG, 5),
    ("job.o12345.3", FileKind.RANK_LOG, 3),
    ("pbs/train.e998.12", FileKind.RANK_LOG, 12),
    ("job.o12345", FileKind.OTHER, None),
    # a job's binary artefacts beside its logs: no rank wrote them
    ("job/profile_rank0.nsys-rep", FileKind.OTHER, None),
    ("ckpt/rank_3.pt", FileKind.OTHER, None),
    ("ckpt/global_step10/mp_rank_01_model_states.pt", FileKind.OTHER, None),
    ("node1/rank2/core.python.12345", FileKind.OTHER, None),
    ("rank_2/core", FileKind.OTHER, None),
    ("rank_2/core.log", FileKind.RANK_LOG, 2),
]


@pytest.mark.parametrize(("path", "kind", "rank"), CASES, ids=[c[0] for c in CASES])
def test_classify_path(path, kind, rank):
    assert classify_path(path) == (kind, rank)


# Which paths number ranks per launcher agent (labelling guide, "A second launcher agent
# numbers its ranks from 0"): torchrun's --log-dir tree does, a rank's own log name does not.
AGENT_CASES = [
    (
        "job/node1/torchrun_logs/job-7e21_k2x9/attempt_0/2/stderr.log",
        ("job/node1/torchrun_logs/job-7e21_k2x9/", 2),
    ),
    ("attempt_1/0/stdout.log", ("", 0)),
    ("job/log_3.log", None),
    ("job/rank_3/attempt.log", None),
    ("job/node1/launcher.log", None),
]


@pytest.mark.parametrize(("path", "expected"), AGENT_CASES, ids=[c[0] for c in AGENT_CASES])
def test_agent_local_rank(path, expected):
    assert agent_local_rank(path) == expected


# Which restart of the worker group a file belongs to (torchrun's `attempt_<n>/`).
ATTEMPT_CASES = [
    (
        "job/node1/torchrun_logs/job-7e21_k2x9/attempt_2/0/stdout.log",
        ("job/node1/torchrun_logs/job-7e21_k2x9/", 2),
    ),
    ("attempt_0/3/stderr.log", ("", 0)),
    ("job/rank_3/attempt.log", None),
    ("job/launcher.log", None),
    # a folder no launcher wrote (a tar member's name can be that long): not Python's refusal
    # to convert more than 4,300 digits, which failed the whole analysis
    ("job/attempt_" + "1" * 5000 + "/0/stdout.log", None),
]


@pytest.mark.parametrize(
    ("path", "expected"), ATTEMPT_CASES, ids=[c[0][:60] for c in ATTEMPT_CASES]
)
def test_agent_attempt(path, expected):
    assert agent_attempt(path) == expected


def test_a_gzipped_rank_log_is_named_and_ranked_like_the_log_it_holds():
    assert classify_path("job-874813b2/log_5.log.gz") == (FileKind.RANK_LOG, 5)
    assert classify_path("job-874813b2/log_5.log") == (FileKind.RANK_LOG, 5)


def test_a_second_copy_of_a_path_is_named_and_ranked_like_the_first():
    assert classify_path("node/log_5.log (copy 2)") == (FileKind.RANK_LOG, 5)
    assert classify_path("node/log_5.log.gz (copy 3)") == (FileKind.RANK_LOG, 5)
    assert agent_local_rank("run/attempt_0/3/stdout.log (copy 2)") == ("run/", 3)


def test_a_rotated_segment_is_named_and_ranked_like_the_live_log():
    # RotatingFileHandler renames log_3.log to log_3.log.1, log_3.log.2, ...: a segment
    # in the middle of the run often names no rank in its lines, so only its path can
    assert classify_path("job-7c2db15a/log_3.log.1") == (FileKind.RANK_LOG, 3)
    assert classify_path("job-7c2db15a/log_3.log.12") == (FileKind.RANK_LOG, 3)
    assert classify_path("job-7c2db15a/log_3.log.2.gz") == (FileKind.RANK_LOG, 3)


ROTATED = [
    # logrotate's dateext, daily and hourly, and compressed
    ("job/log_3.log-20261205", 3),
    ("job/log_3.log-2026120510", 3),
    ("job/log_3.log-20261205.gz", 3),
    # TimedRotatingFileHandler: a day, an hour, a minute, a second
    ("job/log_3.log.2026-12-05", 3),
    ("job/log_3.log.2026-12-05_10", 3),
    ("job/log_3.log.2026-12-05_10-00", 3),
    ("job/rank3.log.2026-12-05_10-00-00", 3),
    ("job/worker-2.txt.2026-12-05_10-00-00.gz", 2),
]


@pytest.mark.parametrize(("path", "rank"), ROTATED, ids=[c[0] for c in ROTATED])
def test_a_dated_segment_is_named_and_ranked_like_the_live_log(path, rank):
    assert classify_path(path) == (FileKind.RANK_LOG, rank)


def _age(path: str) -> tuple[int, int]:
    found = rotation_of(path)
    return found.age if found else LIVE_AGE


@pytest.mark.parametrize(
    "oldest_first",
    [
        ["log_3.log.12", "log_3.log.2", "log_3.log.1", "log_3.log"],
        ["log_3.log-20261204", "log_3.log-2026120409", "log_3.log-20261205", "log_3.log"],
        ["rank3.log.2026-12-04_23-59-59", "rank3.log.2026-12-05", "rank3.log"],
    ],
    ids=["numbered", "logrotate dateext", "TimedRotatingFileHandler"],
)
def test_segments_sort_oldest_first_and_the_live_file_last(oldest_first):
    assert sorted(reversed(oldest_first), key=_age) == oldest_first


def test_a_segment_names_the_live_file_it_was_cut_from():
    assert rotation_of("job/rank3.log.2026-12-05_10-00-00").live == "job/rank3.log"
    assert rotation_of("job/log_3.log-20261205").live == "job/log_3.log"
    assert rotation_of("job/log_3.log") is None


def test_a_dated_file_that_is_no_log_stays_unclassified():
    assert classify_path("job/model.ckpt-20261205") == (FileKind.OTHER, None)
    assert classify_path("job/summary.2026-12-05") == (FileKind.OTHER, None)


def test_a_numbered_file_that_is_no_log_stays_unclassified():
    assert classify_path("job/model.1") == (FileKind.OTHER, None)
    assert classify_path("job/weights.bin.3") == (FileKind.OTHER, None)


def test_a_rotation_rule_that_cannot_order_its_segments_fails_at_load(tmp_path, monkeypatch):
    rules = layout.LAYOUT_FILE.read_text(encoding="utf-8")
    bad = tmp_path / "layout.yaml"
    bad.write_text(rules.replace("(?P<number>", "(?P<counter>"), encoding="utf-8")
    monkeypatch.setattr(layout, "LAYOUT_FILE", bad)
    layout.load_layout.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"rotation .* needs a `live` group"):
            layout.load_layout()
    finally:
        monkeypatch.undo()
        layout.load_layout.cache_clear()


@pytest.mark.parametrize(
    ("path", "host"),
    [
        ("job-77c0/node-3/log_0.log", "node-3"),
        ("job-77c0/host10.20.0.5/rank_3.log", "10.20.0.5"),
        ("logs/10.0.0.4/log_2.log", "10.0.0.4"),
        ("fault_diag_data/worker-1/plog/plog-1234_20251205.log", "worker-1"),
        ("sft-5c1d-worker-1/stdout.log", "sft-5c1d-worker-1"),  # a pod's folder
        ("run/gpu-node-07/torchrun_logs/a1_x/attempt_0/3/stderr.log", "gpu-node-07"),
        ("run/ip-172-31-8-5/train_1.log", "ip-172-31-8-5"),
        # folders of a rank, a device, an attempt, a run: no host
        ("job/rank_3/stdout.log", None),
        ("job/device-1/device-1382_20251205.log", None),
        ("job/torchrun_logs/a1_x/attempt_0/0/stderr.log", None),
        ("node-3.log", None),  # a file's name is no folder
    ],
)
def test_host_folder(path, host):
    assert host_folder(path) == host


# one torchrun agent's console per node folder, named after the agent
AGENT_CONSOLES = [
    ("job-6134386b/node0/agent.log", FileKind.LAUNCHER),
    ("job/node1/agent_node1.txt", FileKind.LAUNCHER),
    # counterexample: another program's agent, its name not starting with the word
    ("ray/logs/dashboard_agent.log", FileKind.RANK_LOG),
]


@pytest.mark.parametrize(("path", "kind"), AGENT_CONSOLES, ids=[c[0] for c in AGENT_CONSOLES])
def test_an_agent_s_console_is_a_launcher_log(path, kind):
    assert classify_path(path) == (kind, None)
