"""What one line says: its best signature, its label and its tier in a cascade."""

from __future__ import annotations

import pytest

from analyzers.classify.events import (
    TIER_CASCADE,
    TIER_CAUSE,
    TIER_GENERIC,
    TIER_NOISE,
    TIER_SYMPTOM,
    TIER_TEARDOWN_KILL,
    TIER_UNKNOWN,
    TIER_UNMATCHED,
    TIER_WRAPPED_CAUSE,
    TIER_WRAPPER,
    classify_event,
    classify_scans,
    match_line,
)
from analyzers.classify.matches import Classified
from analyzers.classify.rules import load_knowledge
from analyzers.core.types import Event, EventKind, FileInfo, FileKind, FileScan
from analyzers.formats.codes import extract_codes
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter
from analyzers.scan.quiet_tail import TAIL_SOURCE
from tests.analyzers.excerpts import assert_reads, diagnose_text, scan_text

KNOWLEDGE = load_knowledge()


def event(message: str, kind: EventKind = EventKind.ERROR, source: str | None = None) -> Event:
    """An event as the scanner makes it: the message after prefixes, the codes in it."""
    return Event(
        file="job/log_0.log",
        line=1,
        text=message,
        kind=kind,
        message=message,
        source=source,
        codes=extract_codes(message),
    )


CASES = [
    # (line, best signature, category, tier)
    (
        "EZ9999: [PID: 8308179] 2026-10-22-12:47:24.466.609 The error from device(chipId:7, "
        "dieId:0), serial number is 575, there is an exception of fftsplus aivector error, "
        "core id is 32, error code = 0x10ac73",
        "aicore.fftsplus_exception",
        "aicore_timeout",
        TIER_CAUSE,
    ),
    (
        "RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:565 NPU "
        "function error: AclrtSynchronizeDeviceWithTimeout, error code is 507015",
        "stream.synchronize_call_failed",
        "aicore_timeout",
        TIER_WRAPPED_CAUSE,
    ),
    (
        "RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:333 NPU "
        "function error: aclrtSynchronizeDevice, error code is 507046",
        "stream.synchronize_call_failed",
        "stream_sync",
        TIER_WRAPPER,
    ),
    (
        "EE1002: 2024-12-11-13:03:41.366.560 Stream synchronize timeout. rtDeviceSynchronize "
        "execute failed, reason=[stream sync timeout]",
        "stream.sync_timeout",
        "stream_sync",
        TIER_SYMPTOM,
    ),
    (
        "EH9999[PID: 822] 2026-07-25-03:26:57.356.021 (EH9999):  [Query][Status]query event "
        "recorded status failed, runtime result = 507014[FUNC:ReportCallError]",
        "stream.runtime_result",
        "aicore_timeout",
        TIER_CAUSE,
    ),
    (
        "RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:495 OPS "
        "function error: HcclAllreduce, error code is 9",
        "hccl.function_error",
        "hccl",
        TIER_WRAPPER,
    ),
    (
        "RuntimeError: npu_fused_infer_attention_score_out_symint:build/CMakeFiles/torch_npu.dir/"
        "compiler_depend.ts:929 NPU function error: call aclnnFusedInferAttentionScoreV3 failed, "
        "error code is 561002",
        "op.aclnn_call_failed",
        "operator",
        TIER_WRAPPED_CAUSE,
    ),
    (
        "[PID: 7] 2026-03-01-10:11:12.131.415 Invalid_Argument(EE1001): The argument is invalid."
        "Reason: stream handle is null",
        "op.parameter_error_message",
        "operator",
        TIER_CAUSE,
    ),
    ("AclNN_Parameter_Error(EZ1001):", "op.parameter_error_headline", "operator",
     TIER_WRAPPED_CAUSE),
    (
        "EI0002: [PID: 364941] 2025-11-13-17:19:44.070.578 The wait execution of the Notify "
        "register times out. Reason: The Notify register has not received the Notify record",
        "hccl.notify_wait_timeout",
        "hccl",
        TIER_SYMPTOM,
    ),
    (
        # listed in CANN's HCCL error list: a collective's invalid argument is a root failure,
        # not a wait (EI0004's refused rank table has a rule of its own, cfg.ranktable_refused)
        "EI0003: [PID: 10] 2026-01-01-01:01:01.001.001 In [HcclAllReduce], value [9] for "
        "parameter [op] is invalid.",
        "tail.cann_block_line",
        "hccl",
        TIER_CAUSE,
    ),
    (
        "EI0004: [PID: 10] 2026-01-01-01:01:01.001.001 The ranktable is invalid. Reason: rank 3 "
        "has no device ip",
        "cfg.ranktable_refused",
        "config",
        TIER_CAUSE,
    ),
    (
        "[ERROR] 2025-05-16-20:08:19 (PID:9649388, Device:2, RankID:2) ERR00100 PTA call acl "
        "api failed",
        "tail.pta_summary",
        "other",
        TIER_CASCADE,
    ),
    (
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
        "Connection closed by peer [127.0.0.1]:1946. This is typically caused by a remote worker "
        "crashing.",
        "hccl.peer_connection_closed",
        "hccl",
        TIER_CASCADE,
    ),
    ("terminate called after throwing an instance of 'std::runtime_error'", "tail.cpp_terminate",
     "other", TIER_GENERIC),
    ("KeyError: 'model.layers.1.mlp.experts.weight'", "wl.missing_weight_key", "weight_load",
     TIER_CAUSE),
    ("KeyError: 'layers.7.mlp.down_proj.deq_scale'", "wl.missing_weight_key", "weight_load",
     TIER_CAUSE),
    # a layer's KV cache is registered by the runner, not read from a checkpoint
    ("KeyError: 'model.layers.4.attn.kv_cache'", "cfg.layer_missing_from_registry", "config",
     TIER_CAUSE),
    ("KeyError: 'model.layers.4.self_attn.k_cache_scale'", "wl.missing_weight_key",
     "weight_load", TIER_CAUSE),
    # older builds of the engine's all-reduce print the place without `Cuda error`
    ("Failed: /opt/build/csrc/custom_all_reduce.cuh:291 'invalid argument'",
     "hccl.custom_allreduce_cuda_check", "hccl", TIER_CAUSE),
    ("RuntimeError: NCCL Error 2: unhandled system error (run with NCCL_DEBUG=INFO for details)",
     "hccl.nccl_system_error", "hccl", TIER_SYMPTOM),
    # torch's watchdog reports an NCCL failure on a finished collective without a location
    ("[Rank 5] Collective WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
     "Timeout(ms)=600000) raised the following async exception: NCCL error: unhandled system "
     "error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
     "hccl.nccl_system_error", "hccl", TIER_SYMPTOM),
    ("[ERROR] HCCL(7311,python3):2026-03-02-10:15:40.221.908 [hccl_communicator_host.cc:6296] "
     "[7402][AllocComResource]call trace: hcclRet -> 9", "hccl.call_trace", "hccl", TIER_SYMPTOM),
    # a runtime number that is a root failure labels the line, not the error-manager code
    ("[PID: 4021] 2026-03-01-08:12:40.118.204 AclNN_Runtime_Error(EZ9903): "
     "rtKernelLaunchWithHandleV2 failed: 507015", "tail.cann_block_line", "aicore_timeout",
     TIER_CAUSE),
    ("EH9999[PID: 77] 2026-02-11-09:40:02.551.310 (EH9999):  wait for compute device to finish "
     "failed, runtime result = 507034.[FUNC:ReportCallError]", "stream.sync_wait_result",
     "aicore_timeout", TIER_CAUSE),
]  # fmt: skip


@pytest.mark.parametrize(("line", "signature", "category", "tier"), CASES)
def test_line_gets_its_signature_label_and_tier(
    line: str, signature: str, category: str, tier: float
) -> None:
    item = classify_event(event(line), 0, KNOWLEDGE)
    assert item.best is not None
    assert (item.best.id, item.category, item.tier) == (signature, category, tier)


def test_specific_text_beats_the_generic_error_manager_line() -> None:
    line = (
        "EZ9999[PID: 57621] 2026-07-10-14:37:28.138.485 (EZ9999):  HCCL_BUFFSIZE is too SMALL, "
        "maxBs = 914, h = 2048, epWorldSize = 2"
    )
    item = classify_event(event(line), 0, KNOWLEDGE)
    ids = [m.id for m in item.matches]
    assert ids[0] == "hccl.buffsize_too_small"
    assert "tail.cann_block_line" in ids


def test_monitored_barrier_line_names_the_ranks_that_did_not_arrive() -> None:
    line = "[Rank 0]: Ranks 1, 3 failed to pass monitoredBarrier in 30000 ms"
    item = classify_event(event(line), 0, KNOWLEDGE)
    assert item.best is not None
    assert item.best.culprits == (1, 3)


def test_operator_comes_from_the_aclnn_call() -> None:
    line = "aclnnQuantMatmulWeightNz failed, error code is 161002"
    item = classify_event(event(line), 0, KNOWLEDGE)
    assert item.operator == "aclnnQuantMatmulWeightNz"
    assert [info.code for info in item.codes] == ["161002"]


def test_quoted_source_line_of_a_traceback_is_not_an_error() -> None:
    item = classify_event(
        event('    raise RuntimeError("Distributed package doesn\'t have NCCL built in")'),
        0,
        KNOWLEDGE,
    )
    assert item.matches == ()
    assert item.tier == TIER_NOISE


def test_an_assert_statement_kept_as_an_error_is_read_as_its_assertion_error() -> None:
    # a report that quotes only the failed statement, without the bare AssertionError under it
    item = classify_event(event("assert weight_param.shape == loaded_w.shape"), 0, KNOWLEDGE)
    assert item.best is not None
    assert (item.best.id, item.category) == ("wl.loader_shape_assertion", "weight_load")


def test_an_assert_statement_of_no_known_check_stays_unmatched() -> None:
    item = classify_event(event("assert hidden.shape == residual.shape"), 0, KNOWLEDGE)
    assert item.matches == ()


def test_unknown_exception_is_someones_own_failure_and_unknown_text_is_noise() -> None:
    unknown = classify_event(event("ValueError: prompt must not be empty"), 0, KNOWLEDGE)
    noise = classify_event(
        event("[ERROR] HCCL(1,python):| dest_ip(rank_id) | Role |"), 0, KNOWLEDGE
    )
    assert (unknown.tier, unknown.category) == (TIER_UNKNOWN, None)
    assert noise.tier == TIER_NOISE


def test_a_line_read_from_a_quiet_bundles_tail_is_cited_only_when_nothing_else_is() -> None:
    """No error word, no rule: printed alone it is noise, but read from the tail of a bundle
    with no error line (`classify.tail_reading`) it is a bare failure the learned words label."""
    text = "conda activate refused: /opt/envs/train is owned by another account"
    assert classify_event(event(text), 0, KNOWLEDGE).tier == TIER_NOISE
    from_tail = classify_event(event(text, source=TAIL_SOURCE), 0, KNOWLEDGE)
    assert (from_tail.tier, from_tail.matches) == (TIER_UNMATCHED, ())


def test_the_exception_line_that_ends_a_traceback_is_a_failure_whatever_its_class_name() -> None:
    text = "pkg.detector.DeviceLibError_NotFound: Library Not Found"
    ends = Event("log.txt", 9, text, EventKind.ERROR, text, source="traceback")
    glued = classify_event(event("ProbeError_Timeout: no answer from device 3"), 0, KNOWLEDGE)
    assert classify_event(ends, 0, KNOWLEDGE).tier == TIER_UNKNOWN
    assert glued.tier == TIER_UNKNOWN


@pytest.mark.parametrize(
    ("text", "tier"),
    [
        ('  "KeyError: the sampler lost its scheduler state', TIER_UNKNOWN),
        ("`ValueError: latent frames must be a multiple of 4`", TIER_UNKNOWN),
        ('    raise ValueError("ValueError: latent frames must be a multiple of 4")', TIER_NOISE),
        ('logger.error(f"ValueError: {message}")', TIER_NOISE),
    ],
)
def test_an_exception_quoted_into_prose_opens_with_its_quote_mark(text: str, tier: float) -> None:
    """A log pasted into a description keeps the quote that opens the quotation before the
    exception's class; inside a sentence or a source line the quote does not make one."""
    assert classify_event(event(text), 0, KNOWLEDGE).tier == tier


@pytest.mark.parametrize(
    ("text", "tier"),
    [
        # (a channel graph naming a device the host lacks is a known rule now)
        (
            "node3:811:902 [1] graph/search.cc:1047 NCCL WARN Could not build a ring pattern for channel 2.",
            2.0,
        ),
        # the collective benchmarks' own `Test NCCL failure ...` line is a known rule now
        ("perf_check: NCCL call returned 'unhandled cuda error (run with NCCL_DEBUG=INFO)'", 2.0),
        # says nothing of what: read only where the job shows nothing better
        (".. node-14 pid 30121: Test failure common.cu:915", TIER_UNMATCHED),
        ('    raise RuntimeError("NCCL communicator was aborted")', 1.0),  # quoted source
    ],
)
def test_unknown_error_wording_is_citable_when_its_words_name_a_failure_kind(
    text: str, tier: float
) -> None:
    assert classify_event(event(text), 0, KNOWLEDGE).tier == tier


@pytest.mark.parametrize(
    "text",
    [
        # the words name a kind (a configuration, a checkpoint), but the line only says
        # the writer goes on or advises: chatter is noise before the words are weighed
        "ERROR the config option --foo is deprecated and ignored",
        "ERROR the weights checkpoint shard is missing on the mirror, falling back to the hub",
        "OMP: Hint Please submit a bug report with the compile commands and machine configuration.",
    ],
)
def test_chatter_stays_noise_whatever_its_words_name(text: str) -> None:
    assert classify_event(event(text), 0, KNOWLEDGE).tier == TIER_NOISE


def test_a_cann_log_line_marked_error_is_a_bare_failure_even_unknown() -> None:
    text = "[66120][Ring][Prepare]unexpected state 3 for link 7"
    plog = Event("plog/plog-1.log", 4, text, EventKind.ERROR, text, source="plog", level="ERROR")
    assert classify_event(plog, 0, KNOWLEDGE).tier == TIER_GENERIC


def test_a_service_log_line_its_writer_marked_error_is_a_bare_failure_even_unknown() -> None:
    """Native services (ATB, MindIE) log refusals in a bracketed header with a level field;
    the level says it failed even when the words name no failure kind."""
    text = "Rope bucket 6 is not ready for slot 3"
    line = Event("atb/atb_1.log", 2, text, EventKind.ERROR, text, source="logging", level="ERROR")
    assert classify_event(line, 0, KNOWLEDGE).tier == TIER_GENERIC


@pytest.mark.parametrize(
    "raw",
    [
        "ERROR 05-06 10:00:02 [engine.py:409] Slot table for bucket 12 holds stale owner 7",
        "(VllmWorkerProcess pid=4410) ERROR 05-06 10:00:02 multiproc_worker_utils.py:233] "
        "Slot table for bucket 12 holds stale owner 7",
        "CRITICAL 05-06 10:00:02 [launcher.py:99] Slot table for bucket 12 holds stale owner 7",
    ],
)
def test_a_vllm_logger_line_marked_error_is_a_bare_failure_even_unknown(raw: str) -> None:
    """vLLM's logger writes the level first (labelling.md, "First causal error": a line its
    writer marked ERROR in a level field counts below every line a signature reads)."""
    line = _parsed_event(raw)
    assert line.source == "vllm"
    assert classify_event(line, 0, KNOWLEDGE).tier == TIER_GENERIC


@pytest.mark.parametrize(
    "raw",
    [
        "WARNING 05-06 10:00:02 [engine.py:409] Slot table for bucket 12 holds stale owner 7",
        "(VllmWorkerProcess pid=4410) INFO 05-06 10:00:02 multiproc_worker_utils.py:233] "
        "Slot table for bucket 12 holds stale owner 7",
    ],
)
def test_the_same_vllm_words_at_a_lower_level_stay_noise(raw: str) -> None:
    line = _parsed_event(raw)
    assert line.source == "vllm"
    assert classify_event(line, 0, KNOWLEDGE).tier == TIER_NOISE


def _parsed_event(raw: str) -> Event:
    """An event from one raw line, its header read as the scanner reads it."""
    parsed = parse_line(raw)
    kind = classify(parsed, load_prefilter()) or EventKind.WARNING
    return Event(
        "logs/engine.log",
        3,
        raw,
        kind,
        parsed.message,
        source=parsed.source,
        level=parsed.level,
        codes=extract_codes(parsed.message),
    )


def test_a_ucx_line_marked_error_is_a_bare_failure_even_unknown() -> None:
    """UCX writes its level after its name; a NIC's refusal there is often only an errno text,
    which no signature may know, and it still outranks nothing-said."""
    line = _parsed_event(
        "[1790001122.334455] [decode-node-4:6021 :0]    ib_mlx5dv_md.c:1100 UCX  ERROR mlx5_3:"
        " slot 4 state 2: No such device"
    )
    assert line.source == "ucx"
    assert classify_event(line, 0, KNOWLEDGE).tier == TIER_GENERIC


def test_the_same_ucx_words_at_debug_stay_noise() -> None:
    line = _parsed_event(
        "[1790001122.334455] [decode-node-4:6021 :0]    ib_mlx5dv_md.c:1100 UCX  DEBUG mlx5_3:"
        " slot 4 state 2: No such device"
    )
    assert classify_event(line, 0, KNOWLEDGE).tier == TIER_NOISE


def test_the_same_unknown_words_without_an_error_level_stay_noise() -> None:
    text = "Rope bucket 6 is not ready for slot 3"
    untagged = Event("atb/atb_1.log", 2, text, EventKind.ERROR, text)
    quiet = Event(
        "atb/atb_1.log", 2, text, EventKind.WARNING, text, source="logging", level="WARNING"
    )
    assert classify_event(untagged, 0, KNOWLEDGE).tier == TIER_NOISE
    assert classify_event(quiet, 0, KNOWLEDGE).tier == TIER_NOISE


def test_warning_counts_less_than_the_same_text_as_an_error() -> None:
    line = "No available shared memory broadcast block found in 60 second."
    warning = classify_event(event(line, EventKind.WARNING), 0, KNOWLEDGE)
    assert warning.tier == TIER_SYMPTOM - 1.5


def test_launcher_warning_that_records_an_outside_stop_keeps_its_tier() -> None:
    line = (
        "W0412 22:10:05.118000 7731 torch/distributed/elastic/agent/server/api.py:753] "
        "Received 15 death signal, shutting down workers"
    )
    stop = classify_event(event(line, EventKind.WARNING), 0, KNOWLEDGE)
    assert (stop.category, stop.tier) == ("other", TIER_GENERIC)


def test_a_library_that_warns_of_its_failures_keeps_the_lines_tier() -> None:
    """NCCL has no error level: its warning that a peer closed the socket is its failure
    report and keeps the cascade tier; a warning of a rule without `failure_warning` still
    loses the penalty (docs/labelling.md#a-peer-that-stopped-answering)."""
    closed = (
        "node-3:5310:5342 [1] include/socket.h:416 NCCL WARN Net : Connection closed by remote peer"
    )
    item = classify_event(event(closed, EventKind.WARNING), 0, KNOWLEDGE)
    assert (item.category, item.tier) == ("hccl", TIER_CASCADE)
    other = classify_event(
        event("No available shared memory broadcast block found in 60 second.", EventKind.WARNING),
        0,
        KNOWLEDGE,
    )
    assert other.tier == TIER_SYMPTOM - 1.5


def test_launcher_warning_that_it_stops_the_workers_stays_below_an_error() -> None:
    line = (
        "W0412 22:10:05.120000 7731 torch/distributed/elastic/multiprocessing/api.py:1028] "
        "Sending process 7740 closing signal SIGTERM"
    )
    closing = classify_event(event(line, EventKind.WARNING), 0, KNOWLEDGE)
    assert closing.tier < TIER_GENERIC


def test_innermost_traceback_frame_keeps_its_tier() -> None:
    frame = (
        '  File "/workspace/vllm/vllm/distributed/device_communicators/shm_broadcast.py", '
        "line 375, in acquire_read"
    )
    item = classify_event(event(frame, EventKind.WARNING, "traceback_frame"), 0, KNOWLEDGE)
    assert (item.category, item.tier) == ("hang", TIER_SYMPTOM)


def test_scans_give_each_event_its_files_rank_and_kind() -> None:
    info = FileInfo(path="job/log_3.log", kind=FileKind.RANK_LOG, rank=3)
    error = event("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)")
    checkpoint = Event("job/log_3.log", 2, " norm passed", EventKind.CHECKPOINT, "norm passed")
    items = classify_scans([FileScan(info, [error, checkpoint])], KNOWLEDGE)
    assert len(items) == 1
    assert (items[0].rank, items[0].kind, items[0].category) == (
        3,
        FileKind.RANK_LOG,
        "shape_mismatch",
    )


SHARED_STDOUT = """\
2026-12-04 16:51:47,858 [rank3] INFO  attention passed
2026-12-04 16:51:47,868 [rank1] INFO  MoE passed
2026-12-04 16:51:47,868 [rank1] INFO layer 5 passed
2026-12-04 16:51:47,868 [rank1] INFO prefill start: 8 tokens
free(): double free detected in tcache 2
2026-12-04 16:51:47,872 [rank6] INFO  MoE passed
2026-12-04 16:51:47,873 [rank6] INFO layer 5 passed
"""


def test_an_untagged_error_in_a_stdout_several_ranks_share_is_not_recovered() -> None:
    # the C library writes to the process's stderr with no rank tag; the next ranks' progress
    # lines are other processes', not the aborted one going on
    items = classify_scans([scan_text("job/job.log", SHARED_STDOUT)], KNOWLEDGE)
    free = next(item for item in items if "double free" in item.event.text)
    assert (free.rank, free.recovered, free.tier) == (None, False, TIER_CAUSE)


def test_an_error_one_ranks_own_log_goes_on_after_is_recovered() -> None:
    text = "\n".join(
        line.split("] INFO ", 1)[-1] for line in SHARED_STDOUT.splitlines() if "rank6" not in line
    )
    items = classify_scans([scan_text("job/log_3.log", text + "\n layer 0 passed\n")], KNOWLEDGE)
    free = next(item for item in items if "double free" in item.event.text)
    assert free.recovered


def test_a_launcher_line_listing_ranks_with_ranges_names_each_rank() -> None:
    line = "srun: error: gpu-node-4: tasks 8-11,13: Killed"
    (match, *_) = match_line(line, (), KNOWLEDGE)
    assert match.id == "dev.srun_task_sigkill"
    assert match.culprits == (8, 9, 10, 11, 13)


def test_a_range_wider_than_any_job_is_read_as_its_first_number() -> None:
    (match, *_) = match_line("srun: error: n1: tasks 2-999999: Killed", (), KNOWLEDGE)
    assert match.culprits == (2,)


SPAWN_CHILD_LOST_PEER = """\
W1204 20:28:19.613000 31770 torch/multiprocessing/spawn.py:165] Terminating process 31804 via signal SIGTERM
Traceback (most recent call last):
  File "<string>", line 5, in <module>
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 211, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException: 

-- Process 3 terminated with the following error:
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252, in all_reduce
    work.wait()
RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:2461. This is typically caused by a remote worker crashing.
"""


def test_a_spawn_join_carrying_a_childs_lost_peer_ranks_below_that_lost_peer() -> None:
    # the child's lost peer is a cascade; the empty wrapper printed above it only carries it,
    # so it must not tie with it and be cited for coming first
    items = classify_scans([scan_text("job/stdout.log", SPAWN_CHILD_LOST_PEER)], KNOWLEDGE)
    wrapper = next(i for i in items if "ProcessRaisedException" in i.event.text)
    child = next(i for i in items if "Connection closed by peer" in i.event.text)
    assert (child.tier, child.rank) == (TIER_CASCADE, 3)
    assert wrapper.tier == TIER_GENERIC


RERAISED_IN_HANDLER = """\
Traceback (most recent call last):
  File "/work/job/infer.py", line 12, in main
    dist.all_reduce(t)
RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:2461.

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/work/job/infer.py", line 14, in main
    raise JobAborted("step failed")
infer.JobAborted: step failed
"""


def test_an_exception_raised_while_handling_another_stays_a_cascade_not_a_carrier() -> None:
    # a re-raise printed after its cause is not a carrier: it keeps the cascade tier
    items = classify_scans([scan_text("job/log_0.log", RERAISED_IN_HANDLER)], KNOWLEDGE)
    handler = next(i for i in items if "JobAborted" in i.event.text)
    assert handler.tier == TIER_CASCADE


def test_an_error_followed_by_the_ranks_next_attempt_is_not_recovered() -> None:
    """A retry loop appended attempt 1 to the rank's log: the rank was started again, it did
    not carry on after its error (checkpoints.restarts)."""
    run = ["load weights passed\n", "prefill start: 8 tokens\n", "  norm passed\n"]
    error = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 8x8)\n"
    scan = scan_text("job/log_1.log", "".join([*run, error, *run]))
    (item,) = [i for i in classify_scans([scan], KNOWLEDGE) if "mat1" in i.event.text]
    assert (item.recovered, item.tier) == (False, TIER_CAUSE)


# A rank's feeding thread dies; its main thread finishes the prompt it holds and then waits
# forever for the next one (no further line).
THREAD_DIED_THEN_STOPPED = """\
prefill start: prompt 0, 8 tokens
 norm passed
Exception in thread feeder:
Traceback (most recent call last):
  File "/usr/lib/python3.11/threading.py", line 1045, in _bootstrap_inner
    self.run()
  File "/srv/infer/feeder.py", line 31, in run
    batch = rows @ proj
RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x32)
 attention passed
 MoE passed
layer 0 passed
prefill passed
"""


def test_a_thread_that_died_in_a_rank_that_never_finished_is_not_recovered() -> None:
    items = classify_scans([scan_text("job/log_1.log", THREAD_DIED_THEN_STOPPED)], KNOWLEDGE)
    died = next(item for item in items if "mat1 and mat2" in item.event.text)
    assert not died.recovered
    header = next(item for item in items if "Exception in thread" in item.event.text)
    assert header.tier < died.tier


def test_a_thread_that_died_in_a_rank_that_finished_is_recovered() -> None:
    text = THREAD_DIED_THEN_STOPPED + "model run success\n"
    items = classify_scans([scan_text("job/log_1.log", text)], KNOWLEDGE)
    died = next(item for item in items if "mat1 and mat2" in item.event.text)
    assert died.recovered


@pytest.mark.parametrize(
    ("text", "tier"),
    [
        ("keyctl: error: cannot reach the session keyring", TIER_GENERIC),
        ("prep_data.py: fatal error: shard index missing", TIER_GENERIC),
        # a sentence that mentions an error, not a program's own report of one: an error line
        # read only where the job shows nothing better
        ("note: the summary error: count is kept per shard", TIER_UNMATCHED),
        ("the tool said error: nothing more", TIER_UNMATCHED),
    ],
)
def test_a_program_that_reports_its_own_error_in_the_unix_form_is_a_bare_failure(
    text: str, tier: float
) -> None:
    """`<program>: error: <text>` is how command-line tools say they stopped; the words after
    it need not name a failure kind for the line to be citable."""
    assert classify_event(event(text), 0, KNOWLEDGE).tier == tier


# torchrun --tee 3 (no --log-dir), plain prints: the agent copies each rank's stdout and stderr
# from two files read in turn, so rank 1's traceback (stderr, torch's `[rank1]:` prefix) lands
# above the last progress lines it printed before the failure (torch 2.13, gloo, DDP comm hook).
TEE_REORDERED = """\
[default0]:layer 1 passed
[default1]:layer 1 passed
[default0]:  norm passed
[default1]:  norm passed
[default1]:[rank1]: Traceback (most recent call last):
[default1]:[rank1]:   File "/srv/ddp/train.py", line 143, in quantize_hook
[default1]:[rank1]:     blocks = buf.view(-1, 48)
[default1]:[rank1]: RuntimeError: shape '[-1, 48]' is invalid for input of size 6561
[default0]:  attention passed
[default1]:  attention passed
[default1]:  MoE passed
[default1]:layer 2 passed
[default1]:model run failed
{tail}"""
AGENT_SAW_RANK_1_FAIL = """\
E1205 01:46:12.127000 12508 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: 1 (pid: 12621) of binary: /usr/bin/python3
Traceback (most recent call last):
  File "/usr/local/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
/srv/ddp/train.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-12-05_01:46:12
  host      : localhost
  rank      : 1 (local_rank: 1)
  exitcode  : 1 (pid: 12621) 
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
"""


def _shape_error(text: str) -> object:
    items = classify_scans([scan_text("ddp-int8/host-a/train.log", text)], KNOWLEDGE)
    return next(i for i in items if "is invalid for input of size" in i.event.text)


def test_tee_console_progress_after_a_failed_ranks_traceback_is_no_recovery() -> None:
    """The agent reports rank 1 failed and rank 1 never logged its success line: the progress
    copied below its traceback was printed before it, and the error keeps its weight."""
    item = _shape_error(TEE_REORDERED.format(tail=AGENT_SAW_RANK_1_FAIL))
    assert not item.recovered
    assert item.tier == TIER_CAUSE


def test_tee_console_rank_that_finished_after_its_error_recovered() -> None:
    """Counterexample: no failure of rank 1 reported, and rank 1 logs its success line."""
    item = _shape_error(TEE_REORDERED.format(tail="[default1]:model run success\n"))
    assert item.recovered


# torchrun --tee 3, logging to stdout: rank 3 died of SIGSEGV in its MoE step; the agent's own
# report of the child's end is written as soon as it sees it, while the ranks' stdout (their
# progress before the crash) is copied into the console only after it (torch 2.13, gloo).
TEE_AGENT_REPORT_BEFORE_PROGRESS = """\
[default0]:[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:26810. This is typically caused by a remote worker crashing.
E1205 05:05:07.891000 4805 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -11) local_rank: 3 (pid: 4864) of binary: /usr/bin/python3
[default3]:2026-12-05 05:05:07,520 [rank3] INFO layer 0 passed
[default3]:2026-12-05 05:05:07,531 [rank3] INFO   norm passed
[default3]:2026-12-05 05:05:07,557 [rank3] INFO   attention passed
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
train.py FAILED
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-12-05_05:05:07
  host      : localhost
  rank      : 3 (local_rank: 3)
  exitcode  : -11 (pid: 4864)
  error_file: <N/A>
  traceback : Signal 11 (SIGSEGV) received by PID 4864
============================================================
"""


def test_tee_console_progress_copied_after_the_agents_report_of_a_rank_is_no_recovery() -> None:
    """The agent's own line that rank 3 died is no error rank 3 carried on from: the progress
    below it was printed before the crash and copied late, so the report keeps its weight."""
    items = classify_scans(
        [scan_text("job/launcher.log", TEE_AGENT_REPORT_BEFORE_PROGRESS)], KNOWLEDGE
    )
    report = next(i for i in items if "failed (exitcode: -11)" in i.event.text)
    assert not report.recovered
    assert report.tier == TIER_CAUSE


PROMPT_SLIP_THEN_DEVICE_ERROR = """\
>>> import fastmt
>>> engine = fastmt.Engien("model_dir/", device="npu")
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
AttributeError: module 'fastmt' has no attribute 'Engien'
>>> engine = fastmt.Engine("model_dir/", device="npu")
>>> engine.run([[1, 2, 3]])
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
RuntimeError: CANN failed with error 100024
"""

PROMPT_IMPORT_THEN_MISSING_NAME = """\
>>> import torch, torch_npu
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
ImportError: libhccl.so: cannot open shared object file: No such file or directory
>>> torch.npu.set_device(0)
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
AttributeError: module 'torch' has no attribute 'npu'
"""

SCRIPT_ATTRIBUTE_THEN_DEVICE_ERROR = """\
Traceback (most recent call last):
  File "/srv/app/warmup.py", line 8, in <module>
    engine = fastmt.Engien("model_dir/")
AttributeError: module 'fastmt' has no attribute 'Engien'
Traceback (most recent call last):
  File "/srv/app/serve.py", line 30, in <module>
    engine.run(batch)
RuntimeError: CANN failed with error 100024
"""


def _first_cause(text: str) -> str:
    items = list(classify_scans([scan_text("session.txt", text)], KNOWLEDGE))
    top = max(item.tier for item in items)
    return next(item for item in items if item.tier == top).event.text


def test_a_mistyped_name_at_the_prompt_yields_to_the_sessions_later_exception() -> None:
    """The prompt printed the slip and took the next statement: the later exception is the
    failure (docs/labelling.md, "A slip at the interactive prompt")."""
    assert "CANN failed with error 100024" in _first_cause(PROMPT_SLIP_THEN_DEVICE_ERROR)


def test_an_import_that_failed_at_the_prompt_stays_ahead_of_what_it_left_unbound() -> None:
    assert "ImportError: libhccl.so" in _first_cause(PROMPT_IMPORT_THEN_MISSING_NAME)


def test_a_scripts_attribute_error_is_no_prompt_slip() -> None:
    items = list(
        classify_scans([scan_text("job.log", SCRIPT_ATTRIBUTE_THEN_DEVICE_ERROR)], KNOWLEDGE)
    )
    slip = next(item for item in items if "Engien" in item.event.text)
    assert not slip.recovered


# --- a launcher that kills a survivor after its grace period -------------------------------


def _summary_record(index: str, time: str, rank: int, exitcode: str) -> list[str]:
    return [
        f"[{index}]:",
        f"  time      : 2026-11-30_{time}",
        "  host      : node-a",
        f"  rank      : {rank} (local_rank: {rank})",
        f"  exitcode  : {exitcode}",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
    ]


def _torchrun_summary(failures: list[list[str]], root: list[str]) -> str:
    """torchrun's closing report as its agent prints it under its own traceback."""
    rule = "-" * 60
    lines = [
        "Traceback (most recent call last):",
        '  File "/opt/venv/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py", '
        "line 263, in launch_agent",
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "=" * 60,
        "serve_llm.py FAILED",
        rule,
        "Failures:",
    ]
    for record in failures:
        lines += record
    lines += [rule, "Root Cause (first observed failure):", *root, "=" * 60]
    return "\n".join(lines) + "\n"


# rank 2 exits with status 1 first; the agent SIGTERMs the rest, rank 3 stops, and rank 1,
# still running 30 s later, is killed by the agent itself
KILLED_IN_TEARDOWN = _torchrun_summary(
    [
        _summary_record("1", "10:00:06", 3, "-15 (pid: 4403)"),
        _summary_record("2", "10:00:36", 1, "-9 (pid: 4401)"),
    ],
    _summary_record("0", "10:00:05", 2, "1 (pid: 4402)"),
)
# rank 1 is killed first (the OOM killer, an operator); its peers exit 1 after losing it
KILLED_FIRST = _torchrun_summary(
    [_summary_record("1", "10:00:09", 2, "1 (pid: 4402)")],
    _summary_record("0", "10:00:05", 1, "-9 (pid: 4401)"),
)
# every child killed by SIGKILL: the whole job was killed from outside
ALL_KILLED = _torchrun_summary(
    [_summary_record("1", "10:00:36", 1, "-9 (pid: 4401)")],
    _summary_record("0", "10:00:35", 2, "-9 (pid: 4402)"),
)


def _sigkill_record(text: str) -> Classified:
    items = classify_scans([scan_text("node-a/torchrun.log", text)], KNOWLEDGE)
    return next(item for item in items if "exitcode: -9" in (item.event.message or ""))


def test_a_sigkill_the_launcher_sent_after_another_rank_failed_is_its_teardown() -> None:
    """docs/labelling.md, "A launcher's own kill of the survivors": the SIGKILL recorded half
    a minute after rank 2's own exit is the agent stopping rank 1, not a kill from outside."""
    item = _sigkill_record(KILLED_IN_TEARDOWN)
    assert item.tier == TIER_TEARDOWN_KILL
    assert item.demoted
    diagnosis = diagnose_text("node-a/torchrun.log", KILLED_IN_TEARDOWN)
    assert diagnosis.first_error is not None
    assert "-9" not in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]


@pytest.mark.parametrize("text", [KILLED_FIRST, ALL_KILLED])
def test_a_sigkill_with_no_own_failure_before_it_keeps_its_reading(text: str) -> None:
    item = _sigkill_record(text)
    assert item.tier == TIER_CAUSE
    assert not item.demoted


def test_a_sigkill_recorded_first_stays_the_first_error() -> None:
    diagnosis = diagnose_text("node-a/torchrun.log", KILLED_FIRST)
    assert_reads(diagnosis, "device_fault", first_error="-9")
    assert diagnosis.culprit_ranks == [1]


@pytest.mark.parametrize(
    "text",
    [
        "fatbinary fatal   : Could not open input file '/tmp/k.cubin'",
        "nvlink fatal   : Undefined reference to '_Z3fooi' in 'k.o'",
    ],
)
def test_a_compilers_fatal_line_in_nvidias_form_is_its_report_of_a_stop(text: str) -> None:
    """NVIDIA's compilers print `<name> fatal :` where others print `<name>: error:`."""
    assert classify_event(event(text), 0, KNOWLEDGE).tier == TIER_GENERIC


def test_an_exception_that_only_reports_a_failed_build_is_a_bare_failure() -> None:
    report = classify_event(
        event("RuntimeError: Error building extension 'rope_ext'"), 0, KNOWLEDGE
    )
    reason = classify_event(
        event("RuntimeError: Error building extension 'rope_ext': nvcc not found"), 0, KNOWLEDGE
    )
    assert report.tier == TIER_GENERIC
    assert reason.tier == TIER_UNKNOWN


def test_the_compilers_line_leads_the_exception_that_reports_the_build_stopped() -> None:
    log = (
        "[1/3] /usr/local/cuda/bin/nvcc -c rope_kernel.cu -o rope_kernel.cuda.o\n"
        "nvcc fatal   : Could not open input file /tmp/ext/rope_kernel.cu\n"
        "ninja: build stopped: subcommand failed.\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/cpp_extension.py", '
        "line 2100, in _run_ninja_build\n"
        "    raise RuntimeError(message) from e\n"
        "RuntimeError: Error building extension 'rope_ext'\n"
    )
    first = diagnose_text("job/train.log", log).first_error
    assert first is not None
    assert first.text.startswith("nvcc fatal   : Could not open input file")


# --- an exception the program caught and logged as a warning -------------------------------

_DCP_FRAMES = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/filesystem.py", line 929, in read_metadata
    with self.fs.create_stream(path, "rb") as metadata_file:
  File "/usr/lib/python3.11/pathlib.py", line 1044, in open
    return io.open(self, mode, buffering, encoding, errors, newline)
"""

LOGGED_FALLBACK_THEN_FAILURE = (
    "2026-12-05 15:41:22,832 [rank0] INFO load weights passed\n"
    "2026-12-05 15:41:31,855 [rank0] INFO loading checkpoint from /ckpt/step_2000\n"
    "2026-12-05 15:41:31,891 [rank0] WARNING Global metadata is not found. Falling back to "
    "rank local metadata.\n"
    + _DCP_FRAMES
    + "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/step_2000/.metadata'\n"
    "[rank0]: Traceback (most recent call last):\n"
    '[rank0]:   File "/srv/infer.py", line 144, in load\n'
    "[rank0]:     dcp.load(sd, checkpoint_id=path)\n"
    "[rank0]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException "
    "ranks:dict_keys([0, 1])\n"
    "[rank0]: Traceback (most recent call last): (RANK 0)\n"
    '[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/'
    'state_dict_loader.py", line 265, in local_step\n'
    '[rank0]:     raise AssertionError("; ".join(error_parts))\n'
    "[rank0]: AssertionError: metadata is None; global metadata read failed: [Errno 2] No such "
    "file or directory: '/ckpt/step_2000/.metadata'\n"
)

WARNING_THEN_UNCAUGHT_CRASH = (
    "2026-12-05 15:41:31,891 [rank0] WARNING tokenizer has no pad token, using eos\n"
    + _DCP_FRAMES
    + "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/step_2000/.metadata'\n"
)


def test_an_exception_logged_under_a_warning_yields_when_the_program_raised_again() -> None:
    """`logger.warning(..., exc_info=True)` logged a caught exception and the loader went on
    (docs/labelling.md, "A checkpoint file that is not there"): the later exception is the
    failure."""
    assert "metadata is None" in _first_cause(LOGGED_FALLBACK_THEN_FAILURE)
    items = list(classify_scans([scan_text("log_0.log", LOGGED_FALLBACK_THEN_FAILURE)], KNOWLEDGE))
    caught = next(item for item in items if item.event.text.startswith("FileNotFoundError"))
    assert caught.recovered


def test_a_traceback_under_a_warning_that_nothing_follows_keeps_its_weight() -> None:
    """An uncaught crash can land right under any record: alone in its file it is the error."""
    items = list(classify_scans([scan_text("log_0.log", WARNING_THEN_UNCAUGHT_CRASH)], KNOWLEDGE))
    crash = next(item for item in items if item.event.text.startswith("FileNotFoundError"))
    assert not crash.recovered


WARNING_THEN_CHAINED_CRASH = (
    WARNING_THEN_UNCAUGHT_CRASH
    + "\nDuring handling of the above exception, another exception occurred:\n\n"
    + "Traceback (most recent call last):\n"
    + '  File "/srv/infer.py", line 150, in load\n'
    + "    raise RuntimeError('no checkpoint to resume from')\n"
    + "RuntimeError: no checkpoint to resume from\n"
)


def test_an_exception_under_a_warning_that_a_chained_one_follows_keeps_its_weight() -> None:
    """The chained exception belongs to the first, printed in one uncaught crash: no sign the
    program went on."""
    items = list(classify_scans([scan_text("log_0.log", WARNING_THEN_CHAINED_CRASH)], KNOWLEDGE))
    crash = next(item for item in items if item.event.text.startswith("FileNotFoundError"))
    assert not crash.recovered


# A transfer library's refusal, then a destructor that trips over the half-built object while
# the process tears down: the interpreter only printed the second exception.
REFUSED_THEN_DESTRUCTOR = """\
  File "/opt/venv/lib/python3.12/site-packages/kvlink/agent.py", line 318, in add_peer
    name = self._agent.load_peer(blob)
kvlink.errors.PeerRejectedError: peer metadata rejected
Exception ignored in: <function PeerHandle.__del__ at 0x7fd0c1a2e8e0>
Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/kvlink/handle.py", line 95, in __del__
    self._agent.drop_peer(self._peer)
AttributeError: 'PeerHandle' object has no attribute '_peer'
"""


def test_an_exception_the_interpreter_only_printed_is_cited_last() -> None:
    """docs/labelling.md#an-exception-python-only-printed"""
    items = classify_scans([scan_text("job/decode_0.log", REFUSED_THEN_DESTRUCTOR)], KNOWLEDGE)
    refused = next(item for item in items if "PeerRejectedError" in item.event.text)
    ignored = next(item for item in items if "AttributeError" in item.event.text)
    assert ignored.tier <= TIER_GENERIC < refused.tier


def test_an_exception_raised_after_the_same_refusal_keeps_its_weight() -> None:
    text = REFUSED_THEN_DESTRUCTOR.replace(
        "Exception ignored in: <function PeerHandle.__del__ at 0x7fd0c1a2e8e0>\n", ""
    )
    items = classify_scans([scan_text("job/decode_0.log", text)], KNOWLEDGE)
    raised = next(item for item in items if "AttributeError" in item.event.text)
    assert raised.tier == TIER_CAUSE


ENGINE_LOG = FileInfo(path="serve/engine.log", kind=FileKind.OTHER, rank=None)


def _at(line: int, message: str, kind: EventKind = EventKind.ERROR) -> Event:
    return Event("serve/engine.log", line, message, kind, message, source="traceback")


def test_a_bare_exception_is_read_as_the_wait_its_writer_announced_before_it() -> None:
    """`needs_earlier`: vLLM's bare `TimeoutError` ends the wait the same file announced."""
    announced = Event(
        "serve/engine.log",
        1,
        "No available shared memory broadcast block found in 60 seconds.",
        EventKind.WARNING,
        "No available shared memory broadcast block found in 60 seconds.",
    )
    scan = FileScan(ENGINE_LOG, [announced, _at(9, "TimeoutError")])
    items = classify_scans([scan], KNOWLEDGE)
    assert [item.best.id if item.best else None for item in items] == [
        "hang.shm_broadcast_wait",
        "hang.shm_broadcast_deadline",
    ]
    assert items[1].tier == TIER_SYMPTOM


def test_a_bare_exception_without_the_announcement_above_it_stays_unrecognised() -> None:
    """Counterexample: alone, or with the announcement only after it, the bare type says
    nothing of the engine's wait."""
    alone = FileScan(ENGINE_LOG, [_at(9, "TimeoutError")])
    later = Event(
        "serve/engine.log",
        12,
        "No available shared memory broadcast block found in 60 seconds.",
        EventKind.WARNING,
        "No available shared memory broadcast block found in 60 seconds.",
    )
    after = FileScan(ENGINE_LOG, [_at(9, "TimeoutError"), later])
    for scan in (alone, after):
        bare = classify_scans([scan], KNOWLEDGE)[0]
        assert (bare.best, bare.tier) == (None, TIER_UNKNOWN)


def test_a_line_repeated_through_the_bundle_is_read_once() -> None:
    """A CANN device query printed at every step on every device is one reading: the second
    copy of the line gets the first copy's matches, the very same tuple."""
    from analyzers.classify.events import LineReadings

    read = LineReadings(KNOWLEDGE)
    line = "halGetDeviceInfo: device 7 info type 9 not supported, use default"
    first = read(line, ())
    assert read(line, ()) is first
    assert first == match_line(line, (), KNOWLEDGE)


def test_the_same_words_with_other_codes_are_read_again() -> None:
    """The codes a line carries take part in its reading (a code's own category may decide
    it), so the same words with another code are not the first line's reading."""
    from analyzers.classify.events import LineReadings

    read = LineReadings(KNOWLEDGE)
    line = "RuntimeError: npuSynchronizeDevice: NPU function error: aclrtSynchronizeDevice"
    plain = read(line, ())
    coded = read(line, ("507015",))
    assert plain == match_line(line, (), KNOWLEDGE)
    assert coded == match_line(line, ("507015",), KNOWLEDGE)
    assert read(line, ("507015",)) is coded


def test_the_copies_of_a_repeated_line_keep_their_own_places() -> None:
    """Read once, a line every rank printed still makes one item per copy, each with its own
    line and rank, and the matches it would have had read alone."""
    text = "\n".join(
        f"2026-01-02 10:00:0{rank} WARNING [rank{rank}] NCCL watchdog: Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE) ran for 600000 "
        "milliseconds before timing out."
        for rank in range(4)
    )
    items = classify_scans([scan_text("job/rank_0/train.log", text)], KNOWLEDGE)
    assert [(item.event.line, item.rank) for item in items] == [(1, 0), (2, 1), (3, 2), (4, 3)]
    alone = [classify_event(item.event, 0, KNOWLEDGE).matches for item in items]
    assert [item.matches for item in items] == alone
    assert {match.signature.id for item in items for match in item.matches} == {
        "hccl.watchdog_timeout"
    }


# A rank's handler writes a dump of what it was doing when the first exception hit, and the
# write itself fails: Python prints both, the handler's under `During handling ...`.
HANDLER_DUMP_FAILED = """\
prefill start: 8 tokens
  norm passed
[rank1]: Traceback (most recent call last):
[rank1]:   File "/opt/app/serve/moe_router.py", line 88, in route
[rank1]:     slot = self.slots[expert_id]
[rank1]:            ~~~~~~~~~~^^^^^^^^^^^
[rank1]: IndexError: list index out of range

[rank1]: During handling of the above exception, another exception occurred:

[rank1]: Traceback (most recent call last):
[rank1]:   File "/opt/app/serve/main.py", line 40, in <module>
[rank1]:     run()
[rank1]:   File "/opt/app/serve/moe_router.py", line 91, in route
[rank1]:     with open(os.path.join(self.dump_dir, "route_state.json"), "w") as fh:
[rank1]: FileNotFoundError: [Errno 2] No such file or directory: '/var/dumps/route_state.json'
"""

# Counterexample: the handler falls back to reading another file, and that file is missing:
# the missing file is what the program needed, not a side record of the first failure.
HANDLER_FALLBACK_READ_FAILED = """\
Traceback (most recent call last):
  File "/opt/app/serve/loader.py", line 30, in load
    return self.cache[name]
KeyError: 'router.weight'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/opt/app/serve/loader.py", line 33, in load
    with open(os.path.join(self.root, name + ".bin"), "rb") as fh:
FileNotFoundError: [Errno 2] No such file or directory: '/models/moe/router.weight.bin'
"""


def test_a_handler_that_fails_to_write_its_dump_yields_to_the_exception_it_handled() -> None:
    """docs/labelling.md, "A handler that fails to write down the failure": the first
    exception is the cause, the handler's failed write a cascade."""
    assert "IndexError: list index out of range" in _first_cause(HANDLER_DUMP_FAILED)
    items = classify_scans([scan_text("job/log_1.log", HANDLER_DUMP_FAILED)], KNOWLEDGE)
    write = next(i for i in items if "FileNotFoundError" in i.event.text)
    assert write.tier <= TIER_CASCADE


def test_a_handler_that_fails_to_read_its_fallback_keeps_the_missing_files_weight() -> None:
    items = classify_scans([scan_text("job/log_0.log", HANDLER_FALLBACK_READ_FAILED)], KNOWLEDGE)
    read = next(i for i in items if "FileNotFoundError" in i.event.text)
    assert read.tier > TIER_CASCADE
