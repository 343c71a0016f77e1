"""An extension built against headers that do not fit: the releases, not the machine or the kernel.

docs/labelling.md#an-extension-built-against-headers-that-do-not-fit: an extension build that
cannot find torch's or torch_npu's own headers runs without the framework package (`config`,
not the toolkit reading of a missing header), and code built against CANN that uses an ACL or
HCCL name the installed CANN headers do not declare pairs two releases that do not fit
(`config`). A missing CANN header and a compile error on the code's own names keep their
readings. Values are our own, in the compilers' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

FRAMEWORK_HEADER_MISSING = """\
  [ 40%] Building CXX object CMakeFiles/npu_ops_C.dir/csrc/bindings.cpp.o
  /src/npu_ops/csrc/bindings.cpp:9:10: fatal error: torch_npu/csrc/framework/OpCommand.h: No such file or directory
      9 | #include <torch_npu/csrc/framework/OpCommand.h>
        |          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  compilation terminated.
  gmake[2]: *** [CMakeFiles/npu_ops_C.dir/build.make:76: CMakeFiles/npu_ops_C.dir/csrc/bindings.cpp.o] Error 1
  gmake[1]: *** [CMakeFiles/Makefile2:120: CMakeFiles/npu_ops_C.dir/all] Error 2
  error: subprocess-exited-with-error
"""

# Counterexample: a CANN header is what is missing; the toolkit reading stays.
TOOLKIT_HEADER_MISSING = """\
  /src/npu_ops/csrc/stream_guard.cpp:5:10: fatal error: acl/acl_base.h: No such file or directory
  compilation terminated.
  gmake[2]: *** [CMakeFiles/npu_ops_C.dir/build.make:90: CMakeFiles/npu_ops_C.dir/csrc/stream_guard.cpp.o] Error 1
"""

CANN_NAME_UNDECLARED = """\
(Worker_TP2 pid=5120) ERROR 03-04 05:06:07 [worker.py:300] RuntimeError: Failed to compile /tmp/tmpq1w2e3r4/launcher_cxx11abi1.cxx, error: In file included from <built-in>:1:
(Worker_TP2 pid=5120) ERROR 03-04 05:06:07 [worker.py:300] In file included from /opt/py/site-packages/torch_npu/include/torch_npu/csrc/framework/OpCommand.h:5:
(Worker_TP2 pid=5120) ERROR 03-04 05:06:07 [worker.py:300] /opt/py/site-packages/torch_npu/include/torch_npu/csrc/core/npu/interface/AclInterface.h:88:30: error: use of undeclared identifier 'aclrtStreamAttrValue'
(Worker_TP2 pid=5120) ERROR 03-04 05:06:07 [worker.py:300]    88 | aclError AclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttrValue *value);
"""

GCC_CANN_NAME_UNDECLARED = """\
  /src/npu_ops/csrc/comm_bindings.cpp:41:5: error: 'HcclCommInitClusterInfoConfig' was not declared in this scope
     41 |     HcclCommInitClusterInfoConfig(path, rank, &config, &comm);
        |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  gmake[2]: *** [CMakeFiles/npu_ops_C.dir/build.make:104: CMakeFiles/npu_ops_C.dir/csrc/comm_bindings.cpp.o] Error 1
"""

# Counterexample: the kernel's own variable is undeclared; the kernel source does not compile.
OWN_NAME_UNDECLARED = """\
/src/npu_ops/csrc/kernels/add_custom.cpp:58:12: error: use of undeclared identifier 'tileLength'
    for (int32_t i = 0; i < tileLength; ++i) {
                            ^
1 error generated.
gmake[2]: *** [CMakeFiles/kernels.dir/build.make:70: CMakeFiles/kernels.dir/add_custom.cpp.o] Error 1
"""


def test_missing_framework_headers_are_the_build_environment() -> None:
    diagnosis = diagnose_text("pip_install.log", FRAMEWORK_HEADER_MISSING)
    assert_reads(
        diagnosis,
        "config",
        first_error="OpCommand.h: No such file or directory",
        rule="cfg.extension_framework_header_missing",
        beside=("driver_env",),
    )


def test_a_missing_toolkit_header_keeps_the_toolkit_reading() -> None:
    diagnosis = diagnose_text("pip_install.log", TOOLKIT_HEADER_MISSING)
    assert diagnosis.category == "driver_env"
    assert "cfg.extension_framework_header_missing" not in rules_of(diagnosis)


def test_a_cann_name_the_headers_do_not_declare_is_a_release_mismatch() -> None:
    diagnosis = diagnose_text("serve.log", CANN_NAME_UNDECLARED)
    assert diagnosis.category == "config"
    assert "cfg.cann_name_undeclared_in_build" in rules_of(diagnosis)
    # The launcher's RuntimeError quotes the compiler's output as its own message, so the
    # exception that carries the compiler's line is where the first error is cited.
    assert diagnosis.first_error is not None
    assert "launcher_cxx11abi1.cxx" in diagnosis.first_error.text
    alternatives = {alt.category for alt in diagnosis.alternatives}
    assert {"driver_env", "operator"} & alternatives


def test_gcc_wording_of_an_undeclared_cann_name_reads_the_same() -> None:
    diagnosis = diagnose_text("pip_install.log", GCC_CANN_NAME_UNDECLARED)
    assert_reads(
        diagnosis, "config", first_error="'HcclCommInitClusterInfoConfig' was not declared"
    )


def test_an_undeclared_name_of_the_kernel_itself_stays_the_kernel_source() -> None:
    diagnosis = diagnose_text("build.log", OWN_NAME_UNDECLARED)
    assert diagnosis.category == "operator"
    assert "cfg.cann_name_undeclared_in_build" not in rules_of(diagnosis)
