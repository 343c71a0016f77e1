"""The diagnosis tree: its data is validated, and every branch is reachable from facts.

Walk tests are a table: facts shaped like a real incident -> the path of node ids. Lines
follow the real formats (torch_npu RuntimeError, CANN error-manager blocks, HCCL watchdog,
torch elastic summaries); see ../shared/corpus/FORMATS.md.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime

import pytest
import yaml

from analyzers.core.checkpoint_timeline import Checkpoint, Timeline
from analyzers.core.report import Diagnosis
from analyzers.core.types import (
    Correlation,
    ErrorRef,
    Event,
    EventKind,
    FileInfo,
    FileKind,
    FileScan,
)
from analyzers.library.matching import load_cases, taxonomy
from analyzers.tree.facts import ExitFact, FactLine, NpuState, operators_in
from analyzers.tree.loading import TREE_FILE
from analyzers.tree.walk import (
    TreeError,
    TreeFacts,
    case_links,
    facts_from,
    load_tree,
    parse_tree,
    path_category,
    walk_tree,
)
from tests.corpus_path import CORPUS as SHARED_CORPUS

# ------------------------------------------------------------------------------- helpers


def ref(text: str, line: int = 1, file: str = "log_0.log", rank: int | None = 0) -> ErrorRef:
    return ErrorRef(file=file, line=line, text=text, rank=rank)


def facts(category: str = "other", *lines: str, **kw) -> TreeFacts:
    """Facts whose first error is the first line and whose error lines are all of them."""
    refs = [ref(text, i + 1) for i, text in enumerate(lines)]
    base = TreeFacts(
        category=category,
        first_error=refs[0] if refs else None,
        lines=tuple(FactLine(r, r.text) for r in refs),
        codes=frozenset(kw.pop("codes", ())),
    )
    base.operators = operators_in(base.lines)
    for key, value in kw.items():
        setattr(base, key, value)
    return base


def checkpoints(*texts: str) -> dict:
    """Last checkpoints, one per rank, as the correlation reports them."""
    lines = tuple(
        FactLine(ref(t.split(" / ")[-1], 10 + r, f"log_{r}.log", r), t) for r, t in enumerate(texts)
    )
    return {"last_checkpoints": lines, "checkpoint_count": 5 * len(texts)}


def path(steps) -> list[str]:
    return [s.node for s in steps]


# ------------------------------------------------------------------------- the real data


def test_default_tree_loads_and_names_every_category():
    tree = load_tree()
    named = {n.category for n in tree.nodes.values() if n.category}
    assert named == set(taxonomy())


def test_tree_and_case_library_link_both_ways():
    """Every linked case exists, and every case hangs off some node (the UI shows it there)."""
    ids = {c.id for c in load_cases()}
    linked = {c for cases in case_links().values() for c in cases}
    assert linked == ids


def test_tree_has_the_verification_checklist():
    ids = [item.id for item in load_tree().verification]
    assert "verify_all_ranks" in ids
    assert len(ids) >= 5


def test_tree_to_dict_is_plain_json():
    data = load_tree().to_dict()
    assert json.loads(json.dumps(data))["root"] == "start"
    assert {n["id"] for n in data["nodes"]} == set(load_tree().nodes)


# -------------------------------------------------------------------- validation errors

MINIMAL = {
    "root": "start",
    "nodes": [
        {
            "id": "start",
            "label": "incident",
            "question": "Is there an error?",
            "guidance": "Look at the logs.",
            "children": ["boom"],
        },
        {
            "id": "boom",
            "label": "an error",
            "question": "Which one?",
            "guidance": "Read it.",
            "when": {"any_error": True},
        },
    ],
}


def broken(change) -> dict:
    data = copy.deepcopy(MINIMAL)
    change(data)
    return data


def _set(node: int, **fields):
    return lambda d: d["nodes"][node].update(fields)


BROKEN_TREES = [
    (
        "duplicate id",
        lambda d: d["nodes"].append(copy.deepcopy(d["nodes"][1])),
        "duplicate node id",
    ),
    (
        "unknown predicate",
        _set(1, when={"has_colour": ["red"]}),
        "unknown predicate key 'has_colour'",
    ),
    ("bad regex", _set(1, when={"has_signature": ["(unclosed"]}), "bad regex"),
    ("string instead of list", _set(1, when={"has_code": "507014"}), "'has_code' expects strings"),
    ("bool expected", _set(1, when={"ranks_missing": "yes"}), "'ranks_missing' expects bool"),
    ("unknown category", _set(1, when={"category": ["gremlins"]}), "unknown category"),
    ("unknown child", _set(0, children=["boom", "ghost"]), "unknown child node(s) ['ghost']"),
    ("unknown case", _set(1, cases=["no-such-case"]), "unknown case id(s)"),
    ("missing when", lambda d: d["nodes"][1].pop("when"), "missing 'when'"),
    ("empty predicate", _set(1, when={}), "non-empty mapping"),
    ("bad id", _set(1, id="Boom Node"), "id must be a slug"),
    ("unknown field", _set(1, colour="red"), "unknown field(s) ['colour']"),
    ("empty question", _set(1, question=""), "'question' must be a non-empty string"),
    ("bad placeholder", _set(1, label="rank {nobody}"), "unknown label placeholder(s) ['nobody']"),
    ("bad strategy", _set(1, strategy=["pray"]), "unknown strategy"),
    ("node category", _set(1, category="gremlins"), "not in the taxonomy"),
    ("root missing", lambda d: d.update(root="nowhere"), "root 'nowhere' is not a node"),
    (
        "two parents",
        lambda d: (
            d["nodes"][1].update(children=["leaf"]),
            d["nodes"][0].update(children=["boom", "leaf"]),
            d["nodes"].append({**copy.deepcopy(MINIMAL["nodes"][1]), "id": "leaf"}),
        ),
        "more than one parent",
    ),
    (
        "unreachable",
        lambda d: d["nodes"].append({**copy.deepcopy(MINIMAL["nodes"][1]), "id": "island"}),
        "not reachable from the root: ['island']",
    ),
    (
        "bad verification",
        lambda d: d.update(verification=[{"id": "x"}]),
        "needs 'id' and 'check'",
    ),
    ("not a mapping", lambda d: d.update(nodes="start"), "'nodes' list"),
]


def test_minimal_tree_is_valid():
    tree = parse_tree(MINIMAL, case_ids=frozenset())
    assert path(walk_tree(facts("hccl", "RuntimeError: boom"), tree)) == ["start", "boom"]


@pytest.mark.parametrize(
    ("change", "message"), [b[1:] for b in BROKEN_TREES], ids=[b[0] for b in BROKEN_TREES]
)
def test_broken_tree_is_rejected_with_a_clear_message(change, message):
    with pytest.raises(TreeError, match=None) as caught:
        parse_tree(broken(change), source="tree.yaml", case_ids=frozenset({"known-case"}))
    assert message in str(caught.value)
    assert str(caught.value).startswith("tree.yaml")


def test_broken_yaml_file_names_the_file(tmp_path):
    data = yaml.safe_load(TREE_FILE.read_text())
    data["nodes"][3]["when"] = {"has_signatur": ["typo"]}
    bad = tmp_path / "tree.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(
        TreeError, match=r"tree\.yaml: node '\w+': unknown predicate key 'has_signatur'"
    ):
        load_tree(bad)


# ---------------------------------------------------------------------------- the walks

RT = "RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:488 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is {}"
EZ = "EZ9999[PID: 4127] 2026-03-02-10:11:12.123.456 (EZ9999):  {}"
OOM_OUTSIDE = (
    "RuntimeError: NPU out of memory. Tried to allocate 20.00 MiB (NPU 2; 60.97 GiB total capacity; "
    "9.10 GiB already allocated; 9.10 GiB current active; 12.50 MiB free; 9.50 GiB reserved in total by PyTorch)"
)
OOM_FRAGMENTED = (
    "torch.OutOfMemoryError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; "
    "30.00 GiB already allocated; 30.00 GiB current active; 1.20 GiB free; 58.00 GiB reserved in total by PyTorch)"
)
OOM_PLAIN = (
    "RuntimeError: NPU out of memory. Tried to allocate 8.00 GiB (NPU 0; 60.97 GiB total capacity; "
    "52.00 GiB already allocated; 52.00 GiB current active; 6.10 GiB free; 53.00 GiB reserved in total by PyTorch)"
)
WATCHDOG = (
    "[rank3]:[E0302 10:11:12.428029551 compiler_depend.ts:721] [Rank 3] Watchdog caught collective "
    "operation timeout: WorkHCCL(SeqNum=88, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800321 "
    "milliseconds before timing out."
)

EXPLICIT = ["start", "explicit_error"]

WALKS = [
    # -- AI Core timeout: the bisection chain, then the constraint table
    (
        "aicore no checkpoints",
        facts("aicore_timeout", RT.format(507014), codes={"507014"}),
        [*EXPLICIT, "aicore_timeout", "aicore_bisect_stage"],
        True,
    ),
    (
        "aicore stage known",
        facts(
            "aicore_timeout", RT.format(507014), **checkpoints("prefill passed", "prefill passed")
        ),
        [*EXPLICIT, "aicore_timeout", "aicore_bisect_stage", "aicore_bisect_layer"],
        True,
    ),
    (
        "aicore layer known",
        facts(
            "aicore_timeout", RT.format(507014), **checkpoints("layer 2 passed", "layer 2 passed")
        ),
        [
            *EXPLICIT,
            "aicore_timeout",
            "aicore_bisect_stage",
            "aicore_bisect_layer",
            "aicore_bisect_module",
        ],
        True,
    ),
    (
        "aicore module known",
        facts(
            "aicore_timeout",
            RT.format(507014),
            **checkpoints("layer 2 / attention passed", "layer 2 / attention passed"),
        ),
        [
            *EXPLICIT,
            "aicore_timeout",
            "aicore_bisect_stage",
            "aicore_bisect_layer",
            "aicore_bisect_module",
            "aicore_bisect_operator",
        ],
        False,
    ),
    (
        "aicore operator named",
        facts(
            "aicore_timeout",
            "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is aclnnRmsNorm.",
        ),
        [*EXPLICIT, "aicore_timeout", "aicore_operator_named"],
        False,
    ),
    (
        "MC2 dispatch",
        facts(
            "aicore_timeout",
            "[ERROR] APP(4127,):2026-03-02-10:11:12.000.001 4127 MakeSureQueueEmpty:NPUQueue.cpp:539: detail: the current working operator name is aclnnMoeDistributeDispatchV2",
        ),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table", "mc2_experts_per_rank"],
        False,
    ),
    (
        "MC2 combine",
        facts("op_constraint", "call npu_moe_distribute_combine_v2 hung in decode"),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table", "mc2_experts_per_rank"],
        False,
    ),
    (
        "zero chunk",
        facts("op_constraint", "ValueError: moe_chunk_max_len must be positive, got 0"),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table", "moe_routing_zero_chunk"],
        False,
    ),
    (
        "gating top-k",
        facts("op_constraint", "current working operator name is aclnnMoeGatingTopK"),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table", "gating_topk_exceeds_experts"],
        False,
    ),
    (
        "head num",
        facts("op_constraint", EZ.format("headNum(16) must be divisible by kvHeadNum(3)")),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table", "fa_head_num"],
        False,
    ),
    (
        "mask shape",
        facts(
            "op_constraint",
            EZ.format("get unsupported atten_mask shape, the shape is [8, 1, 1, 4096]."),
        ),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table", "fa_mask_sparse_mode"],
        False,
    ),
    (
        "block table",
        facts("op_constraint", EZ.format("block_table value 9001 exceeds block num 4096")),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table", "pa_block_table_bounds"],
        False,
    ),
    (
        "nz cache",
        facts(
            "op_constraint", EZ.format("kv cache format FRACTAL_NZ requires last dim aligned to 16")
        ),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table", "nz_cache_format"],
        False,
    ),
    (
        "seq lengths",
        facts(
            "op_constraint", "TypeError: actual_seq_lengths expected a list of int but got Tensor"
        ),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table", "seq_lengths_arg_type"],
        False,
    ),
    (
        "layout",
        facts("op_constraint", EZ.format("input_layout BNSD_NBSD is not supported by this API")),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table", "fa_input_layout"],
        False,
    ),
    (
        "constraint unknown",
        facts("op_constraint", RT.format(507014)),
        [*EXPLICIT, "aicore_timeout", "op_constraint_table"],
        True,
    ),
    # -- HCCL
    (
        "buffsize",
        facts("hccl", EZ.format("HCCL_BUFFSIZE is too SMALL, maxBs = 256, h = 7168")),
        [*EXPLICIT, "hccl", "hccl_buffsize"],
        False,
    ),
    (
        "monitored barrier",
        facts(
            "hccl",
            "[rank0]:[E0302 10:11:12.616993348 ProcessGroupGloo.cpp:2901] [Rank 0]: Rank 2 failed to pass monitoredBarrier in 5000 ms",
        ),
        [*EXPLICIT, "hccl", "hccl_divergent_paths"],
        False,
    ),
    (
        "diverged ranks",
        facts(
            "hccl",
            WATCHDOG,
            diverged_ranks=(2,),
            **checkpoints("prefill passed", "prefill passed", "decode step 0 passed"),
        ),
        [*EXPLICIT, "hccl", "hccl_divergent_paths"],
        False,
    ),
    (
        "peer closed",
        facts(
            "hccl",
            "[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:1946",
        ),
        [*EXPLICIT, "hccl", "hccl_peer_died"],
        False,
    ),
    (
        "peer segfault",
        facts(
            "hccl",
            WATCHDOG,
            exits=(ExitFact(-11, 1, ref("exitcode  : -11 (pid: 2211)", 40, "launcher.log", 1)),),
        ),
        [*EXPLICIT, "hccl", "hccl_peer_died"],
        False,
    ),
    (
        "group name",
        facts("hccl", "RuntimeError: groupEp is empty, pass the HCCL name of the EP group"),
        [*EXPLICIT, "hccl", "hccl_group_name"],
        False,
    ),
    (
        "split sizes",
        facts(
            "hccl",
            "RuntimeError: Split sizes doesn't match total dim 0 size: input_split_sizes sum 96 != 128",
        ),
        [*EXPLICIT, "hccl", "hccl_split_sizes"],
        False,
    ),
    (
        "comm init",
        facts(
            "hccl",
            "RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:381 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 4",
        ),
        [*EXPLICIT, "hccl", "hccl_init_config"],
        False,
    ),
    (
        "leftover hccp",
        facts(
            "hccl",
            "EJ0001: [PID: 4127] 2026-03-02-10:11:12.000.001 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.",
            codes={"EJ0001"},
        ),
        [*EXPLICIT, "hccl", "hccl_leftover_hccp"],
        False,
    ),
    (
        "socket timeout",
        facts(
            "hccl",
            "[rank1]: EI0006: [PID: 4127] 2026-03-02-10:11:12.999.536 Getting socket times out. Reason: Remote Rank did not send the data in time.",
            codes={"EI0006"},
        ),
        [*EXPLICIT, "hccl", "hccl_link_setup"],
        False,
    ),
    ("exec timeout", facts("hccl", WATCHDOG), [*EXPLICIT, "hccl", "hccl_exec_timeout"], False),
    (
        "hccl unexplained",
        facts(
            "hccl",
            "[ERROR] 2026-03-02-10:11:12 (PID:4127, Device:1, RankID:1) ERR02200 DIST call hccl api failed.",
        ),
        [*EXPLICIT, "hccl"],
        True,
    ),
    # -- memory
    (
        "host oom killer",
        facts(
            "oom",
            "Mar 15 03:40:50 node01 kernel: [16794.247724] Out of memory: Kill process 6033 "
            "(python3) score 367 or sacrifice child",
        ),
        [*EXPLICIT, "oom", "oom_host_killer"],
        False,
    ),
    (
        "oom outside allocator",
        facts("oom", OOM_OUTSIDE, oom_outside_allocator=True, oom_fragmented=False),
        [*EXPLICIT, "oom", "oom_outside_allocator"],
        False,
    ),
    (
        "oom fragmented",
        facts("oom", OOM_FRAGMENTED, oom_outside_allocator=False, oom_fragmented=True),
        [*EXPLICIT, "oom", "oom_fragmentation"],
        False,
    ),
    (
        "oom workspace",
        facts(
            "oom",
            "Memory_Allocation_Failure(EL0004): Failed to allocate memory. workspace size 3221225472 is too large",
        ),
        [*EXPLICIT, "oom", "oom_workspace"],
        False,
    ),
    (
        "oom moe",
        facts("oom", OOM_PLAIN, '  File "moe.py", line 88, in dispatch'),
        [*EXPLICIT, "oom", "oom_moe_buffers"],
        False,
    ),
    (
        "oom kv cache",
        facts(
            "oom",
            OOM_PLAIN,
            "ERROR 03-02 10:11:12 [worker.py:210] failed to allocate the KV cache blocks",
        ),
        [*EXPLICIT, "oom", "oom_kv_cache"],
        False,
    ),
    (
        "oom weights",
        facts("oom", OOM_PLAIN, '  File "loader.py", line 12, in load_weights'),
        [*EXPLICIT, "oom", "oom_weights"],
        False,
    ),
    ("oom unexplained", facts("oom", OOM_PLAIN), [*EXPLICIT, "oom"], True),
    # -- shapes
    (
        "kv heads",
        facts(
            "shape_mismatch",
            "RuntimeError: shape '[4, 1, 128]' is invalid: num_kv_heads per rank is 0",
        ),
        [*EXPLICIT, "shape_mismatch", "shape_kv_heads"],
        False,
    ),
    (
        "experts per rank",
        facts(
            "shape_mismatch", "AssertionError: experts_per_rank 21 does not match weight shape 20"
        ),
        [*EXPLICIT, "shape_mismatch", "shape_experts_per_rank"],
        False,
    ),
    (
        "block table object",
        facts("shape_mismatch", "TypeError: block_table must be a Tensor, got dict"),
        [*EXPLICIT, "shape_mismatch", "shape_block_table"],
        False,
    ),
    (
        "packed reshape",
        facts(
            "shape_mismatch",
            "RuntimeError: shape '[2, 512, 4096]' is invalid for input of size 3407872 (reshape)",
        ),
        [*EXPLICIT, "shape_mismatch", "shape_packed_sequence"],
        False,
    ),
    (
        "matmul",
        facts(
            "shape_mismatch",
            "[rank3]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)",
        ),
        [*EXPLICIT, "shape_mismatch", "shape_matmul_operands"],
        False,
    ),
    (
        "elementwise",
        facts(
            "shape_mismatch",
            "RuntimeError: The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0",
        ),
        [*EXPLICIT, "shape_mismatch", "shape_elementwise"],
        False,
    ),
    # -- host-side operator failures
    (
        "dtype",
        facts(
            "operator",
            "Tensor scale not implemented for DT_FLOAT16, should be in dtype support list [DT_BFLOAT16, DT_FLOAT].",
        ),
        [*EXPLICIT, "operator", "op_dtype_unsupported"],
        False,
    ),
    (
        "tiling",
        facts(
            "operator",
            "E89999[PID: 4127] 2026-03-02-10:11:12.573.920 (E89999):  When layout is TND, queryT(8) must be equal to the last element of actualSequenceLengthQ(5)",
            codes={"561002", "E89999"},
        ),
        [*EXPLICIT, "operator", "op_tiling_check"],
        False,
    ),
    (
        "param check",
        facts(
            "operator",
            "AclNN_Parameter_Error(EZ1001): the dim of self must be 2",
            codes={"161002", "EZ1001"},
        ),
        [*EXPLICIT, "operator", "op_param_check"],
        False,
    ),
    (
        "not registered",
        facts(
            "operator",
            "NotImplementedError: Could not run 'npu::npu_foo' with arguments from the 'PrivateUse1' backend.",
        ),
        [*EXPLICIT, "operator", "op_not_registered"],
        False,
    ),
    (
        "inner error",
        facts("operator", "EZ9999: Inner Error!", codes={"EZ9999"}),
        [*EXPLICIT, "operator", "op_inner_error"],
        False,
    ),
    # -- weights and config
    (
        "vocab",
        facts(
            "weight_load",
            "RuntimeError: start (98304) + length (32768) exceeds dimension size (129280) in embed_tokens",
        ),
        [*EXPLICIT, "weight_load", "weight_vocab_pad"],
        False,
    ),
    (
        "slice past end",
        facts(
            "weight_load",
            "RuntimeError: start (105984) + length (35328) exceeds dimension size (131125)",
        ),
        [*EXPLICIT, "weight_load", "weight_split_out_of_range"],
        False,
    ),
    (
        "not divisible",
        facts("weight_load", "ValueError: 18944 is not divisible by 16"),
        [*EXPLICIT, "weight_load", "weight_not_divisible"],
        False,
    ),
    (
        "missing key",
        facts("weight_load", "KeyError: 'model.layers.1.mlp.experts.weight'"),
        [*EXPLICIT, "weight_load", "weight_missing_key"],
        False,
    ),
    (
        "backend",
        facts("config", "RuntimeError: Distributed package doesn't have NCCL built in"),
        [*EXPLICIT, "config", "config_backend"],
        False,
    ),
    (
        "config field",
        facts("config", "AttributeError: 'DeepseekV3Config' object has no attribute 'moe_chunk'"),
        [*EXPLICIT, "config", "config_missing_field"],
        False,
    ),
    (
        "versions",
        facts("config", "ImportError: libtorch_npu.so: undefined symbol: _ZN3c104impl3cow"),
        [*EXPLICIT, "config", "config_version_mismatch"],
        False,
    ),
    (
        "options",
        facts(
            "config", "ValueError: chunked prefill is not supported with graph mode on this backend"
        ),
        [*EXPLICIT, "config", "config_incompatible_option"],
        False,
    ),
    # -- stream, device, environment
    (
        "stream sync",
        facts(
            "stream_sync",
            "EE1002: 2026-03-02-10:11:12.366.560 Stream synchronize timeout. rtDeviceSynchronize execute failed, reason=[stream sync timeout]",
            codes={"EE1002"},
        ),
        [*EXPLICIT, "stream_sync", "stream_sync_timeout"],
        False,
    ),
    (
        # Calls refused during graph capture: the EE9999 block under a serving worker's
        # "Model execution failed", and the capture-state code of a runtime plog line.
        "capture refusal",
        facts(
            "stream_sync",
            "EE9999[PID: 5120] 2026-07-18-22:14:09.330.127 (EE9999):  rtMemcpy execution failed, "
            "reason=the current capture mode does not support this operation"
            "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:61]",
            "[ERROR] 2026-07-18-22:14:09 (PID:5120, Device:1, RankID:-1) ERR00100 PTA call acl api failed",
            codes={"EE9999", "ERR00100"},
        ),
        [*EXPLICIT, "stream_sync", "stream_capture_refused"],
        False,
    ),
    (
        "capture-state code",
        facts(
            "stream_sync",
            "[ERROR] RUNTIME(4410,python3):2026-07-18-22:14:09.512.212 [api_c.cc:1090]4410 "
            "rtStreamSynchronize:ErrCode=107027, desc=[stream is captured], InnerCode=0x7030010",
            codes={"107027"},
        ),
        [*EXPLICIT, "stream_sync", "stream_capture_refused"],
        False,
    ),
    (
        "event wait",
        facts(
            "stream_sync",
            "event wait timeout occurred during task execution, stream_id:41, sq_id:8, task_id:90081, event_id=535, timeout=288s.",
        ),
        [*EXPLICIT, "stream_sync", "stream_event_wait"],
        False,
    ),
    (
        "device lost",
        facts(
            "device_fault",
            "[PID: 959] 2026-03-02-10:11:12.957.311 Device_Absent/Abnormal(EL0001): Device not found or invalid.",
            codes={"EL0001"},
        ),
        [*EXPLICIT, "device_fault", "device_lost"],
        False,
    ),
    (
        "segfault",
        facts(
            "device_fault",
            "E0302 10:11:12.499000 26576 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -11) local_rank: 1 (pid: 26691)",
            exits=(ExitFact(-11, 1, None),),
        ),
        [*EXPLICIT, "device_fault", "device_segfault"],
        False,
    ),
    (
        "killed",
        facts(
            "device_fault",
            "traceback : Signal 9 (SIGKILL) received by PID 20890",
            exits=(ExitFact(-9, 2, None),),
        ),
        [*EXPLICIT, "device_fault", "device_killed"],
        False,
    ),
    (
        "illegal access",
        facts("device_fault", "RuntimeError: NPU error: an illegal memory access was encountered"),
        [*EXPLICIT, "device_fault", "device_illegal_access"],
        False,
    ),
    (
        "sdma",
        facts(
            "device_fault", "there is a fftsplus sdma error, sdma channel is 2,", codes={"507013"}
        ),
        [*EXPLICIT, "device_fault", "device_sdma"],
        False,
    ),
    (
        "firmware",
        facts(
            "driver_env",
            "dcmi module initialize failed. Firmware version incompatible (600001)",
            codes={"600001"},
        ),
        [*EXPLICIT, "driver_env", "env_firmware"],
        False,
    ),
    (
        "init env",
        facts(
            "driver_env",
            "EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:560]",
        ),
        [*EXPLICIT, "driver_env", "env_init_failed"],
        False,
    ),
    (
        "operator package check",
        facts(
            "driver_env",
            "E30006: 2026-04-21-16:05:44.301.772 Failed to verify the OPP",
            "RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:152 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033",
            codes={"E30006", "507033"},
        ),
        [*EXPLICIT, "driver_env", "env_init_failed"],
        False,
    ),
    (
        "device start without a reason",
        facts(
            "driver_env",
            "RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:152 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033",
            codes={"507033"},
        ),
        [*EXPLICIT, "driver_env", "env_device_visibility"],
        False,
    ),
    (
        "library",
        facts(
            "driver_env",
            "OSError: libatb.so: cannot open shared object file: No such file or directory",
        ),
        [*EXPLICIT, "driver_env", "env_libraries"],
        False,
    ),
    (
        "permissions",
        facts("driver_env", "open /dev/davinci3 failed: Permission denied"),
        [*EXPLICIT, "driver_env", "env_permissions"],
        False,
    ),
    (
        "visibility",
        facts("driver_env", "RuntimeError: NPU not available, device count is 0", codes={"507899"}),
        [*EXPLICIT, "driver_env", "env_device_visibility"],
        False,
    ),
    (
        "numa",
        facts("driver_env", "warning: process bound to numa node 1 but NPU 0 sits on numa node 0"),
        [*EXPLICIT, "driver_env", "env_numa"],
        False,
    ),
    (
        "numbers went non-finite",
        facts("other", "{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 1.2e-05, 'epoch': 0.31}"),
        [*EXPLICIT, "nonfinite_numbers"],
        False,
    ),
    (
        "a loss scaler that gave up",
        facts(
            "other",
            "Exception: Current loss scale already at minimum - cannot decrease scale anymore.",
        ),
        [*EXPLICIT, "nonfinite_numbers"],
        False,
    ),
    (
        "other",
        facts("other", "ZeroDivisionError: division by zero"),
        [*EXPLICIT, "other_error"],
        False,
    ),
    # -- no explicit error: the npu-smi state
    ("nothing known", facts("hang"), ["start", "no_explicit_error"], True),
    (
        "high ranks died",
        facts(
            "hang", world_size=8, missing_ranks=(6, 7), npu=NpuState(processes=6, hbm_uneven=True)
        ),
        ["start", "no_explicit_error", "deploy_ranks_missing", "deploy_high_ranks_died"],
        False,
    ),
    (
        "silent ranks",
        facts("hang", world_size=8, missing_ranks=(6, 7)),
        ["start", "no_explicit_error", "deploy_ranks_missing", "deploy_silent_ranks"],
        False,
    ),
    (
        "no processes",
        facts("hang", world_size=8, npu=NpuState(processes=0)),
        ["start", "no_explicit_error", "no_processes"],
        False,
    ),
    (
        "model construction",
        facts(
            "hang",
            world_size=8,
            npu=NpuState(processes=8, hbm_low=True, hbm_uneven=False),
            cpu_busy=True,
        ),
        ["start", "no_explicit_error", "stuck_model_construction"],
        False,
    ),
    (
        "waiting",
        facts(
            "hang",
            world_size=8,
            npu=NpuState(
                processes=8,
                hbm_low=False,
                hbm_uneven=False,
                aicore_idle=True,
                leftover_processes=False,
            ),
        ),
        ["start", "no_explicit_error", "stuck_waiting"],
        True,
    ),
    (
        "leftover",
        facts(
            "hang",
            world_size=2,
            npu=NpuState(processes=3, hbm_flat=True, hbm_uneven=False, leftover_processes=True),
            cpu_busy=False,
        ),
        ["start", "no_explicit_error", "stuck_waiting", "hang_leftover_processes"],
        False,
    ),
    (
        "graph only",
        facts(
            "hang",
            "TimeoutError: RPC call to sample_tokens timed out after npugraph replay",
            world_size=1,
        ),
        ["start", "no_explicit_error", "stuck_waiting", "hang_graph_only"],
        False,
    ),
    (
        "eager too",
        facts(
            "hang", "TimeoutError: timed out waiting for workers (enforce_eager=True)", world_size=1
        ),
        ["start", "no_explicit_error", "stuck_waiting", "hang_eager_too"],
        False,
    ),
    (
        "loading",
        facts("hang", world_size=8, npu=NpuState(processes=8, hbm_uneven=False, hbm_growing=True)),
        ["start", "no_explicit_error", "weights_loading"],
        False,
    ),
    ("healthy", facts("healthy"), ["start", "healthy"], False),
]


@pytest.mark.parametrize(
    ("incident", "expected", "open_end"), [w[1:] for w in WALKS], ids=[w[0] for w in WALKS]
)
def test_walk_takes_the_expected_branch(incident, expected, open_end):
    steps = walk_tree(incident)
    assert path(steps) == expected
    assert (steps[-1].answer is None) is open_end
    assert all(step.answer is not None for step in steps[:-1])


def test_every_node_is_reached_by_some_walk():
    reached = {node for _, incident, _, _ in WALKS for node in path(walk_tree(incident))}
    assert reached == set(load_tree().nodes)


def test_each_step_cites_the_lines_that_decided_it():
    line = EZ.format("HCCL_BUFFSIZE is too SMALL, maxBs = 256, h = 7168")
    steps = walk_tree(
        facts(
            "hccl",
            "[ERROR] 2026-03-02-10:11:12 (PID:1, Device:0, RankID:0) ERR00100 PTA call acl api failed",
            line,
        )
    )
    assert steps[-1].node == "hccl_buffsize"
    assert [r.text for r in steps[-2].evidence] == [line]
    assert steps[0].evidence[0].line == 1  # the first error justifies the root's answer


def test_open_question_has_no_answer_and_no_evidence():
    [start, node] = walk_tree(facts("hang"))
    assert node.node == "no_explicit_error"
    assert node.answer is None
    assert node.evidence == []
    assert start.answer == "no explicit error"


def test_labels_name_the_operator_and_the_ranks():
    op = walk_tree(facts("aicore_timeout", "the current working operator name is aclnnRmsNorm"))
    assert op[-1].answer == "operator named: aclnnRmsNorm"
    silent = walk_tree(facts("hang", world_size=4, missing_ranks=(2, 3)))
    assert silent[-1].answer == "ranks silent: 2, 3"


def test_diverged_paths_name_the_ranks_the_report_blames():
    blamed = walk_tree(facts("hccl", "failed to pass monitoredBarrier", culprit_ranks=(3,)))
    assert blamed[-1].answer == "ranks took different paths (ranks 3)"


def test_diverged_paths_with_no_rank_to_name_say_no_ranks():
    unnamed = walk_tree(facts("hccl", "failed to pass monitoredBarrier"))
    assert unnamed[-1].answer == "ranks took different paths"


# ------------------------------------------------------- the walk in the job's stack's words

ASCEND_WORDS = ("npu-smi", "NPU", "HBM", "CANN", "torch_npu", "HCCL", "davinci")


def _ascend_words(steps) -> list[str]:
    said = " ".join(f"{s.question} {s.answer or ''}" for s in steps)
    return [word for word in ASCEND_WORDS if word in said]


def test_a_hung_cuda_job_is_asked_about_nvidia_smi_not_npu_smi():
    ascend = walk_tree(facts("hang"), stack="ascend")
    cuda = walk_tree(facts("hang"), stack="cuda")

    assert ascend[-1].question == "What does npu-smi show for the job's processes?"
    assert cuda[-1].question == (
        "What do nvidia-smi and the ranks' stacks show for the job's processes?"
    )
    assert path(cuda) == path(ascend)  # the words change, never the path


def test_a_cuda_jobs_answers_name_its_gpus():
    leftover = facts(
        "hang",
        world_size=2,
        npu=NpuState(processes=3, hbm_flat=True, hbm_uneven=False, leftover_processes=True),
        cpu_busy=False,
    )
    steps = walk_tree(leftover, stack="cuda")

    assert steps[-2].answer == "leftover processes on the GPUs"
    assert steps[-1].answer == "leftover processes on the GPUs"
    assert walk_tree(leftover, stack="ascend")[-1].answer == "leftover processes on the NPUs"


def test_a_gloo_jobs_walk_reads_no_ascend_word():
    missing = facts("hang", world_size=8, missing_ranks=(6, 7))
    steps = walk_tree(missing, stack="cpu")

    assert steps[1].answer == "ranks missing (missing: 6, 7)"
    assert not _ascend_words(steps)


def test_a_job_on_no_known_stack_reads_device_neutral_words():
    steps = walk_tree(
        facts("hang", world_size=8, npu=NpuState(processes=8, hbm_uneven=False, hbm_growing=True)),
        stack="unknown",
    )

    assert steps[0].answer == "no explicit error"  # a label no stack words otherwise
    assert steps[1].question == (
        "What do the device tool and the ranks' stacks show for the job's processes?"
    )
    assert steps[1].answer == "device memory still growing"
    assert not _ascend_words(steps)


def test_a_cpu_job_takes_the_neutral_words_where_no_cpu_words_are_written():
    timeout = facts("aicore_timeout", "RuntimeError: the kernel did not finish in time")
    steps = walk_tree(timeout, stack="cpu")

    assert [s.node for s in steps[:3]] == ["start", "explicit_error", "aicore_timeout"]
    assert steps[1].answer == load_tree().node("aicore_timeout").unknown.label


@pytest.mark.parametrize("stack", [None, "ascend"])
def test_the_tree_as_written_speaks_to_an_ascend_job(stack):
    steps = walk_tree(facts("hang", world_size=8, npu=NpuState(processes=0)), stack=stack)

    assert [s.question for s in steps] == [load_tree().node(s.node).question for s in steps]
    assert steps[-1].answer == "no job process on the NPUs"


# the nodes whose subject is an Ascend operator, format or error code: entered only on the
# job's own Ascend lines, their words stay Ascend's whatever the job's stack
ASCEND_SUBJECTS = {"mc2_experts_per_rank", "nz_cache_format", "op_inner_error"}


@pytest.mark.parametrize("stack", ["cuda", "cpu", "unknown"])
@pytest.mark.parametrize(
    ("name", "incident", "expected", "open_end"), WALKS, ids=[w[0] for w in WALKS]
)
def test_no_walk_names_ascend_words_to_a_job_on_another_stack(
    stack, name, incident, expected, open_end
):
    """A job on no stack anyone can tell may read Ascend's words only beside CUDA's."""
    steps = walk_tree(incident, stack=stack)
    if ASCEND_SUBJECTS & set(path(steps)):
        return
    said = " ".join(f"{s.question} {s.answer or ''}" for s in steps)
    named = _ascend_words(steps)

    assert not named or (stack == "unknown" and "nvidia" in said), name


def test_unknown_hbm_keeps_the_deployment_branch_open_but_logs_still_decide():
    """Without npu-smi the HBM question is unknown; the missing ranks from the logs decide."""
    steps = walk_tree(facts("hang", world_size=8, missing_ranks=(7,)))
    assert path(steps)[-1] == "deploy_silent_ranks"


def test_path_category_is_the_deepest_named_category():
    assert (
        path_category(["start", "explicit_error", "aicore_timeout", "op_constraint_table"])
        == "op_constraint"
    )
    assert path_category(["start", "no_explicit_error", "deploy_ranks_missing"]) == "hang"
    assert path_category(["start"]) is None


# ------------------------------------------------------------------- facts from a report


def scan(path: str, kind: FileKind, rank: int | None = None, events=(), **topics) -> FileScan:
    return FileScan(FileInfo(path, kind, rank), list(events), dict(topics))


def error(text: str, line: int, file: str = "log_1.log", rank: int = 1, codes=()) -> Event:
    return Event(file, line, text, EventKind.ERROR, message=text, rank=rank, codes=tuple(codes))


def test_facts_collect_codes_operators_and_lines_from_scans():
    first = error(
        "EZ9999[PID: 88] 2026-03-02-10:11:12.138.485 (EZ9999):  HCCL_BUFFSIZE is too SMALL",
        7,
        codes=["EZ9999"],
    )
    rt = error(
        "RuntimeError: npu_moe_distribute_dispatch_v2:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:651 NPU function error: call aclnnMoeDistributeDispatchV3 failed, error code is 561002",
        5,
        codes=["561002"],
    )
    diagnosis = Diagnosis(category="hccl", first_error=first.ref(), error_codes=["561002"])
    correlation = Correlation(ranks=[], timeline=Timeline(), world_size=None)
    got = facts_from(diagnosis, correlation, [scan("log_1.log", FileKind.RANK_LOG, 1, [rt, first])])
    assert got.codes == {"561002", "EZ9999"}
    assert list(got.operators) == ["npu_moe_distribute_dispatch_v2", "aclnnMoeDistributeDispatchV3"]
    assert got.lines[0].ref == first.ref()
    assert len(got.lines) == 2


def test_facts_put_the_culprit_ranks_checkpoint_first():
    def cp(rank: int, text: str, qualified: str) -> Checkpoint:
        return Checkpoint(
            text=text, index=0, file=f"log_{rank}.log", line=30 + rank, qualified=qualified
        )

    timeline = {
        0: [cp(0, "norm passed", "layer 3 / norm passed")],
        2: [cp(2, "attention passed", "layer 3 / attention passed")],
    }
    correlation = Correlation(
        ranks=[],
        timeline=Timeline.of(timeline),
        world_size=4,
        missing_ranks=[3],
        divergent_ranks=[2],
    )
    got = facts_from(Diagnosis(category="hccl", culprit_ranks=[2]), correlation, [])
    assert [f.text for f in got.last_checkpoints] == [
        "layer 3 / attention passed",
        "layer 3 / norm passed",
    ]
    assert got.missing_ranks == (3,)
    assert got.diverged_ranks == (2,)
    assert got.summary()["last_checkpoint"] == "layer 3 / attention passed"


def test_facts_read_torch_elastic_exit_codes_and_cite_the_exitcode_line():
    record = {"rank": 1, "local_rank": 1, "exitcode": -11, "signal": "SIGSEGV", "pid": 26691}
    line = error("rank 1 (local_rank: 1) exitcode: -11 (pid: 26691) signal: SIGSEGV", 231)
    launcher = scan("launcher.log", FileKind.LAUNCHER, None, [line], elastic_failures=[record])
    got = facts_from(Diagnosis(category="device_fault"), Correlation([], Timeline(), 4), [launcher])
    assert [(e.exitcode, e.rank, e.ref.line) for e in got.exits] == [(-11, 1, 231)]


def test_facts_parse_the_oom_message_numbers():
    oom = Diagnosis(category="oom", first_error=ref(OOM_OUTSIDE))
    got = facts_from(oom, Correlation([], Timeline(), None), [])
    assert (got.oom_outside_allocator, got.oom_fragmented) == (True, False)
    frag = facts_from(
        Diagnosis(category="oom", first_error=ref(OOM_FRAGMENTED)),
        Correlation([], Timeline(), None),
        [],
    )
    assert (frag.oom_outside_allocator, frag.oom_fragmented) == (False, True)


def npu_smi(
    used: list[int], aicore: int = 0, processes: int | None = None, name: str = "910B3"
) -> dict:
    devices = [
        {
            "npu": i,
            "name": name,
            "health": "OK",
            "aicore_pct": aicore,
            "hbm_used_mb": u,
            "hbm_total_mb": 65536,
        }
        for i, u in enumerate(used)
    ]
    data = {"devices": devices, "processes": [], "no_process_npus": []}
    if processes == 0:
        data["no_process_npus"] = list(range(len(used)))
    if processes is not None:
        data["processes"] = [
            {"npu": i, "pid": 1000 + i, "name": "python", "memory_mb": 3000}
            for i in range(processes)
        ]
    return data


def test_facts_from_one_npu_smi_snapshot():
    snap = scan(
        "env/npu_smi.txt",
        FileKind.NPU_SMI,
        npu_smi=npu_smi([30000] * 6 + [3100, 3100], processes=6),
    )
    got = facts_from(Diagnosis(category="hang"), Correlation([], Timeline(), 8), [snap])
    assert got.npu.processes == 6
    assert got.npu.hbm_uneven is True
    assert got.npu.hbm_flat is None  # one snapshot cannot show a trend
    assert got.npu.aicore_idle is True
    assert got.npu.leftover_processes is False
    assert got.hardware == "A2"
    assert got.npu.refs[0].file == "env/npu_smi.txt"


def test_facts_from_two_npu_smi_snapshots_show_the_trend():
    first = scan("npu_smi_1.txt", FileKind.NPU_SMI, npu_smi=npu_smi([20000] * 4, processes=4))
    flat = scan("npu_smi_2.txt", FileKind.NPU_SMI, npu_smi=npu_smi([20050] * 4, processes=4))
    grown = scan("npu_smi_2.txt", FileKind.NPU_SMI, npu_smi=npu_smi([26000] * 4, processes=4))
    still = facts_from(Diagnosis(category="hang"), Correlation([], Timeline(), 4), [flat, first])
    loading = facts_from(Diagnosis(category="hang"), Correlation([], Timeline(), 4), [first, grown])
    assert (still.npu.hbm_flat, still.npu.hbm_growing) == (True, False)
    assert (loading.npu.hbm_flat, loading.npu.hbm_growing) == (False, True)


def test_npu_smi_without_a_process_table_leaves_the_process_count_unknown():
    snap = scan("npu_smi.txt", FileKind.NPU_SMI, npu_smi=npu_smi([3000] * 2))
    got = facts_from(Diagnosis(category="hang"), Correlation([], Timeline(), 2), [snap])
    assert got.npu.processes is None
    empty = scan("npu_smi.txt", FileKind.NPU_SMI, npu_smi=npu_smi([3000] * 2, processes=0))
    assert (
        facts_from(
            Diagnosis(category="hang"), Correlation([], Timeline(), 2), [empty]
        ).npu.processes
        == 0
    )


def test_facts_without_npu_smi_leave_device_state_unknown():
    got = facts_from(Diagnosis(category="hang"), Correlation([], Timeline(), 8), [])
    assert got.npu is None
    assert got.cpu_busy is None
    assert got.hardware is None


def test_walk_on_facts_from_a_hung_job_with_a_waiting_npu_state():
    snaps = [
        scan("npu_smi_1.txt", FileKind.NPU_SMI, npu_smi=npu_smi([30000] * 4, processes=4)),
        scan(
            "npu_smi_2.txt",
            FileKind.NPU_SMI,
            npu_smi=npu_smi([30000] * 4, processes=4),
            host={"cpu_percent": {"1000": 0.0, "1001": 1.5}},
        ),
    ]
    steps = walk_tree(facts_from(Diagnosis(category="hang"), Correlation([], Timeline(), 4), snaps))
    assert path(steps) == ["start", "no_explicit_error", "stuck_waiting"]
    assert steps[1].evidence[0].file == "npu_smi_1.txt"


def test_timestamps_survive_into_checkpoint_evidence():
    stamp = datetime(2026, 3, 2, 10, 11, 12).isoformat()
    cp = Checkpoint(text="prefill passed", index=0, file="log_0.log", line=9, timestamp=stamp)
    correlation = Correlation([], Timeline.of({0: [cp], 1: [cp]}), 2)
    got = facts_from(
        Diagnosis(category="aicore_timeout", first_error=ref(RT.format(507014))), correlation, []
    )
    assert got.last_checkpoints[0].ref.timestamp == stamp


# ------------------------------------------------------------- the pipeline on the corpus

CORPUS = SHARED_CORPUS

# For each corpus bundle: known cases any of which is a right answer among the top three.
RELEVANT_CASES = {
    "d01": {"hccl-socket-timeout-peer-stuck"},
    "d02": {"hccl-watchdog-exec-timeout"},
    "d03": {"hccl-buffsize-too-small"},
    "d04": {"aicore-exception-out-of-bounds", "aicore-timeout-async-report"},
    "d05": {"aicore-timeout-async-report"},
    "d06": {"cann-init-env-failed"},
    "d07": {"missing-runtime-library"},
    "d08": {"fia-tnd-seq-lengths-last-element"},
    "d09": {"aclnn-unsupported-dtype"},
    "d10": {"oom-memory-outside-allocator"},
    "d11": {"stream-sync-timeout"},
    "d12": {"weight-missing-key"},
    "d13": {"device-lost-heartbeat"},
    "d14": {"backend-nccl-on-npu"},
    "d15": {"engine-worker-stall", "hang-communication-wait"},
    "d16": {"fa-atten-mask-shape"},
    "d17": {"shape-per-rank-dim-mismatch"},
    "crash_one_rank": {"shape-matmul-operands"},
    "divergent_monitored_barrier": {"hccl-branch-divergence"},
    "killed_rank": {"rank-segfault"},
    "healthy": set(),
}


def corpus_bundles() -> list[tuple[str, object, dict]]:
    cases = [(d.name, d, d / "truth.json") for d in sorted((CORPUS / "cases").glob("d*"))]
    torch = [
        (b.name.removesuffix(".tar.gz"), b, b.with_name(b.name.replace(".tar.gz", ".truth.json")))
        for b in sorted((CORPUS / "torch").glob("*.tar.gz"))
    ]
    return [(name, path, json.loads(truth.read_text())) for name, path, truth in cases + torch]


@pytest.mark.parametrize(
    ("name", "bundle", "truth"), corpus_bundles(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_corpus_report_walks_to_the_right_category_and_case(name, bundle, truth):
    from analyzers import AnalyzeOptions, analyze

    report = analyze(bundle, AnalyzeOptions(workers=1))
    diagnosis = report.diagnosis
    assert diagnosis.tree_path == [s.node for s in diagnosis.tree_steps]
    assert diagnosis.tree_path[0] == "start"
    allowed = {truth["category"], *truth.get("category_also", [])}
    assert path_category(diagnosis.tree_path) in allowed
    top3 = {match.id for match in report.cases[:3]}
    assert top3 & RELEVANT_CASES[name] or not RELEVANT_CASES[name]
    if truth["category"] == "healthy":
        assert report.cases == []


def test_odd_fact_values_are_ignored_not_fatal():
    odd = scan(
        "junk.txt",
        FileKind.OTHER,
        elastic_failures=["not a record", {"exitcode": "n/a"}],
        npu_smi={"devices": [{"hbm_used_mb": "?", "aicore_pct": None}, "row"], "processes": []},
        host={"cpu_percent": {"12": "high"}},
    )
    got = facts_from(Diagnosis(category="hang"), Correlation([], Timeline(), 2), [odd])
    assert got.exits == ()
    assert got.cpu_busy is None
    assert got.npu.hbm_uneven is None
