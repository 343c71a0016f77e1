"""An add-on's custom operator package that its loader cannot find is the installation, not
the op; a TBE op implementation's own check that stops its kernel build is the op's failure,
read from the check's dict, with the graph engine's `Failed to compile Op` line restating it.

docs/labelling.md#operator-installation-or-platform-limit
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# The add-on's loader looks for its package before the first op runs and does not find it;
# torch_npu's summary after it only restates the failure.
CUSTOM_OPP_NOT_FOUND = """\
Traceback (most recent call last):
  File "/srv/train/run_pretrain.py", line 12, in <module>
    import rms_ext
  File "/opt/venv/lib/python3.10/site-packages/rms_ext/__init__.py", line 9, in <module>
    _opp.ensure_loaded()
  File "/opt/venv/lib/python3.10/site-packages/rms_ext/_opp.py", line 41, in ensure_loaded
    raise FileNotFoundError(
FileNotFoundError: Unable to find RMS custom OPP. Expected /opt/venv/lib/python3.10/site-packages/rms_ext/opp/vendors/rms_ext. If it was installed on its own, source its set_env.bash or set RMS_OPP_PATH.
[ERROR] 2026-10-02-08:11:12 (PID:5120, Device:-1, RankID:-1) ERR9999 UNKNOWN applicaiton exception
"""

# Counterexample: the loader found the package; the op that then runs rejects its input and
# keeps the op's own reading.
CUSTOM_OPP_FOUND_THEN_OP_FAILS = """\
INFO 10-02 08:11:10 [loader.py:30] Found custom OPP at /opt/venv/lib/python3.10/site-packages/rms_ext/opp/vendors/rms_ext
RuntimeError: call aclnnRmsNormExt failed, detail:EZ1001: [PID: 5120] 2026-10-02-08:11:12.101.112 The dim of gamma should be 1, but got 2.
"""

# The TIK checker stops a built-in op's kernel build; the graph engine's record of the failed
# compile, printed without its code inside the block, comes first and restates it.
TBE_CHECK_UNDER_UNCODED_COMPILE_LINE = """\
[rank0]:         Failed to compile Op [GatherV2,[GatherV2,GatherV2]]. (oppath: [Compile /opt/cann/9.0/opp/built-in/op_impl/ai_core/tbe/impl/gather_v2_d.py failed with errormsg/stack: File "/opt/cann/9.0/python/site-packages/tbe/tik/tik_lib/tik_check_util.py", line 324, in print_error_msg
[rank0]:     raise RuntimeError(dict_arg)
[rank0]: RuntimeError: {'errCode': 'EA0000', 'message': 'dst tensor overflow, dst need 64 elements, but only 48
[rank0]: File path: /opt/cann/9.0/opp/built-in/op_impl/ai_core/tbe/impl/gather_v2_d.py, line 412
"""

# Only the TraceBack lines of a compile block were kept, with no code and no reason: the
# uncoded `Failed to compile Op` line is the op's failed build itself, read like the build
# headlines, with an incomplete toolkit beside it.
UNCODED_COMPILE_LINE_ALONE = """\
worker-1  |         TraceBack (most recent call last):
worker-1  |         Failed to compile Op [/decoder/layers.0/attn/Slice_4]. (optype: [StridedSliceD])
"""


def test_a_custom_operator_package_its_loader_cannot_find_is_the_installation() -> None:
    diagnosis = diagnose_text("job/train.log", CUSTOM_OPP_NOT_FOUND)
    assert_reads(
        diagnosis, "driver_env", first_error="Unable to find RMS custom OPP", beside=("config",)
    )


def test_a_custom_operator_package_that_was_found_leaves_the_op_failure_alone() -> None:
    diagnosis = diagnose_text("job/train.log", CUSTOM_OPP_FOUND_THEN_OP_FAILS)
    assert_reads(diagnosis, "operator", first_error="aclnnRmsNormExt")


def test_a_tbe_check_that_stops_a_kernel_build_is_the_first_error() -> None:
    diagnosis = diagnose_text("job/rank0.log", TBE_CHECK_UNDER_UNCODED_COMPILE_LINE)
    assert_reads(diagnosis, "operator", first_error="dst tensor overflow")


def test_an_uncoded_compile_line_alone_is_the_ops_failed_build() -> None:
    diagnosis = diagnose_text("compose.log", UNCODED_COMPILE_LINE_ALONE)
    assert_reads(
        diagnosis, "operator", first_error="Failed to compile Op [/decoder/layers.0/attn/Slice_4]"
    )
    # read by the build rule, not guessed from its words: the toolkit is offered beside it
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}
