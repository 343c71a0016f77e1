"""Records that ROCm's kernel libraries write in their own words before torch re-raises.

docs/labelling.md#a-rocm-kernel-library-that-records-its-own-failure: MIOpen writes a call it
will not run as `MIOpen Error: <file>:<line>: <reason>` and torch raises only the status
afterwards (`miopenStatusUnknownError`); a convolution whose parameters no solver accepts is
the operator, a kernel MIOpen cannot compile for the card (its comgr step refusing the ISA,
`Code object build failed`) is the machine's toolchain. rocBLAS and hipBLASLt that cannot read
their Tensile kernel table stop every GEMM that follows: the installation, ahead of the
`HIPBLAS_STATUS_*` call failure torch reports next.

Fixtures are written in the shape of the libraries' stderr lines, with paths and numbers of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

CONV_REFUSED = """\
Epoch 3/40 step 120
MIOpen(HIP): Warning [FindWinogradSolutions] /src/MIOpen/src/sqlite_db.cpp:108: open memvfs: unable to open database file
MIOpen Error: /src/MIOpen/src/ocl/convolutionocl.cpp:612: Forward Convolution cannot be executed due to incorrect params
Traceback (most recent call last):
  File "/work/exp/train.py", line 88, in <module>
    out = net(batch)
RuntimeError: miopenStatusUnknownError
"""


def test_a_convolution_miopen_refuses_is_the_operator() -> None:
    diagnosis = diagnose_text("slurm-4411.out", CONV_REFUSED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Forward Convolution cannot be executed",
        beside=("driver_env",),
    )


def test_a_quoted_refusal_without_the_source_path_reads_the_same() -> None:
    text = "> MIOpen Error: convolutionocl.cpp:455: Backward Weights Convolution cannot be executed due to incorrect params\n"
    diagnosis = diagnose_text("rank0.log", text)
    assert_reads(diagnosis, "operator", first_error="Backward Weights Convolution")


def test_miopens_database_warnings_are_no_failure() -> None:
    text = (
        "MIOpen(HIP): Warning [SQLiteBase] Unable to read system database file:/opt/rocm/share/miopen/db/gfx90a68.kdb Performance may degrade\n"
        "MIOpen(HIP): Warning [ForwardBackwardDataGetWorkSpaceSizeWinograd] /src/MIOpen/src/sqlite_db.cpp:108: open memvfs: unable to open database file\n"
        "epoch 1 done\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None


KERNEL_BUILD_FAILED = """\
MIOpen(HIP): Error [SetIsaName] 'amd_comgr_action_info_set_isa_name(handle, isa.c_str())' amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-: INVALID_ARGUMENT (2)
MIOpen(HIP): Error [BuildOcl] comgr status = INVALID_ARGUMENT (2)
MIOpen(HIP): Warning [BuildOcl] amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-
MIOpen Error: /src/MIOpen/src/hipoc/hipoc_program.cpp:300: Code object build failed. Source: MIOpenCol2Im2d.cl
Traceback (most recent call last):
  File "bench.py", line 12, in <module>
RuntimeError: miopenStatusUnknownError
"""


def test_a_kernel_miopen_cannot_build_for_the_card_is_the_toolchain() -> None:
    diagnosis = diagnose_text("bench.log", KERNEL_BUILD_FAILED)
    assert_reads(diagnosis, "driver_env", first_error="amd_comgr_action_info_set_isa_name")


def test_the_build_failure_alone_reads_the_same() -> None:
    text = "MIOpen Error: /src/MIOpen/src/hipoc/hipoc_program.cpp:300: Code object build failed. Source: MIOpenCol2Im2d.cl\n"
    diagnosis = diagnose_text("bench.log", text)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert diagnosis.first_error is not None


TENSILE_UNREADABLE = """\
rocblaslt error: Cannot read "TensileLibrary_lazy_gfx1030.dat": No such file or directory
rocblaslt error: Could not load "TensileLibrary_lazy_gfx1030.dat"
[rank0]: RuntimeError: CUDA error: HIPBLAS_STATUS_INVALID_VALUE when calling `hipblasLtMatmulAlgoGetHeuristic(handle, op_desc, a_desc, b_desc, c_desc, d_desc, pref, 1, &result, &count)`
"""


def test_a_kernel_table_the_blas_library_cannot_read_is_the_installation() -> None:
    diagnosis = diagnose_text("infer.log", TENSILE_UNREADABLE)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert 'Cannot read "TensileLibrary_lazy_gfx1030.dat"' in diagnosis.first_error.text
    assert "operator" in alternative_labels(diagnosis)


def test_rocblas_spelling_reads_the_same() -> None:
    text = (
        "rocBLAS error: Cannot read /opt/rocm-6.0.2/lib/rocblas/library/TensileLibrary.dat: No such file or directory\n"
        "Aborted (core dumped)\n"
    )
    diagnosis = diagnose_text("run.log", text)
    assert_reads(diagnosis, "driver_env", first_error="TensileLibrary.dat")
    assert diagnosis.confidence >= 0.5


def test_a_loaded_kernel_table_is_no_failure() -> None:
    text = "rocblaslt info: loaded TensileLibrary_lazy_gfx942.dat from /opt/rocm/lib/hipblaslt/library\nstep 1 ok\n"
    diagnosis = diagnose_text("run.log", text)
    assert diagnosis.first_error is None


# docs/labelling.md#a-composable-kernel-instance-that-does-not-cover-the-problem: a CK device
# op checks the problem against what its compiled instance covers before it launches, and
# refuses with the instance's full name. Values are our own.
CK_INSTANCE_REFUSES = """\
  File "/opt/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 51, in _flash_attn_forward
    out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(
RuntimeError: DeviceBatchedGemmSoftmaxGemm_Xdl_CShuffle<256, 64, 128, 32, 8, 8, 64, 64, 32, 2, Default, MaskDisabled> does not support this problem
"""

CK_OLDER_GEMM_WORDING = """\
terminate called after throwing an instance of 'std::runtime_error'
  what():  wrong! device_gemm with the specified compilation parameters does not support this GEMM problem
"""

CK_NOTE = """\
INFO instance DeviceGemmXdl<128, 64> skipped: does not support this problem size, trying the next one
"""


def test_a_ck_instance_that_does_not_cover_the_problem_is_its_limit() -> None:
    diagnosis = diagnose_text("train.log", CK_INSTANCE_REFUSES)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="does not support this problem",
        rule="opc.ck_instance_unsupported_problem",
        beside=("operator",),
    )


def test_the_older_gemm_wording_reads_the_same() -> None:
    diagnosis = diagnose_text("run.log", CK_OLDER_GEMM_WORDING)
    assert_reads(diagnosis, "op_constraint", first_error="does not support this GEMM problem")


def test_an_instance_the_library_skipped_for_another_is_no_failure() -> None:
    diagnosis = diagnose_text("run.log", CK_NOTE)
    assert "opc.ck_instance_unsupported_problem" not in rules_of(diagnosis)
