"""A GPU op that the platform does not offer is a platform limit, not the op's inputs.

torch's grouped GEMM, which MoE experts run through, raised on ROCm builds that lacked it
(`grouped gemm is not supported on ROCM`) and asks for a compute capability on CUDA. The call
is right and the GPU or build lacks the op: `config`, with `operator` beside it, like a chip
whose SoC lacks an op type. docs/labelling.md#operator-installation-or-platform-limit. Values
of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

TORCHRUN_SUMMARY = """\
E0311 09:02:17.440000 88120 site-packages/torch/distributed/elastic/multiprocessing/api.py:880] failed (exitcode: 1) local_rank: 0 (pid: 88131) of binary: /opt/venv/bin/python3
Traceback (most recent call last):
  File "/opt/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
    File "/work/moe/model/experts.py", line 88, in _grouped_forward
      h = torch._grouped_mm(x, w1, offs=offsets)
  RuntimeError: grouped gemm is not supported on ROCM
"""


def test_grouped_gemm_missing_on_rocm_is_the_platform() -> None:
    diagnosis = diagnose_files({"torchrun.log": TORCHRUN_SUMMARY})
    assert_reads(
        diagnosis,
        "config",
        first_error="grouped gemm is not supported on ROCM",
        rule="cfg.gpu_platform_op_unsupported",
        beside=("operator",),
    )


def test_a_compute_capability_the_card_lacks_is_the_platform_too() -> None:
    diagnosis = diagnose_text(
        "rank0.log",
        "[rank0]: RuntimeError: torch._grouped_mm is only supported on CUDA devices with "
        "compute capability = 9.0\n",
    )
    assert diagnosis.category == "config"
    assert "cfg.gpu_platform_op_unsupported" in rules_of(diagnosis)


def test_a_fallback_the_library_logs_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "rank0.log",
        "WARNING: grouped gemm is not supported on ROCM, looping over the experts instead\n",
    )
    assert "cfg.gpu_platform_op_unsupported" not in rules_of(diagnosis)
