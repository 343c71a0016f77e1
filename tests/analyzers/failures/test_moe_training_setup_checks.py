"""Mixture-of-experts training jobs that stop at a check before or around the expert kernels.

Three classes, each read by an existing rule that knew only a neighbouring wording:

- docs/labelling.md#a-compiled-binding-that-refuses-its-arguments: a class exposed by a
  compiled binding refuses its constructor's arguments (`TypeError: __init__(): incompatible
  constructor arguments`), as when a training framework builds torch's process-group object
  with another torch release's arguments: `config`, with `other` beside it.
- docs/labelling.md#a-kernel-tile-that-the-split-dimension-does-not-fill: torch's grouped
  matmuls refuse operands whose strides miss the alignment the kernel needs (`strides should be
  multiple of 16 bytes`): the kernel's limit, `op_constraint`, with `operator` and `config`.
- docs/labelling.md#a-ranks-device-placement: an extension that checks its CUDA calls in the
  CUDA samples' format reports an invalid device index (`code=101(cudaErrorInvalidDevice)`):
  the placement, `config`, with `driver_env` beside it.

Values and paths of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

EXPERT_GROUPS_ON_ANOTHER_TORCH = """\
2: [rank9]: Traceback (most recent call last):
2: [rank9]:   File "/work/megatron/core/parallel_state.py", line 690, in initialize_model_parallel
2: [rank9]:     group = torch.distributed.new_group(
2: [rank9]:   File "/opt/envs/moe/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1512, in _new_process_group_helper
2: [rank9]:     pg: ProcessGroup = ProcessGroup(prefix_store, group_rank, group_size, base_pg_options)
2: [rank9]: TypeError: __init__(): incompatible constructor arguments. The following argument types are supported:
2: [rank9]:     1. torch._C._distributed_c10d.ProcessGroup(arg0: int, arg1: int)
2: [rank9]: Invoked with: <torch.distributed.distributed_c10d.PrefixStore object at 0x7f2a>, 1, 8, <ProcessGroup.Options>
"""


def test_a_binding_that_refuses_its_constructor_arguments_is_releases_that_do_not_fit() -> None:
    diagnosis = diagnose_files({"slurm-4411.out": EXPERT_GROUPS_ON_ANOTHER_TORCH})
    assert_reads(
        diagnosis,
        "config",
        first_error="incompatible constructor arguments",
        rule="cfg.binding_argument_types_refused",
        beside=("other",),
    )


def test_a_python_constructor_given_too_many_arguments_is_not_a_binding() -> None:
    diagnosis = diagnose_text(
        "train.log", "TypeError: __init__() takes 2 positional arguments but 3 were given\n"
    )
    assert "cfg.binding_argument_types_refused" not in rules_of(diagnosis)


GROUPED_GEMM_UNALIGNED = """\
[rank2]:[titan] 2026-03-02 08:14:20,101 - root - INFO - routed tokens this step: 9731
[rank2]: Traceback (most recent call last):
[rank2]:   File "/work/titan/models/moe/experts.py", line 212, in _run_grouped
[rank2]:     out = torch._scaled_grouped_mm(x_fp8, w_fp8, scale_a, scale_b, offs=offsets)
[rank2]: RuntimeError: strides should be multiple of 16 bytes
"""


def test_a_grouped_gemm_stride_alignment_check_is_the_kernels_limit() -> None:
    diagnosis = diagnose_files({"rank2.log": GROUPED_GEMM_UNALIGNED})
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="multiple of 16 bytes",
        rule="opc.low_precision_block_divisibility",
    )
    assert {"operator", "config"} <= {a.category for a in diagnosis.alternatives}


def test_a_note_about_padding_to_the_alignment_is_no_error() -> None:
    diagnosis = diagnose_text(
        "rank0.log",
        "INFO - token groups padded so that grouped GEMM strides are a multiple of 16 bytes\n",
    )
    assert "opc.low_precision_block_divisibility" not in rules_of(diagnosis)


def test_an_extensions_invalid_device_code_in_the_samples_format_is_the_placement() -> None:
    diagnosis = diagnose_text(
        "moe_worker.log",
        "CUDA error at /opt/moe_ext/csrc/comm_manager.cpp:48 code=101(cudaErrorInvalidDevice) "
        '"cudaSetDevice(device)"\n',
    )
    assert_reads(
        diagnosis,
        "config",
        first_error="cudaErrorInvalidDevice",
        rule="cfg.rank_device_placement",
        beside=("driver_env",),
    )


def test_another_code_in_the_samples_format_is_not_a_placement() -> None:
    diagnosis = diagnose_text(
        "moe_worker.log",
        "CUDA error at /opt/moe_ext/csrc/kernels.cu:77 code=98(cudaErrorInvalidDeviceFunction) "
        '"cudaLaunchKernel(...)"\n',
    )
    assert "cfg.rank_device_placement" not in rules_of(diagnosis)
