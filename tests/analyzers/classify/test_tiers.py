"""What one line says: its best signature, its label and its tier in a cascade."""

from __future__ import annotations

import pytest

from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import (
    TIER_CASCADE,
    TIER_CAUSE,
    TIER_GENERIC,
    TIER_NOISE,
    TIER_SYMPTOM,
    TIER_UNKNOWN,
    TIER_UNMATCHED,
    TIER_WRAPPED_CAUSE,
    TIER_WRAPPER,
    classify_event,
)
from analyzers.core.types import Event, EventKind
from analyzers.formats.codes import extract_codes
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter
from analyzers.scan.quiet_tail import TAIL_SOURCE
from tests.analyzers.excerpts import diagnose_text
from tests.analyzers.one_line import event

KNOWLEDGE = load_knowledge()

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
    "text",
    [
        "Not_Supported_API(EK0004) ... this interface on the current chip",
        "Device_Absent/Abnormal(EL0001):",
        "Resource_Error_Insufficient_Host_Memory(EH0010) …",
    ],
)
def test_an_error_manager_record_no_rule_reads_is_a_bare_failure(text: str) -> None:
    """Its class name looks like a call in pasted code; the code in parentheses says it is a
    record of a failure (docs/labelling.md#an-error-manager-headline-whose-sentence-was-elided)."""
    assert classify_event(event(text), 0, KNOWLEDGE).tier >= TIER_GENERIC


@pytest.mark.parametrize(
    "text",
    ["checkpoint_loader(2024) ... done", "Not_Supported_API ... see the list of classes"],
)
def test_a_call_with_a_number_or_a_class_without_code_is_no_record(text: str) -> None:
    assert classify_event(event(text), 0, KNOWLEDGE).tier < TIER_GENERIC


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
