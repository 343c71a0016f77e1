"""Neighbouring labels decided the same way every time.

docs/labelling.md#config-driver_env-or-weight_load and
docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

STEPS = "".join(f"2026-03-01 10:00:{i:02d} INFO layer {i} passed\n" for i in range(4))

NOTIFY_TIMEOUT = (
    "EI0002: [PID: {pid}] 2026-03-01-10:30:04.070.578 The wait execution of the Notify "
    "register times out. Reason: The Notify register has not received the Notify record "
    "from remote rank: [unknown].\n"
)


def test_a_stall_that_ends_in_a_notify_timeout_is_hccl_with_hang_as_the_alternative() -> None:
    diagnosis = diagnose_files(
        {
            "job/rank0.log": STEPS + NOTIFY_TIMEOUT.format(pid=100),
            "job/rank1.log": STEPS + NOTIFY_TIMEOUT.format(pid=101),
        }
    )
    assert_reads(diagnosis, "hccl", first_error="Notify register times out", beside=("hang",))


def test_a_stall_without_any_error_line_is_a_hang() -> None:
    diagnosis = diagnose_files({"job/rank0.log": STEPS, "job/rank1.log": STEPS[:80]})
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is None


def test_a_peer_crash_explains_the_timeouts_of_the_others() -> None:
    diagnosis = diagnose_files(
        {
            "job/rank0.log": STEPS + NOTIFY_TIMEOUT.format(pid=100),
            "job/rank1.log": STEPS[:80]
            + "2026-03-01 10:00:02 ERROR RuntimeError: NPU out of memory. Tried to allocate "
            "2.00 GiB (NPU 1; 60.00 GiB total capacity; 58.10 GiB already allocated)\n",
        }
    )
    assert diagnosis.category == "oom"
    assert diagnosis.culprit_ranks == [1]


CASES = [
    # (name, line, label): the loader's check, the job's settings, the machine
    (
        "split while loading",
        "ValueError: start (4096) + length (1024) exceeds dimension size (4608) for "
        "model.layers.3.mlp.down_proj.weight",
        "weight_load",
    ),
    (
        "missing config field",
        "AttributeError: 'Qwen3Config' object has no attribute 'rope_scaling_type'",
        "config",
    ),
    (
        "chip lacks feature",
        "RuntimeError: SetStreamResLimit:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:311 "
        "NPU function error: aclrtSetStreamResLimit(stream, 0, 4), error code is 207000",
        "config",
    ),
    (
        "runtime library missing",
        "ImportError: libascend_hal.so: cannot open shared object file: No such file or directory",
        "driver_env",
    ),
    ("firmware mismatch", "RuntimeError: Firmware version incompatible (600001)", "driver_env"),
]


@pytest.mark.parametrize(("line", "label"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_layer_that_must_change_names_the_label(line: str, label: str) -> None:
    diagnosis = diagnose_text("job/rank0.log", line + "\n")
    assert diagnosis.category == label


def test_feature_not_supported_is_never_read_as_memory() -> None:
    diagnosis = diagnose_text("job/rank0.log", CASES[2][1] + "\n")
    assert diagnosis.category != "oom"
    assert "oom" not in alternative_labels(diagnosis)


# docs/labelling.md#operator-installation-or-platform-limit
DTYPE_REFUSED = (
    "RuntimeError: call aclnnCast failed, detail:EZ1001: The param dtype not implemented for "
    "DT_BFLOAT16, should be in dtype support list [DT_FLOAT16,DT_FLOAT,DT_INT32,DT_BOOL,].\n"
)
ARGUMENT_REFUSED = (
    "[PID: 7301] 2026-05-02-11:20:41.318.604 AclNN_Parameter_Error(EZ1001): The dim of input "
    "x should be 2 or 3, but got 4.\n"
)


def test_an_op_without_a_kernel_for_the_dtype_offers_the_setting_as_the_alternative() -> None:
    diagnosis = diagnose_text("job/rank0.log", DTYPE_REFUSED)
    assert_reads(diagnosis, "operator", first_error="DT_BFLOAT16")
    config = next(alt for alt in diagnosis.alternatives if alt.category == "config")
    assert 0 < config.score < diagnosis.confidence


def test_a_host_check_that_names_no_dtype_offers_no_setting() -> None:
    diagnosis = diagnose_text("job/rank0.log", ARGUMENT_REFUSED)
    assert diagnosis.category == "operator"
    assert "config" not in alternative_labels(diagnosis)


# docs/labelling.md#shape-inference-that-finds-the-inputs-disagree
SHAPES_REFUSED = (
    "RuntimeError: call aclnnBatchMatMul failed, detail:EZ1001: 2026-02-03-04:05:06.070.809 "
    "Input tensor's shape[[4,32,128]] should be same with output's shape[[2,32,128]].\n"
    "        TraceBack (most recent call last):\n"
    "        Params check failed.\n"
)
LENGTHS_REFUSED = (
    "RuntimeError: call aclnnFusedInferAttentionScore failed, detail:EZ1001: queryT(16) must "
    "be equal to the last element of actualSequenceLengthQ(12)\n"
)


def test_an_aclnn_check_naming_two_shapes_offers_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("job/rank0.log", SHAPES_REFUSED)
    assert_reads(diagnosis, "operator", first_error="shape[[4,32,128]]")
    shapes = next(alt for alt in diagnosis.alternatives if alt.category == "shape_mismatch")
    assert 0 < shapes.score < diagnosis.confidence


def test_an_aclnn_check_that_gives_no_shapes_offers_none() -> None:
    diagnosis = diagnose_text("job/rank0.log", LENGTHS_REFUSED)
    assert diagnosis.category == "operator"
    assert "shape_mismatch" not in alternative_labels(diagnosis)


def test_a_batched_product_whose_operands_disagree_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_files(
        {
            "job/rank0.log": STEPS
            + "[rank0]: RuntimeError: Connection closed by peer [10.0.0.5]:29500\n",
            "job/rank1.log": STEPS[:80] + '  File "/srv/model/attn.py", line 77, in forward\n'
            "    scores = torch.bmm(q, k.transpose(1, 2))\n"
            "[rank1]: RuntimeError: Expected size for first two dimensions of batch2 tensor "
            "to be: [24, 512] but got: [24, 384].\n",
        }
    )
    assert_reads(diagnosis, "shape_mismatch", first_error="first two dimensions of batch2")


def test_a_batched_product_on_two_devices_is_not_a_shape_mismatch() -> None:
    diagnosis = diagnose_text(
        "job/rank0.log",
        "RuntimeError: Expected all tensors to be on the same device, but found at least two "
        "devices, npu:3 and cpu! (when checking argument for argument batch2 in method "
        "wrapper__bmm)\n",
    )
    assert diagnosis.category == "config"
