"""torch_npu summary codes whose module decides the label, and GNU ld missing-library lines.

torch_npu ends an exception with '[ERROR] <time> (PID:.., Device:.., RankID:..) ERR<mm><kkk>
<MODULE> <kind>'. For the operator module (01) an invalid argument type or an op the NPU
backend lacks is an operator failure; for the distributed module (02) an invalid argument type
is a collective given a tensor it cannot send. A C++ build that links against torch / CANN
fails when ld cannot locate a shared library: a machine-setup problem. Fixtures are written
here in those shapes with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

OPS_UNSUPPORTED = """\
[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::cholesky_solve.out' is not currently supported on the NPU backend and will fall back to run on the CPU. This may have performance implications. (function npu_cpu_fallback)
Traceback (most recent call last):
  File "solve.py", line 9, in <module>
    x = torch.cholesky_solve(b.npu(), u.npu())
RuntimeError: _copy_from_and_resize now only support copy with same size!
[ERROR] 2026-04-02-10:21:33 (PID:4410, Device:0, RankID:-1) ERR01007 OPS feature not supported
"""

OPS_BAD_TYPE = """\
Traceback (most recent call last):
  File "infer.py", line 31, in forward
    y = torch.mul(scale, feats.npu())
RuntimeError: Expected all tensors to be on the same device. Expected NPU tensor, please check whether the input tensor device is correct.
[ERROR] 2026-04-02-10:25:07 (PID:4488, Device:3, RankID:-1) ERR01002 OPS invalid type
"""

DIST_BAD_TYPE = """\
Traceback (most recent call last):
  File "sync_grads.py", line 44, in reduce_grads
    dist.all_reduce(grad.t())
  File "/opt/py/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2301, in all_reduce
    work = group.allreduce([tensor], opts)
RuntimeError: Tensors must be contiguous
[ERROR] 2026-04-02-10:30:51 (PID:5120, Device:1, RankID:1) ERR02002 DIST invalid type
"""

LINK_MISSING = """\
[ 96%] Building CXX object CMakeFiles/demo_infer.dir/main.cpp.o
[100%] Linking CXX executable demo_infer
/usr/bin/ld: warning: libquadmath-3f2e1d0c.so.0.0.0, needed by /opt/py/lib/python3.10/site-packages/torch/lib/../../torch.libs/libopenblasp-r0-1a2b3c4d.3.21.so, not found (try using -rpath or -rpath-link)
/usr/bin/ld: /opt/py/lib/python3.10/site-packages/torch/lib/../../torch.libs/libopenblasp-r0-1a2b3c4d.3.21.so: undefined reference to `quadmath_snprintf@QUADMATH_1.0'
collect2: error: ld returned 1 exit status
make[2]: *** [CMakeFiles/demo_infer.dir/build.make:97: demo_infer] Error 1
make: *** [Makefile:84: all] Error 2
"""


def test_ops_feature_not_supported_is_an_operator_failure():
    diagnosis = diagnose_text("console.log", OPS_UNSUPPORTED)
    assert_reads(diagnosis, "operator", first_error="_copy_from_and_resize")


def test_ops_invalid_type_is_an_operator_failure():
    diagnosis = diagnose_text("console.log", OPS_BAD_TYPE)
    assert_reads(diagnosis, "operator", first_error="same device")


def test_dist_invalid_type_is_a_collective_failure():
    diagnosis = diagnose_text("rank1.log", DIST_BAD_TYPE)
    assert_reads(diagnosis, "hccl", first_error="Tensors must be contiguous")


def test_linker_missing_library_is_machine_setup():
    diagnosis = diagnose_text("build.log", LINK_MISSING)
    assert_reads(diagnosis, "driver_env", first_error="needed by")


def test_linker_warning_that_names_no_missing_library_is_not_a_failure():
    text = "/usr/bin/ld: warning: creating DT_TEXTREL in a PIE\n[100%] Built target demo_infer\n"
    diagnosis = diagnose_text("build.log", text)
    assert diagnosis.category != "driver_env"
