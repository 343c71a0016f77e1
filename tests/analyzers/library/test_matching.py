"""The case library: its data is valid, it covers the reference material, and incidents
shaped like the corpus cases find the right known case among the first three."""

from __future__ import annotations

import pytest
import yaml

from analyzers.core.report import Diagnosis, Evidence
from analyzers.core.types import Event, EventKind, FileInfo, FileKind, FileScan
from analyzers.library.matching import (
    CASES_DIR,
    Case,
    CaseError,
    find_operators,
    hardware_of,
    incident_text,
    load_cases,
    match_cases,
    normalize_operator,
    parse_cases,
    taxonomy,
    template,
)
from analyzers.tree.walk import case_links

# ------------------------------------------------------------------------- library data


def test_library_has_at_least_forty_valid_cases():
    cases = load_cases()
    assert len(cases) >= 40
    assert len({c.id for c in cases}) == len(cases)
    assert all(c.root_cause and c.fix and c.verify for c in cases)


def test_every_failure_category_has_known_cases():
    used = {c.category for c in load_cases()}
    assert used >= set(taxonomy()) - {"healthy", "other"}


REFERENCE_TOPICS = [
    # operator constraints
    "mc2-dispatch-experts-per-rank-a2",
    "mc2-combine-experts-per-rank-a2",
    "moe-init-routing-zero-chunk",
    "moe-gating-topk-exceeds-experts",
    "fa-head-num-query-heads",
    "fa-sparse-mode-mask-path",
    "pa-block-table-out-of-range",
    "nz-cache-format-alignment",
    "fa-actual-seq-lengths-type",
    # communication rules
    "all-to-all-split-sizes",
    "hccl-branch-divergence",
    "hccl-group-creation-order",
    "moe-ep-group-name-missing",
    "hccl-buffsize-too-small",
    "hccl-cross-node-interface",
    # multi-card deployment
    "weight-tp-split-out-of-range",
    "weight-size-not-divisible-by-tp",
    "vocab-not-padded",
    "config-field-missing",
    "silent-rank-failure",
    # memory and shapes
    "oom-model-too-large-per-card",
    "oom-moe-a2a-buffers",
    "oom-batch-seq-too-large",
    "shape-tp-dim-not-divided",
    "shape-kv-heads-per-rank",
    "shape-experts-per-rank",
    "shape-prefill-decode-branch",
    "shape-packed-sequence-reshape",
    # environment checks
    "driver-firmware-mismatch",
    "device-not-visible",
    "device-node-permissions",
    "numa-binding",
]


@pytest.mark.parametrize("case_id", REFERENCE_TOPICS)
def test_reference_failure_is_in_the_library(case_id):
    assert case_id in {c.id for c in load_cases()}


def test_mc2_limit_is_marked_as_a2_only():
    case = next(c for c in load_cases() if c.id == "mc2-dispatch-experts-per-rank-a2")
    assert case.hardware == ("A2",)
    assert "npu_moe_distribute_dispatch_v2" in case.operators


def test_case_to_dict_is_plain_data():
    data = load_cases()[0].to_dict()
    assert "patterns" not in data
    assert isinstance(data["signatures"], list)
    assert data["source"].endswith(".yaml")


# ----------------------------------------------------------------------- validation

GOOD = {
    "id": "demo-case",
    "title": "A demo",
    "category": "hccl",
    "root_cause": "Because.",
    "fix": "Do this.",
    "signatures": ["HCCL_BUFFSIZE"],
}


def one(**change) -> dict:
    case = {**GOOD, **change}
    return {"cases": [{k: v for k, v in case.items() if v is not None}]}


BROKEN = [
    ("no title", one(title=None), "'title' must be a non-empty string"),
    ("unknown category", one(category="gremlins"), "not in the taxonomy"),
    ("bad regex", one(signatures=["(oops"]), "bad signature regex"),
    ("signatures not a list", one(signatures="HCCL"), "'signatures' must be a list"),
    ("unknown field", one(colour="red"), "unknown field(s) ['colour']"),
    ("bad hardware", one(hardware=["A9"]), "hardware ['A9']"),
    ("bad strategy", one(strategy=["pray"]), "strategy ['pray']"),
    ("bad id", one(id="Demo Case"), "lowercase slug"),
    ("duplicate id", {"cases": [GOOD, GOOD]}, "duplicate case id 'demo-case'"),
    ("not a list", {"cases": "demo"}, "'cases' list"),
    ("case not a mapping", {"cases": ["demo"]}, "expected a mapping"),
]


def test_good_snippet_parses():
    [case] = parse_cases(one(), source="demo.yaml")
    assert case.id == "demo-case"
    assert case.hardware == ("any",)
    assert case.patterns[0].search("hccl_buffsize is too small")


@pytest.mark.parametrize(("data", "message"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_broken_case_is_rejected_with_a_clear_message(data, message):
    with pytest.raises(CaseError) as caught:
        parse_cases(data, source="demo.yaml")
    assert message in str(caught.value)
    assert str(caught.value).startswith("demo.yaml")


def test_duplicate_ids_across_files_are_rejected(tmp_path):
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(yaml.safe_dump(one()))
    with pytest.raises(CaseError, match=r"duplicate case id 'demo-case' \(also in a\.yaml\)"):
        load_cases(tmp_path)


def test_every_library_file_parses_on_its_own():
    for path in sorted(CASES_DIR.glob("*.yaml")):
        assert parse_cases(yaml.safe_load(path.read_text()), source=path.name)


# ------------------------------------------------------------------------- operators

OPERATOR_LINES = [
    (
        "RuntimeError: npu_fused_infer_attention_score_out_symint:build/CMakeFiles/torch_npu.dir/"
        "compiler_depend.ts:929 NPU function error: call aclnnFusedInferAttentionScoreV3 failed",
        ["npu_fused_infer_attention_score_out_symint", "aclnnFusedInferAttentionScoreV3"],
    ),
    (
        "the current working operator name is aclnnMoeGatingTopK",
        ["aclnnMoeGatingTopK"],
    ),
    ("Kernel Run failed. opType: 37, FlashAttentionScore", ["FlashAttentionScore"]),
    ("launch failed for FlashAttentionScore, errno:561103.", ["FlashAttentionScore"]),
    ("MoeDistributeDispatchV2 do tiling failed, ret is -1.", ["MoeDistributeDispatchV2"]),
    ("    return torch_npu._C._npu_synchronize()", []),
    ("RuntimeError: NPU out of memory. Tried to allocate 22.00 MiB", []),
]


@pytest.mark.parametrize(("line", "expected"), OPERATOR_LINES)
def test_find_operators(line, expected):
    assert find_operators(line) == expected


@pytest.mark.parametrize(
    ("names", "key"),
    [
        (
            ["npu_moe_distribute_dispatch_v2", "aclnnMoeDistributeDispatchV3"],
            "moedistributedispatch",
        ),
        (
            ["npu_fused_infer_attention_score_out_symint", "aclnnFusedInferAttentionScore"],
            "fusedinferattentionscore",
        ),
        (["npu_moe_gating_top_k", "aclnnMoeGatingTopK"], "moegatingtopk"),
        (["_npu_reshape_and_cache", "npu_reshape_and_cache"], "reshapeandcache"),
    ],
)
def test_normalize_operator_joins_spellings(names, key):
    assert {normalize_operator(n) for n in names} == {key}


# -------------------------------------------------------------------------- matching


def incident(
    category: str, first: str, *others: str, codes=(), tree_path=()
) -> tuple[Diagnosis, list[FileScan]]:
    """A diagnosis whose first causal error is `first`, plus one scan with every line."""
    lines = [first, *others]
    events = [
        Event("log_0.log", i + 1, text, EventKind.ERROR, message=text, rank=0, codes=tuple(codes))
        for i, text in enumerate(lines)
    ]
    first_ref = events[0].ref()
    diagnosis = Diagnosis(
        category=category,
        first_error=first_ref,
        error_codes=list(codes),
        evidence=[Evidence(first_ref, "cause")],
        tree_path=list(tree_path),
    )
    return diagnosis, [FileScan(FileInfo("log_0.log", FileKind.RANK_LOG, 0), events)]


# Shaped like the corpus cases (../shared/corpus/cases/dNN) and the torch bundles; numbers,
# pids and times differ from the originals.
CORPUS_SHAPED = [
    (
        "socket timeout (d01)",
        incident(
            "hccl",
            "[rank2]: EI0006: [PID: 81234] 2026-05-01-08:00:01.111.222 Getting socket times out. "
            "Reason: Remote Rank did not send the data in time.",
            "[rank2]: RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:495 "
            "OPS function error: HcclAllreduce, error code is 6",
            codes=("EI0006", "ERR01100"),
        ),
        "hccl-socket-timeout-peer-stuck",
    ),
    (
        "watchdog timeout (d02)",
        incident(
            "hccl",
            "[rank0]:[E501 08:00:01.428029551 compiler_depend.ts:660] [Rank 0] Watchdog caught "
            "collective operation timeout: WorkHCCL(SeqNum=42, OpType=ALLGATHER, "
            "Timeout(ms)=1800000) ran for 1800123 milliseconds before timing out.",
        ),
        "hccl-watchdog-exec-timeout",
    ),
    (
        "buffsize (d03)",
        incident(
            "hccl",
            "EZ9999[PID: 5150] 2026-05-01-08:00:01.138.485 (EZ9999):  HCCL_BUFFSIZE is too SMALL, "
            "maxBs = 512, h = 4096, epWorldSize = 4, localMoeExpertNum = 32",
            "RuntimeError: npu_moe_distribute_dispatch_v2:build/CMakeFiles/torch_npu.dir/"
            "compiler_depend.ts:651 NPU function error: call aclnnMoeDistributeDispatchV3 failed, "
            "error code is 561002",
            codes=("561002", "EZ9999", "ERR00100"),
        ),
        "hccl-buffsize-too-small",
    ),
    (
        "vector core exception (d04)",
        incident(
            "aicore_timeout",
            "EZ9999: [PID: 7001] 2026-05-01-08:00:01.466.609 The error from device(chipId:3, "
            "dieId:0), serial number is 12, there is an exception of fftsplus aivector error, "
            "core id is 5, error code = 0x51e467",
            "RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:565 NPU "
            "function error: AclrtSynchronizeDeviceWithTimeout, error code is 507015",
            codes=("507015", "EZ9999"),
        ),
        "aicore-exception-out-of-bounds",
    ),
    (
        "aicore timeout at event query (d05)",
        incident(
            "aicore_timeout",
            "EH9999[PID: 310] 2026-05-01-08:00:01.356.021 (EH9999):  [Query][Status]query event "
            "recorded status failed, runtime result = 507014",
            codes=("507014", "EH9999", "ERR02005"),
        ),
        "aicore-timeout-async-report",
    ),
    (
        "init env failed (d06)",
        incident(
            "driver_env",
            "EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:560]",
            "build op model failed, result = 500001[FUNC:ReportInnerError][FILE:log_inner.cpp]",
            codes=("EH9999", "500001"),
        ),
        "cann-init-env-failed",
    ),
    (
        "missing library (d07)",
        incident(
            "driver_env",
            "ERROR 05-01 08:00:01 [multiproc_executor.py:690] OSError: libhccl_plugin.so: cannot "
            "open shared object file: No such file or directory",
        ),
        "missing-runtime-library",
    ),
    (
        "TND sequence lengths (d08)",
        incident(
            "operator",
            "E89999[PID: 4242] 2026-05-01-08:00:01.573.920 (E89999):  When layout is TND, "
            "queryT(16) must be equal to the last element of actualSequenceLengthQ(9)",
            "RuntimeError: npu_fused_infer_attention_score_out_symint:build/CMakeFiles/"
            "torch_npu.dir/compiler_depend.ts:929 NPU function error: call "
            "aclnnFusedInferAttentionScoreV3 failed, error code is 561002",
            codes=("561002", "E89999", "ERR00100"),
        ),
        "fia-tnd-seq-lengths-last-element",
    ),
    (
        "unsupported dtype (d09)",
        incident(
            "operator",
            "Tensor pertokenScale not implemented for DT_FLOAT16, should be in dtype support list "
            "[DT_FLOAT, DT_BFLOAT16].",
            "aclnnQuantMatmulV4 failed, error code is 161002",
            codes=("161002", "EZ1001"),
        ),
        "aclnn-unsupported-dtype",
    ),
    (
        "OOM with memory elsewhere (d10)",
        incident(
            "oom",
            "RuntimeError: NPU out of memory. Tried to allocate 64.00 MiB (NPU 1; 29.50 GiB total "
            "capacity; 4.10 GiB already allocated; 4.10 GiB current active; 8.20 MiB free; "
            "4.40 GiB reserved in total by PyTorch)",
        ),
        "oom-memory-outside-allocator",
    ),
    (
        "stream sync timeout (d11)",
        incident(
            "stream_sync",
            "EE1002: 2026-05-01-08:00:01.366.560 Stream synchronize timeout. rtDeviceSynchronize "
            "execute failed, reason=[stream sync timeout]",
            "RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:333 NPU "
            "function error: aclrtSynchronizeDevice, error code is 507046",
            codes=("507046", "EE1002"),
        ),
        "stream-sync-timeout",
    ),
    (
        "missing parameter name (d12)",
        incident(
            "weight_load",
            "(Worker_DP0_TP3_EP3 pid=77) ERROR 2026-05-01 08:00:01.778 [multiproc_executor.py:366]"
            " KeyError: 'model.layers.7.self_attn.q_proj.weight'",
        ),
        "weight-missing-key",
    ),
    (
        "device lost (d13)",
        incident(
            "device_fault",
            "[PID: 61] 2026-05-01-08:00:01.957.311 Device_Absent/Abnormal(EL0001): Device not found "
            "or invalid.",
            "Device[3] lost heartbeat.[FUNC:SyncTask][FILE:direct_hwts_engine.cc][LINE:915]",
            codes=("EL0001", "507010"),
        ),
        "device-lost-heartbeat",
    ),
    (
        "nccl backend on npu (d14)",
        incident("config", "RuntimeError: Distributed package doesn't have NCCL built in"),
        "backend-nccl-on-npu",
    ),
    (
        "engine waits for workers (d15)",
        incident(
            "hang",
            "(EngineCore_DP0 pid=1200) ERROR 05-01 08:00:01 [core.py:815] TimeoutError",
            '(EngineCore_DP0 pid=1200) ERROR 05-01 08:00:01 [core.py:815]   File "/workspace/vllm/'
            'vllm/distributed/device_communicators/shm_broadcast.py", line 375, in acquire_read',
        ),
        "engine-worker-stall",
    ),
    (
        "attention mask shape (d16)",
        incident(
            "op_constraint",
            "EZ9999[PID: 88] 2026-05-01-08:00:01.410.132 (EZ9999):  get unsupported atten_mask "
            "shape, the shape is [4, 1, 1, 2048]. B=[4], N=[32], Sq=[2048], Skv=[2048]",
            "launch failed for FlashAttentionScore, errno:561103.",
            codes=("561103", "EZ9999"),
        ),
        "fa-atten-mask-shape",
    ),
    (
        "elementwise shape (d17)",
        incident(
            "shape_mismatch",
            "RuntimeError: The size of tensor a (8) must match the size of tensor b (6) at "
            "non-singleton dimension 1",
        ),
        "shape-per-rank-dim-mismatch",
    ),
    (
        "linear layer on one rank (crash_one_rank)",
        incident(
            "shape_mismatch",
            "[rank1]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x16 and 64x64)",
            "[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] "
            "Connection closed by peer [127.0.0.1]:29500",
        ),
        "shape-matmul-operands",
    ),
    (
        "monitored barrier (divergent_monitored_barrier)",
        incident(
            "hccl",
            "[rank0]:[E501 08:00:01.616993348 ProcessGroupGloo.cpp:2901] [Rank 0]: Rank 3 failed "
            "to pass monitoredBarrier in 5000 ms",
        ),
        "hccl-branch-divergence",
    ),
    (
        "segfault (killed_rank)",
        incident(
            "device_fault",
            "E0501 08:00:01.499000 300 torch/distributed/elastic/multiprocessing/api.py:1002] "
            "failed (exitcode: -11) local_rank: 2 (pid: 4411) of binary: /usr/bin/python",
        ),
        "rank-segfault",
    ),
]


@pytest.mark.parametrize(
    ("diagnosis_and_scans", "expected"),
    [c[1:] for c in CORPUS_SHAPED],
    ids=[c[0] for c in CORPUS_SHAPED],
)
def test_right_known_case_is_in_the_top_three(diagnosis_and_scans, expected):
    diagnosis, scans = diagnosis_and_scans
    top = [m.id for m in match_cases(diagnosis, scans, tree_links=case_links(), limit=3)]
    assert expected in top


def test_scores_are_between_zero_and_one_and_sorted():
    diagnosis, scans = CORPUS_SHAPED[2][1]
    matches = match_cases(diagnosis, scans, tree_links=case_links(), limit=10)
    scores = [m.score for m in matches]
    assert scores == sorted(scores, reverse=True)
    assert all(0 < s <= 1 for s in scores)
    assert matches[0].id == "hccl-buffsize-too-small"


def test_matching_is_deterministic():
    diagnosis, scans = CORPUS_SHAPED[0][1]
    assert match_cases(diagnosis, scans, tree_links=case_links()) == match_cases(
        diagnosis, scans, tree_links=case_links()
    )


def test_limit_is_respected():
    diagnosis, scans = CORPUS_SHAPED[2][1]
    assert len(match_cases(diagnosis, scans, tree_links=case_links(), limit=2)) == 2


def test_healthy_incident_matches_nothing():
    diagnosis, scans = incident("healthy", "model run success")
    assert match_cases(diagnosis, scans, tree_links=case_links()) == []


def test_unrelated_error_matches_nothing():
    diagnosis, scans = incident("other", "ZeroDivisionError: division by zero")
    assert match_cases(diagnosis, scans, tree_links=case_links()) == []


def test_signature_in_the_cause_beats_one_in_the_cascade():
    cause, cascade = (
        "EI0006: Getting socket times out.",
        "Watchdog caught collective operation timeout",
    )
    assert match_cases(*incident("hccl", cause, cascade))[0].id == "hccl-socket-timeout-peer-stuck"
    assert match_cases(*incident("hccl", cascade, cause))[0].id == "hccl-watchdog-exec-timeout"


def test_operator_name_matches_across_spellings():
    diagnosis, scans = incident(
        "aicore_timeout",
        "[ERROR] APP(9,):2026-05-01-08:00:01.993.467 9 MakeSureQueueEmpty:NPUQueue.cpp:539: "
        "detail: the current working operator name is aclnnMoeDistributeDispatchV2",
        codes=("507014",),
    )
    top = [m.id for m in match_cases(diagnosis, scans, tree_links=case_links(), limit=3)]
    assert top[0] == "mc2-dispatch-experts-per-rank-a2"


def test_cases_linked_from_the_tree_leaf_rank_higher():
    diagnosis, scans = incident("hang", "no error, ranks stopped")
    diagnosis.tree_path = ["start", "no_explicit_error", "stuck_model_construction"]
    top = match_cases(diagnosis, scans, tree_links=case_links(), limit=3)
    assert top[0].id == "hang-model-construction-cpu-bound"


def test_tree_links_can_be_given_explicitly():
    library = [Case("x-case", "X", "hang", "r", "f"), Case("y-case", "Y", "hang", "r", "f")]
    diagnosis, scans = incident("hang", "stuck")
    diagnosis.tree_path = ["root", "leaf"]
    matches = match_cases(diagnosis, scans, cases=library, tree_links={"leaf": ("y-case",)})
    assert [m.id for m in matches] == ["y-case"]


# --------------------------------------------------------------------- hardware, repeats


def smi_scan(name: str) -> FileScan:
    device = {"npu": 0, "name": name, "health": "OK", "aicore_pct": 0.0, "hbm_used_mb": 3100}
    return FileScan(
        FileInfo("npu_smi.txt", FileKind.NPU_SMI, None), [], {"npu_smi": {"devices": [device]}}
    )


@pytest.mark.parametrize(
    ("scan", "generation"),
    [
        (smi_scan("910B3"), "A2"),
        (smi_scan("310P3"), "310P"),
        (
            FileScan(
                FileInfo("env.txt", FileKind.ENV, None),
                [],
                {"env": {"SOC_VERSION": "Ascend910_9391"}},
            ),
            "A3",
        ),
        (smi_scan("Ascend910"), None),  # the plain name does not tell A3 from older parts
    ],
)
def test_hardware_of(scan, generation):
    assert hardware_of([scan]) == generation


def test_case_for_other_hardware_counts_half():
    line = "the current working operator name is aclnnMoeDistributeDispatchV2"
    diagnosis, scans = incident("aicore_timeout", line, codes=("507014",))
    a2 = {m.id: m.score for m in match_cases(diagnosis, [*scans, smi_scan("910B4")])}
    a3_env = {"env": {"SOC_VERSION": "Ascend910_9392"}}
    a3_scan = FileScan(FileInfo("env.txt", FileKind.ENV, None), [], a3_env)
    a3 = {m.id: m.score for m in match_cases(diagnosis, [*scans, a3_scan])}
    case = "mc2-dispatch-experts-per-rank-a2"
    assert a3[case] == pytest.approx(a2[case] / 2, abs=0.01)


def test_a_cuda_job_is_not_offered_cases_written_for_ascend():
    diagnosis, scans = incident(
        "hccl",
        "[rank1]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
        "unhandled cuda error, NCCL version 2.21.5",
        "ncclUnhandledCudaError: Call to CUDA function failed.",
    )
    assert "backend-nccl-on-npu" not in [m.id for m in match_cases(diagnosis, scans, limit=20)]


def test_a_cuda_job_keeps_the_general_cases():
    diagnosis, scans = incident(
        "hccl",
        "[rank3]:[E1203 10:00:01.5 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=77, OpType=ALLREDUCE, Timeout(ms)=600000)",
        "NCCL WARN Cuda failure 'an illegal memory access was encountered'",
    )
    assert "hccl-watchdog-exec-timeout" in [m.id for m in match_cases(diagnosis, scans)]


def peer_lost_cases(*hardware: str) -> list[Case]:
    """One case per hardware tag, each for a peer that closed its connection."""
    return [
        parse_cases(
            one(id=f"peer-lost-{hw}", hardware=[hw], signatures=["Connection closed by peer"]),
            source="demo.yaml",
        )[0]
        for hw in hardware
    ]


def test_a_cpu_job_is_offered_cases_for_cpus_and_any_hardware_but_none_for_an_accelerator():
    diagnosis, scans = incident(
        "hccl",
        "[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "pair.cc:553] Connection closed by peer [127.0.0.1]:63178.",
    )
    library = peer_lost_cases("cpu", "any", "ascend", "cuda")

    offered = [m.id for m in match_cases(diagnosis, scans, cases=library)]

    assert sorted(offered) == ["peer-lost-any", "peer-lost-cpu"]


def test_an_ascend_job_is_not_offered_a_case_written_for_cpus():
    diagnosis, scans = incident(
        "hccl",
        "[rank1]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection "
        "closed by peer [10.0.0.2]:2345",
        "[ERROR] HCCL(4021,python):2026-11-29-07:24:01.123.456 [hcom.cc:77] wait timeout",
    )
    library = peer_lost_cases("cpu", "ascend")

    assert [m.id for m in match_cases(diagnosis, scans, cases=library)] == ["peer-lost-ascend"]


def test_an_ascend_job_asking_for_nccl_still_gets_the_backend_case():
    diagnosis, scans = incident(
        "config",
        "[rank0]: RuntimeError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!",
        "[rank0]: [W compiler_depend.ts:133] Warning: torch_npu was imported; device npu:0",
    )
    assert "backend-nccl-on-npu" in [m.id for m in match_cases(diagnosis, scans)]


def test_repeated_cascade_lines_count_once():
    rank_lines = [
        f"[rank{r}]:[E0302 10:11:{r:02d}.42] [Rank {r}] Watchdog caught collective operation "
        f"timeout: WorkHCCL(SeqNum={900 + r}, OpType=ALLREDUCE, Timeout(ms)=1800000)"
        for r in range(64)
    ]
    diagnosis, scans = incident("hccl", *rank_lines)
    text = incident_text(diagnosis, scans)
    assert text.cause == rank_lines[0]
    assert text.other == ""
    assert template(rank_lines[5]) == template(rank_lines[6])


def test_a_call_refused_during_graph_capture_finds_the_capture_case_first():
    """The refusal (labelling guide: calls refused during graph capture) is a capture
    problem, not streams or events that ran out."""
    diagnosis, scans = incident(
        "stream_sync",
        "EE9999[PID: 5120] 2026-07-18-22:14:09.330.127 (EE9999):  rtMemcpy execution failed, "
        "reason=the current capture mode does not support this operation"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:61]",
        "[ERROR] 2026-07-18-22:14:09 (PID:5120, Device:1, RankID:-1) ERR00100 PTA call acl api failed",
        "[Error]: Model execution failed.",
        codes=("EE9999", "ERR00100"),
        tree_path=("start", "explicit_error", "stream_sync", "stream_capture_refused"),
    )
    top = match_cases(diagnosis, scans, tree_links=case_links(), limit=3)
    assert top[0].id == "capture-refused-call"
