"""`diagnosis.alternatives`: up to two other labels, each with its evidence and a score below
the chosen label's confidence (docs/labelling.md#alternatives-and-confidence)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.causal.alternatives import alternatives
from analyzers.causal.chain import CausalChain
from analyzers.causal.verdict import Verdict
from analyzers.core.phrases import Said
from tests.analyzers.causal.test_culprits_nodes import diagnose as nodes_diagnose
from tests.analyzers.causal.test_culprits_nodes import lost_peer, progress
from tests.analyzers.classified import line, signature
from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text
from tests.analyzers.failures.test_operator_failures import CASES as OPERATOR_CASES
from tests.analyzers.job_bundles import pack

MISSING_BINARY = OPERATOR_CASES[0][1]
PLAIN_OOM = (
    "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.00 GiB total "
    "capacity; 58.10 GiB already allocated)\n"
)


def test_the_guide_neighbour_of_the_deciding_rule_is_shown_with_its_evidence() -> None:
    diagnosis = diagnose_text("job/rank0.log", MISSING_BINARY)
    assert diagnosis.category == "driver_env"
    operator = next(alt for alt in diagnosis.alternatives if alt.category == "operator")
    assert "binaries" in operator.evidence
    assert 0 < operator.score < diagnosis.confidence


def test_an_alternatives_evidence_has_its_chinese_twin() -> None:
    """A rule's title and a code's meaning have Chinese; a quoted log line stays as logged."""
    diagnosis = diagnose_text("job/rank0.log", MISSING_BINARY)
    assert all(alt.evidence_zh for alt in diagnosis.alternatives)
    operator = next(alt for alt in diagnosis.alternatives if alt.category == "operator")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in operator.evidence_zh)


def test_an_alternative_read_from_the_first_error_cites_its_line() -> None:
    diagnosis = diagnose_text("job/rank0.log", MISSING_BINARY)
    operator = next(alt for alt in diagnosis.alternatives if alt.category == "operator")
    assert operator.ref == diagnosis.first_error


@pytest.mark.parametrize(
    "text", [case[1] for case in OPERATOR_CASES], ids=[case[0] for case in OPERATOR_CASES]
)
def test_alternatives_are_few_distinct_other_labels_scored_below_the_answer(text: str) -> None:
    diagnosis = diagnose_text("job/rank0.log", text)
    labels = alternative_labels(diagnosis)
    assert len(labels) <= 2
    assert len(set(labels)) == len(labels)
    assert diagnosis.category not in labels
    assert all(alt.score < diagnosis.confidence and alt.evidence for alt in diagnosis.alternatives)
    scores = [alt.score for alt in diagnosis.alternatives]
    assert scores == sorted(scores, reverse=True)


def test_a_plain_failure_with_nothing_else_said_has_no_alternative() -> None:
    diagnosis = diagnose_text("job/rank0.log", PLAIN_OOM)
    assert diagnosis.category == "oom"
    assert diagnosis.alternatives == []


# A barrier that waited on a collective the device timed out, then the teardown's synchronize
# blocks: other lines (the device headline, the synchronize's task timeout) outscore the
# stall the guide names for the deciding rule.
STALLED_BARRIER = """\
RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:363 NPU error, error code is 107020
[ERROR] 2026-04-02-09:14:20 (PID:812, Device:0, RankID:8) ERR00100 PTA call acl api failed.
EI9999: Inner Error!
EI9999: 2026-04-02-09:14:20.210.114  The error from device(chipId:0, dieId:0), serial number is 2, hccl fftsplus task timeout occurred during task execution, stream_id:6, sq_id:6, task_id:9, stuck notify num:3, timeout:1836.[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1546]
        TraceBack (most recent call last):
EH9999: 2026-04-02-09:14:20.241.530  wait for compute device to finish failed, runtime result = 107020.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
EH9999: Inner Error!
        rtDeviceSynchronize execute failed, reason=[task timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
"""


def test_the_deciding_rules_guide_neighbour_keeps_a_place_when_other_lines_outscore_it() -> None:
    """docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout"""
    diagnosis = diagnose_text("job/rank8.log", STALLED_BARRIER)
    assert diagnosis.category == "hccl"
    labels = alternative_labels(diagnosis)
    assert len(labels) == 2
    assert "hang" in labels


def test_a_shown_guide_neighbour_is_not_listed_twice() -> None:
    diagnosis = diagnose_text("job/rank0.log", MISSING_BINARY)
    labels = alternative_labels(diagnosis)
    assert labels.count("operator") == 1


# A copy stream's synchronize gives up with 107020 and nothing else: the code's entry names a
# stall and a collective as the neighbours, which the generic synchronize rule's own neighbour
# (a kernel timeout guessed from the call) does not displace.
COPY_STREAM_TIMEOUT = (
    "[rank3]: RuntimeError: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), "
    "error code is 107020\n"
)
# The same call with a code whose entry names no neighbour keeps the rule's neighbour.
COPY_STREAM_UNLISTED = COPY_STREAM_TIMEOUT.replace("107020", "507011")


def test_a_codes_own_neighbours_are_not_displaced_by_the_rules() -> None:
    """docs/labelling.md#event-waits-that-run-out"""
    diagnosis = diagnose_text("job/rank3.log", COPY_STREAM_TIMEOUT)
    assert diagnosis.category == "stream_sync"
    labels = alternative_labels(diagnosis)
    assert sorted(labels) == ["hang", "hccl"]


def test_without_code_neighbours_the_rules_neighbour_keeps_its_place() -> None:
    diagnosis = diagnose_text("job/rank3.log", COPY_STREAM_UNLISTED)
    labels = alternative_labels(diagnosis)
    assert "aicore_timeout" in labels


# A container's /dev/shm fills up under NCCL's shared-memory transport: the line matches the
# full-disk rule (guide neighbour `other`: the job itself filled the disk) and NCCL's segment
# rule (guide neighbour `hccl`: the layer that printed it).
SHM_FULL = (
    "gpu-host-3:2210:2291 [0] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : "
    "No space left on device\n"
)
# torchrun's agent relays a Ctrl-C; the guide reads it as `hang` with `other` beside it.
AGENT_INTERRUPTED = (
    "W0611 08:41:27.902000 5130 torch/distributed/elastic/agent/server/api.py:753] "
    "Received 2 death signal, shutting down workers\n"
)


def test_a_guide_neighbour_named_other_reaches_the_report() -> None:
    """docs/labelling.md#alternatives-and-confidence: `other` named by the guide is shown."""
    diagnosis = diagnose_text("job/mpirun.log", SHM_FULL)
    assert diagnosis.category == "driver_env"
    labels = alternative_labels(diagnosis)
    assert "other" in labels


def test_the_neighbours_of_every_rule_the_first_error_matched_are_offered() -> None:
    """The deciding rule names `other`, the second rule the line matched names `hccl`."""
    diagnosis = diagnose_text("job/mpirun.log", SHM_FULL)
    assert sorted(alt.category for alt in diagnosis.alternatives) == ["hccl", "other"]
    assert all(alt.score < diagnosis.confidence for alt in diagnosis.alternatives)


def test_a_doubtful_answer_still_shows_its_guide_neighbour() -> None:
    """A low confidence leaves room below it: the neighbour is not scored away to zero."""
    diagnosis = diagnose_text("job/launcher.log", AGENT_INTERRUPTED)
    assert diagnosis.category == "hang"
    other = next(alt for alt in diagnosis.alternatives if alt.category == "other")
    assert 0 < other.score < diagnosis.confidence


INPLACE_MODIFIED = (
    "RuntimeError: one of the variables needed for gradient computation has been modified by "
    "an inplace operation: [torch.npu.FloatTensor [4, 4]], which is output 0 of MulBackward0, "
    "is at version 3; expected version 2 instead.\n"
)


def test_other_is_not_offered_by_a_line_the_guide_names_no_neighbour_for() -> None:
    """Counterexample: a later line whose own label is `other` (a numerical failure of the
    model code) is no documented neighbour of a device memory failure."""
    diagnosis = diagnose_text("job/rank0.log", PLAIN_OOM + INPLACE_MODIFIED)
    assert diagnosis.category == "oom"
    assert "other" not in alternative_labels(diagnosis)


def test_the_neighbours_of_the_code_that_labelled_a_block_line_are_offered() -> None:
    """The first error names no code; the runtime-result line under it carries 107003, whose
    entry gives the label (config) and names the stream layer as its neighbour."""
    from tests.analyzers.failures.test_stream_context import STREAM_DESTROYED_FROM_ANOTHER_CONTEXT

    diagnosis = diagnose_text("server.log", STREAM_DESTROYED_FROM_ANOTHER_CONTEXT)
    assert diagnosis.category == "config"
    stream = next(alt for alt in diagnosis.alternatives if alt.category == "stream_sync")
    assert "107003" in stream.evidence
    assert stream.evidence_zh
    assert "107003" in stream.evidence_zh
    assert 0 < stream.score < diagnosis.confidence


# An op compile failure under torch_npu's wrapper: the error-manager line's rule is a
# catch-all whose label comes only from the code it carries (E40021: the operator).
OP_COMPILE_FAILED = """\
[rank1]: RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:210 OPS function error: Conv2D, error code is 500002
[rank1]: [ERROR] 2026-03-18-04:12:09 (PID:7301, Device:1, RankID:1) ERR01100 OPS call acl api failed
[rank1]: [Error]: A GE error occurs in the system.
[rank1]: E40021: [PID: 7301] 2026-03-18-04:12:08.912.440 Failed to compile Op [Conv2D7]. (oppath: [Compile /usr/local/Ascend/ascend-toolkit/latest/opp/built-in/op_impl/ai_core/tbe/impl/conv2d.py failed with errormsg/stack: ...], optype: [Conv2D])
"""
# A synchronize whose code moved its label keeps what the line says of itself.
SYNC_COLLECTIVE_WAIT = (
    "RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:470 "
    "NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507048\n"
)


def test_a_catch_all_rule_labelled_by_its_code_does_not_offer_other() -> None:
    """docs/labelling.md#alternatives-and-confidence: a rule whose own label is `other` only
    because the code decides says nothing of the line; `other` is not its literal reading."""
    diagnosis = diagnose_text("job/rank1.log", OP_COMPILE_FAILED)
    assert diagnosis.category == "operator"
    assert "other" not in alternative_labels(diagnosis)


def test_a_synchronize_labelled_by_its_code_still_offers_its_literal_reading() -> None:
    """Counterexample: the synchronize rule's own label (`stream_sync`) names a layer."""
    diagnosis = diagnose_text("job/rank0.log", SYNC_COLLECTIVE_WAIT)
    assert diagnosis.category == "hccl"
    assert "stream_sync" in alternative_labels(diagnosis)


# Four ranks under TORCH_DISTRIBUTED_DEBUG=DETAIL, one log per rank: rank 2's log stops in
# layer 1 with no error, rank 0's monitored barrier names it, ranks 1 and 3 lose rank 0.
# Written for this test in the shape c10d prints; the lines between are the ranks' own.
def _barrier_bundle() -> dict[str, str]:
    head = (
        "[2026-03-05 10:01:02,100][infer][rank{r}][INFO] prefill start: 8 tokens\n"
        "[2026-03-05 10:01:02,110][infer][rank{r}][DEBUG] layer 1 norm: shape=(8, 64) nan=0 inf=0\n"
        "[2026-03-05 10:01:02,111][infer][rank{r}][INFO]  norm passed\n"
        "[2026-03-05 10:01:02,130][infer][rank{r}][DEBUG] comm: all_reduce numel=512 errors=0\n"
        "[2026-03-05 10:01:02,131][infer][rank{r}][INFO]  attention passed\n"
    )
    files = {f"job/log_{r}.log": head.format(r=r) for r in range(4)}
    files["job/log_0.log"] += (
        "[rank0]:[E305 10:01:12.140000000 ProcessGroupGloo.cpp:2901] [Rank 0]: Rank 2 failed "
        "to pass monitoredBarrier in 10000 ms\n"
        "[rank0]: RuntimeError: [Rank 0]: Ranks 2 failed to pass monitoredBarrier in 10000 ms\n"
    )
    for r in (1, 3):
        files[f"job/log_{r}.log"] += (
            f"[rank{r}]:[E305 10:01:12.150000000 ProcessGroupGloo.cpp:67] Rank {r} successfully "
            "reached monitoredBarrier, but received errors while waiting for send/recv from "
            "rank 0. Please check rank 0 logs for faulty rank.\n"
        )
    return files


def test_a_monitored_barrier_report_offers_a_stuck_and_a_gone_rank_beside_it() -> None:
    """The barrier names who did not arrive, not why (docs/labelling.md#a-peer-that-stopped-answering)."""
    diagnosis = diagnose_files(_barrier_bundle())
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert {"hang", "device_fault"} <= {alt.category for alt in diagnosis.alternatives}


# --- the fallback's hints as alternatives ----------------------------------------------------

# A serving engine's refusal that no rule knows and whose words name no class: the exception's
# class votes `config` once, too little to label the line, which stays `other`.
UNKNOWN_REFUSAL = "ValueError: request 2 was turned away by the admission filter\n"
# A compiler's wrapped import failure, labelled `config` by its rule (no neighbour named):
# the missing module's words vote `driver_env`.
INDUCTOR_IMPORT = (
    "torch._inductor.exc.InductorError: ModuleNotFoundError: No module named "
    "'triton.language.extra.ascend'\n"
)


def test_an_unlabelled_first_error_offers_the_labels_its_hints_vote_for() -> None:
    """An answer no rule gave rests on the hints: a label they vote for, even below the bar a
    winner needs, is a reading as defensible, scored below the answer."""
    diagnosis = diagnose_text("job/rank0.log", UNKNOWN_REFUSAL)
    assert diagnosis.category == "other"
    config = next(alt for alt in diagnosis.alternatives if alt.category == "config")
    assert "hints" in config.evidence
    assert config.evidence_zh
    assert "提示" in config.evidence_zh
    assert 0 < config.score < diagnosis.confidence


def test_a_rule_that_names_no_neighbour_offers_the_hints_reading() -> None:
    diagnosis = diagnose_text("job/rank0.log", INDUCTOR_IMPORT)
    assert diagnosis.category == "config"
    driver_env = next(alt for alt in diagnosis.alternatives if alt.category == "driver_env")
    assert "hints" in driver_env.evidence
    assert 0 < driver_env.score < diagnosis.confidence


def test_a_rule_that_names_its_neighbour_is_not_second_guessed_by_the_hints() -> None:
    """The guide's `also` already says where the rule's doubt points."""
    diagnosis = diagnose_text("job/rank0.log", MISSING_BINARY)
    assert diagnosis.alternatives
    assert not any("hints" in alt.evidence for alt in diagnosis.alternatives)


def test_the_hints_do_not_move_the_answer_or_its_confidence() -> None:
    """Alternatives only add doubt: the answer is the vote's, as before."""
    diagnosis = diagnose_text("job/rank0.log", UNKNOWN_REFUSAL)
    assert (diagnosis.category, diagnosis.confidence) == ("other", 0.09)


# docs/labelling.md, "A scheduler that refuses the request": a node agent that cannot hand
# whole cards to a pod refuses a device, not memory, so its words offer no `oom` reading.
DEVICE_REFUSAL = (
    "Warning  UnexpectedAdmissionError  4s  kubelet\n"
    "  Allocate failed due to no healthy devices present;\n"
    "  cannot allocate unhealthy devices example.com/npu-4\n"
)


def test_a_node_agent_that_cannot_hand_over_cards_is_not_offered_a_memory_reading() -> None:
    diagnosis = diagnose_text("node/events.txt", DEVICE_REFUSAL)
    assert diagnosis.category == "driver_env"
    assert "oom" not in alternative_labels(diagnosis)


def test_memory_a_device_cannot_give_is_still_read_as_memory() -> None:
    """Counterexample: the device's memory, not the device, is what could not be allocated."""
    diagnosis = diagnose_text(
        "job/rank0.log", "RuntimeError: cannot allocate device memory for a 512 MiB block\n"
    )
    assert "oom" in [diagnosis.category, *(alt.category for alt in diagnosis.alternatives)]


WRAPPED_HCCL_REPORT = (
    "The error from device(chipId:1/3, dieId:0), serial number is 22,\n"
    "hccl fftsplus task timeout occurred during task execution,\n"
    "stream_id:5, sq_id:5, task_id:2031, stuck notify num:2, timeout=1836s.\n"
    "[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1700]\n"
)


def test_a_device_headline_wrapped_above_a_collective_timeout_offers_no_kernel_timeout() -> None:
    """docs/labelling.md#code-only-synchronize-failures: the device report of a collective's
    stuck task offers a stall beside hccl, not the kernel timeout its opening words suggest,
    also when a paste or a logger split those words onto a line of their own."""
    diagnosis = diagnose_text("node2/worker.log", WRAPPED_HCCL_REPORT)
    assert diagnosis.category == "hccl"
    labels = {alt.category for alt in diagnosis.alternatives}
    assert "aicore_timeout" not in labels
    assert "hang" in labels


def test_a_headline_wrapped_above_a_notify_wait_offers_no_kernel_timeout() -> None:
    text = (
        "The error from device(chipId:6, dieId:0), serial number is 3,\n"
        "EI0002: [PID: 9120] 2026-02-01-08:09:10.111.213 The wait execution of the Notify "
        "register times out. Reason: The Notify register has not received the Notify record "
        "from remote rank: [5].\n"
    )
    diagnosis = diagnose_text("node1/worker.log", text)
    assert diagnosis.category == "hccl"
    assert "aicore_timeout" not in {alt.category for alt in diagnosis.alternatives}


def test_a_line_that_steps_aside_but_says_something_of_its_own_still_offers_it() -> None:
    # counterexample: the synchronize's 507048 reason inside an HCCL block yields to the
    # collective too, but its own words name the device task, so that doubt stays shown
    from tests.analyzers.classify.test_block_context import HCCL_BLOCK

    diagnosis = diagnose_text("serve/engine.log", HCCL_BLOCK)
    assert diagnosis.category == "hccl"
    assert "aicore_timeout" in {alt.category for alt in diagnosis.alternatives}


def test_an_alternative_read_from_another_line_cites_that_line() -> None:
    from tests.analyzers.classify.test_block_context import HCCL_BLOCK

    diagnosis = diagnose_text("serve/engine.log", HCCL_BLOCK)
    core = next(alt for alt in diagnosis.alternatives if alt.category == "aicore_timeout")
    assert core.ref is not None
    assert core.ref != diagnosis.first_error
    assert core.ref.file == "serve/engine.log"
    cited = HCCL_BLOCK.splitlines()[core.ref.line - 1]
    assert cited == core.ref.text


# --- a lost peer that no rank explains (docs/labelling.md#a-node-that-drops-out) -----------


def test_a_lost_peer_no_rank_explains_offers_the_process_that_went_away(tmp_path: Path) -> None:
    """Only the ranks that lost their peers are in the bundle (the other node's logs were not
    collected, no world size is stated): the lost peer stays the answer (`hccl`), and the
    peers' processes going down, the reading of a person who knows the node went away, is
    offered beside it."""
    files = {
        "node0/stdout.log": "\n".join(progress(0) + progress(1) + lost_peer(0) + lost_peer(1))
        + "\n",
    }
    path = pack(tmp_path / "job.tar.gz", files, "job-4a1c")
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert_reads(diagnosis, "hccl", first_error="Connection closed")
    went_away = next(alt for alt in diagnosis.alternatives if alt.category == "device_fault")
    assert "peer that went away" in went_away.evidence
    assert went_away.score < diagnosis.confidence


def test_a_lost_peer_under_a_ranks_own_error_offers_no_process_that_went_away(
    tmp_path: Path,
) -> None:
    """Counterexample: rank 3 raised its own error and the others lost it: the lost peers are
    the cascade, not the first error, and their rule's neighbour is not offered."""
    shape = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)"
    own = [
        "[rank3]: Traceback (most recent call last):",
        '[rank3]:   File "/srv/infer/model.py", line 91, in attention',
        f"[rank3]: {shape}",
    ]
    files = {
        "node0/stdout.log": "\n".join(progress(0) + progress(1) + lost_peer(0) + lost_peer(1))
        + "\n",
        "node1/stdout.log": "\n".join(progress(2) + progress(3) + lost_peer(2) + own) + "\n",
    }
    diagnosis = nodes_diagnose(tmp_path, files)
    assert diagnosis.category == "shape_mismatch"
    assert "device_fault" not in alternative_labels(diagnosis)


def _stream_wait_refused(code: int) -> str:
    return (
        "RuntimeError: Capture:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:205 NPU "
        f"function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(stream), error code is "
        f"{code}\n"
    )


def test_a_synchronize_whose_code_names_its_neighbours_offers_those_not_a_core_failure() -> None:
    """docs/labelling.md#code-only-synchronize-failures: 107027 says a capture refused the
    call; the code's own neighbour (`config`) is offered and the synchronize rule's generic
    one, a core failure, is not: nothing ran on a core."""
    diagnosis = diagnose_text("serve/worker0.log", _stream_wait_refused(107027))
    assert diagnosis.category == "stream_sync", diagnosis.root_cause
    offered = alternative_labels(diagnosis)
    assert "config" in offered
    assert "aicore_timeout" not in offered, diagnosis.alternatives


def test_a_synchronize_whose_code_names_nothing_keeps_the_core_failure_beside_it() -> None:
    """Counterexample: 507011 names no label and no neighbour, so the rule's generic
    neighbour still stands beside `stream_sync`."""
    diagnosis = diagnose_text("serve/worker0.log", _stream_wait_refused(507011))
    assert diagnosis.category == "stream_sync", diagnosis.root_cause
    assert "aicore_timeout" in alternative_labels(diagnosis)


# The store's exception class votes `hccl` to the hints; the words after it are those of a
# KV cache that does not fit (oom.kv_cache_no_room's examples).
STORE_CLASS_ON_MEMORY_WORDS = (
    "DistStoreError: kv cache memory too small to hold one block, raise gpu_memory_utilization\n"
)


def test_the_learned_words_are_offered_beside_the_hints_answer_with_their_evidence() -> None:
    diagnosis = diagnose_text("job/rank0.log", STORE_CLASS_ON_MEMORY_WORDS)
    assert diagnosis.category == "hccl"
    oom = next(alt for alt in diagnosis.alternatives if alt.category == "oom")
    assert "gpu_memory_utilization" in oom.evidence
    assert "oom.kv_cache_no_room" in oom.evidence
    assert oom.evidence_zh
    assert 0 < oom.score < diagnosis.confidence


def _lost_peer_chain() -> CausalChain:
    """A chain whose first error is a lost peer, read by a rule that names `device_fault`."""
    gone = signature("peer.closed", "hccl", weight=30, role="cascade", peer_gone=True)
    gone = replace(gone, also=("device_fault",))
    return CausalChain(first=line(gone, rank=0))


def test_a_verdict_that_names_its_neighbours_speaks_in_place_of_the_rule() -> None:
    """Labelling guide, "A rank that exits without a word": the ranks' pattern showed the lost
    rank left on purpose, so the lost peer's process-death neighbour is ruled out and the
    verdict's own (`config`) is offered, with the verdict's reason as its evidence."""
    reason = Said("rank 1 said it was leaving", "rank 1 打印了自己要退出")
    left = Verdict("multirank.left_early", "hccl", "communication", 0.6, (1,), reason, ("config",))
    offered = alternatives(_lost_peer_chain(), "hccl", 0.6, "hccl", verdict=left)
    assert [alt.category for alt in offered] == ["config"]
    assert offered[0].evidence == reason.en
    assert 0 < offered[0].score < 0.6


def test_a_verdict_without_neighbours_keeps_the_rules() -> None:
    """Counterexample: a verdict that names none (most rank-pattern readings) leaves the first
    error's rule's neighbours as they were."""
    reason = Said("ranks 2, 3 took another path", "ranks 2, 3 走了另一条代码路径")
    other = Verdict("multirank.diverged", "hccl", "communication", 0.6, (2, 3), reason)
    offered = alternatives(_lost_peer_chain(), "hccl", 0.6, "hccl", verdict=other)
    assert "device_fault" in [alt.category for alt in offered]
