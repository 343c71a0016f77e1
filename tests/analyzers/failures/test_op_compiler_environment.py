"""torch_npu cannot set the operator compiler's options when it starts a device.

docs/labelling.md#the-operator-compilers-environment-does-not-start: 500001 from the compile
options means the compiler's Python side did not start. Missing toolkit dependencies are the
usual reason (driver_env); a package at a version the toolkit does not take fails the same way,
so config is shown next to it. Fixtures are written in the torch_npu format with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

COMPILE_OPTIONS_REFUSED = """\
>>> torch.npu.set_device(0)
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
  File "/opt/venv/lib/python3.10/site-packages/torch_npu/npu/utils.py", line 64, in set_device
    torch_npu._C._npu_setDevice(device_id)
RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001
[ERROR] 2026-06-03-09:12:44 (PID:30177, Device:0, RankID:-1) ERR00100 PTA call acl api failed
[Error]: The internal ACL of the system is incorrect.
        Rectify the fault based on the error information in the ascend log.
"""

# A serving engine's log of the same refusal, with CANN's error block under it naming the step
# that failed: the chip's platform info could not be set up.
COMPILE_OPTIONS_WITH_BLOCK = """\
ERROR 02-14 08:31:05 [engine.py:311] SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001
ERROR 02-14 08:31:05 [engine.py:311] [ERROR] 2026-02-14-08:31:05 (PID:4410, Device:0, RankID:-1) ERR00100 PTA call acl api failed
ERROR 02-14 08:31:05 [engine.py:311] [Error]: The internal ACL of the system is incorrect.
ERROR 02-14 08:31:05 [engine.py:311] EH9999: Inner Error!
ERROR 02-14 08:31:05 [engine.py:311] EH9999: [PID: 4410] 2026-02-14-08:31:05.672.019 [Init][PlatformInfo]init runtime platform info failed, SocVersion = Ascend910B3[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]
ERROR 02-14 08:31:05 [engine.py:311]         TraceBack (most recent call last):
ERROR 02-14 08:31:05 [engine.py:311]        GELib::InnerInitialize failed.[FUNC:Initialize][FILE:gelib.cc][LINE:184]
"""

# The device management library refusing in a container is the machine alone.
DCMI_REFUSED = """\
root@node-3:/workspace# npu-smi info
DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)
dcmi module initialize failed. ret is -8005
"""


def test_refused_compile_options_are_the_machine_with_the_package_set_as_neighbour() -> None:
    diagnosis = diagnose_text("session.txt", COMPILE_OPTIONS_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="error code is 500001")
    config = next(alt for alt in diagnosis.alternatives if alt.category == "config")
    assert 0 < config.score < diagnosis.confidence


def test_the_block_under_the_compile_options_names_the_step_that_failed() -> None:
    """docs/labelling.md#the-operator-compilers-environment-does-not-start: the return code is
    the wrapper; the block line that names the failed start-up step is the first error. The
    refusal printed alone (above) keeps its own line as the first error."""
    diagnosis = diagnose_text("serve.log", COMPILE_OPTIONS_WITH_BLOCK)
    assert_reads(diagnosis, "driver_env", first_error="init runtime platform info failed")


def test_a_device_library_refusal_has_no_package_set_neighbour() -> None:
    diagnosis = diagnose_text("npu_smi.txt", DCMI_REFUSED)
    assert diagnosis.category == "driver_env"
    assert "config" not in {alt.category for alt in diagnosis.alternatives}


# The same compile-option call answered with a code that is no start-up failure: 107000 says
# a runtime call refused its parameters. docs/labelling.md#the-operator-compilers-environment-does-not-start
COMPILE_OPTION_REFUSED_PARAMETERS = """\
Traceback (most recent call last):
  File "/srv/bench/kernels/check_gemm.py", line 52, in <module>
    out = lhs @ rhs
RuntimeError: SetPrecisionMode:torch_npu/csrc/framework/LazyInitAclops.cpp:181 NPU function error: at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 107000
[ERROR] 2026-05-19-16:40:02 (PID:30211, Device:1, RankID:-1) ERR00100 PTA call acl api failed
"""


def test_a_compile_option_call_refused_for_its_parameters_is_no_environment_failure() -> None:
    """Counterexample: the code is read by its own meaning, not as a compiler that could not
    start."""
    diagnosis = diagnose_text("bench/run.log", COMPILE_OPTION_REFUSED_PARAMETERS)
    assert diagnosis.category != "driver_env"
    assert diagnosis.first_error is not None
    assert "error code is 107000" in diagnosis.first_error.text
    assert "107000" in diagnosis.error_codes
    assert "rejected its parameters" in diagnosis.root_cause


def test_a_graph_engine_failure_of_the_compile_option_call_is_the_environment() -> None:
    """Example: 500002 is a failure inside ACL's graph engine, one of the start-up codes."""
    text = COMPILE_OPTION_REFUSED_PARAMETERS.replace("is 107000", "is 500002")
    diagnosis = diagnose_text("bench/run.log", text)
    assert diagnosis.category == "driver_env"
    assert "SetPrecisionMode" in (diagnosis.first_error.text if diagnosis.first_error else "")


# The graph engine's start-up chain alone, under a headline that names nothing: each line says
# only that GE did not start. docs/labelling.md#the-operator-compilers-environment-does-not-start
GE_CHAIN_ALONE = """\
E19999: Inner Error!
        TraceBack (most recent call last):
        PluginManager InvokeAll failed.[FUNC:Initialize][FILE:ops_kernel_manager.cc][LINE:96]
        OpsManager initialize failed.[FUNC:InnerInitialize][FILE:gelib.cc][LINE:251]
        GELib::InnerInitialize failed.[FUNC:Initialize][FILE:gelib.cc][LINE:180]
"""

# The same chain in a plog, the graph engine's own lines.
GE_CHAIN_PLOG = """\
[ERROR] GE(51820,python3):2026-04-02-07:15:40.201.553 [gelib.cc:238]51820 InnerInitialize: ErrorNo: 1343250441(There is no valid so about OpsKernelInfoStore or GraphOptimizer.) [INIT][OPS_KER][Init][OpsManager]GE ops manager initial failed.
[ERROR] GE(51820,python3):2026-04-02-07:15:40.214.003 [gelib.cc:166]51820 Initialize: ErrorNo: 1343250441(There is no valid so about OpsKernelInfoStore or GraphOptimizer.) [INIT][OPS_KER][Init][GeLib]GeLib initial failed.
[ERROR] GE(51820,python3):2026-04-02-07:15:40.214.040 [ge_api.cc:284]51820 GEInitializeImpl: ErrorNo: 1343229953(GEInitialize Failed.) [INIT][OPS_KER][Init][GELib]Failed, error code = 1343250441
"""

# The chain under the reason that started it: the communication plugin refused an option.
GE_CHAIN_UNDER_HCCL_REFUSAL = """\
EI0003: 2026-04-02-07:15:38.118.402 In [HcomInitByFile], value [0] for parameter [rankTablePath] is invalid. Reason: The collective communication operator has an invalid argument. Reason[0]
        Solution: Try again with a valid argument.
        TraceBack (most recent call last):
        PluginManager InvokeAll failed.[FUNC:Initialize][FILE:ops_kernel_manager.cc][LINE:89]
        OpsManager initialize failed.[FUNC:InnerInitialize][FILE:gelib.cc][LINE:241]
        GELib::InnerInitialize failed.[FUNC:Initialize][FILE:gelib.cc][LINE:169]
        GEInitialize failed.[FUNC:GEInitialize][FILE:ge_api.cc][LINE:307]
"""

# A module the toolkit needs, then the chain.
GE_CHAIN_UNDER_MISSING_MODULE = """\
EC0010: Failed to import Python module [ModuleNotFoundError: No module named 'attr'.].
        Solution: Check that all required components are properly installed.
        TraceBack (most recent call last):
        [GraphOpt][InitializeInner][InitTeFusion]: Failed to initialize TeFusion.[FUNC:InitializeInner][FILE:tbe_op_store_adapter.cc][LINE:1783]
        OpsManager initialize failed.[FUNC:InnerInitialize][FILE:gelib.cc][LINE:249]
        GELib::InnerInitialize failed.[FUNC:Initialize][FILE:gelib.cc][LINE:177]
"""


def test_the_graph_engine_chain_alone_is_the_environment() -> None:
    diagnosis = diagnose_text("worker_0.log", GE_CHAIN_ALONE)
    assert_reads(
        diagnosis, "driver_env", first_error="OpsManager initialize failed", beside=("config",)
    )
    assert diagnosis.confidence < 0.8


def test_the_graph_engine_chain_in_a_plog_starts_at_its_innermost_line() -> None:
    diagnosis = diagnose_text("plog/plog-51820_20260402071540.log", GE_CHAIN_PLOG)
    assert_reads(diagnosis, "driver_env", first_error="GE ops manager initial failed")


def test_a_reason_printed_before_the_chain_decides() -> None:
    """Counterexample: the chain restates the communication plugin's refusal."""
    diagnosis = diagnose_text("worker_0.log", GE_CHAIN_UNDER_HCCL_REFUSAL)
    assert_reads(diagnosis, "hccl", first_error="rankTablePath")


def test_a_missing_toolkit_module_before_the_chain_is_the_first_error() -> None:
    diagnosis = diagnose_text("worker_0.log", GE_CHAIN_UNDER_MISSING_MODULE)
    assert_reads(diagnosis, "driver_env", first_error="Failed to import Python module")


# The compile-option refusal with the error block that says why the op compiler's Python side
# did not start: NumPy says the release installed removed an alias the toolkit still uses.
# docs/labelling.md#the-operator-compilers-environment-does-not-start
COMPILE_OPTIONS_UNDER_NUMPY_REMOVAL = """\
2026-01-09 11:20:05.470 | ERROR    | pdf_tool.cli:convert:88 - Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:217 NPU function error: at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001
[ERROR] 2026-01-09-11:20:05 (PID:412, Device:0, RankID:-1) ERR00100 PTA call acl api failed
[Error]: The internal ACL of the system is incorrect.
        Rectify the fault based on the error information in the ascend log.
EC0010: 2026-01-09-11:20:05.431.908 Failed to import Python module [AttributeError: `np.unicode_` was removed in the NumPy 2.0 release. Use `np.str_` instead..].
        Solution: Check that all required components are properly installed and the specified Python path matches the Python installation directory. (If the path does not match the directory, run set_env.sh in the installation package.)
        TraceBack (most recent call last):
        [GraphOpt][InitializeInner][InitTbeFunc] Failed to init tbe.[FUNC:InitializeInner][FILE:tbe_op_store_adapter.cc][LINE:1702]
        [SubGraphOpt][PreCompileOp][InitAdapter] InitializeAdapter adapter [tbe_op_adapter] failed! Ret [4294967295][FUNC:InitializeAdapter][FILE:op_store_adapter_manager.cc][LINE:79]
"""

# A job's own import of a compiled package built against another NumPy major release.
EXTENSION_UNDER_OTHER_NUMPY = """\
Traceback (most recent call last):
  File "/srv/jobs/detect/train.py", line 9, in <module>
    import geo_ops
  File "/opt/venv/lib/python3.10/site-packages/geo_ops/__init__.py", line 3, in <module>
    from ._native import box_iou
AttributeError: _ARRAY_API not found
"""


def test_numpy_removal_under_the_compiler_start_is_the_package_set() -> None:
    """Example: the block's reason is NumPy's own word that the release does not fit, so the
    package set decides over the toolkit reading; the toolkit stays the neighbour."""
    diagnosis = diagnose_text("convert.log", COMPILE_OPTIONS_UNDER_NUMPY_REMOVAL)
    assert_reads(diagnosis, "config", first_error="was removed in the NumPy 2.0 release")
    driver_env = next(alt for alt in diagnosis.alternatives if alt.category == "driver_env")
    assert 0 < driver_env.score < diagnosis.confidence


def test_an_extension_built_for_another_numpy_is_the_package_set() -> None:
    diagnosis = diagnose_text("train.log", EXTENSION_UNDER_OTHER_NUMPY)
    assert_reads(diagnosis, "config", first_error="_ARRAY_API not found")


def test_a_toolkit_module_missing_in_the_same_block_stays_the_environment() -> None:
    """Counterexample: the same block with a module of the toolkit that cannot be found is
    the toolkit's installation, not a NumPy release."""
    text = COMPILE_OPTIONS_UNDER_NUMPY_REMOVAL.replace(
        "AttributeError: `np.unicode_` was removed in the NumPy 2.0 release. Use `np.str_` instead..",
        "ModuleNotFoundError: No module named 'tbe.common.repository_manager'.",
    )
    diagnosis = diagnose_text("convert.log", text)
    assert_reads(
        diagnosis, "driver_env", first_error="No module named 'tbe.common.repository_manager'"
    )


# CANN's error block alone, as a first tensor copy to the device prints it when the toolkit's
# environment does not start: the block's headline names the step, the compile line under it
# carries ACL's own 500001. docs/labelling.md#the-operator-compilers-environment-does-not-start
ENV_BLOCK_ON_FIRST_COPY = """\
>>> weights = torch.zeros(8, 8).npu()
EH9999: Inner Error!
EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]
        TraceBack (most recent call last):
        build op model failed, result = 500001[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]

Aborted (core dumped)
"""

# The same headline printed once by a rank of a launched job, with nothing under it.
ENV_HEADLINE_IN_A_RANK = """\
[rank3]: EH9999: [PID: 51822] 2026-08-11-14:02:19.448.310 [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:605]
"""


def test_an_environment_block_offers_the_package_set_beside_the_machine() -> None:
    """The toolkit's environment that does not start is usually a machine not prepared for it
    (driver_env); a Python package at a release the toolkit does not take fails the same way,
    so config stands beside it, below the answer."""
    for text in (ENV_BLOCK_ON_FIRST_COPY, ENV_HEADLINE_IN_A_RANK):
        diagnosis = diagnose_text("session.txt", text)
        assert_reads(diagnosis, "driver_env", first_error="init env failed")
        config = next(alt for alt in diagnosis.alternatives if alt.category == "config")
        assert 0 < config.score < diagnosis.confidence


def test_an_environment_that_started_is_no_failure() -> None:
    """Counterexample: the runtime's note that the environment came up names no failure."""
    diagnosis = diagnose_text(
        "session.txt",
        "[INFO] ASCENDCL(51822,python3):2026-08-11-14:02:19.448.310 init env done\n",
    )
    assert diagnosis.category != "driver_env"


# The compile-option refusal at a device's first use, the paste cut right after `NPU function
# error`: no code is left to tell the start-up failure from a refused parameter.
# docs/labelling.md#the-operator-compilers-environment-does-not-start
COMPILE_OPTIONS_CODE_CUT = """\
  File "/opt/venv/lib/python3.11/site-packages/torch_npu/npu/utils.py", line 91, in current_device
    torch_npu.npu._lazy_init()
  File "/opt/venv/lib/python3.11/site-packages/torch_npu/npu/__init__.py", line 236, in _lazy_init
    torch_npu._C._npu_init()
RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:158 NPU function error
"""


def test_a_compile_option_refusal_cut_before_its_code_is_the_environment_below_the_band() -> None:
    diagnosis = diagnose_text("ci/host-3.log", COMPILE_OPTIONS_CODE_CUT)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="SetPrecisionMode",
        rule="env.acl_init_failed_code_cut",
        beside=("config", "other"),
    )
    assert diagnosis.confidence < 0.8


def test_the_block_under_a_cut_refusal_still_names_the_step_that_failed() -> None:
    """Counterexample: a block line saying which start-up step failed stays the first error."""
    text = COMPILE_OPTIONS_CODE_CUT + (
        "EH9999: [PID: 5120] 2026-03-02-10:00:01.118.220 [Init][PlatformInfo]init runtime platform"
        " info failed, SocVersion = Ascend910B2[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n"
    )
    diagnosis = diagnose_text("ci/host-3.log", text)
    assert_reads(diagnosis, "driver_env", first_error="init runtime platform info failed")


def test_a_toolkit_module_named_without_its_exception_class_is_the_environment() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: a paste that kept only the message
    of a failed import of the toolkit's Python API reads as the whole line would."""
    diagnosis = diagnose_text("stdout.log", "No module named 'acl'\n")
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="No module named 'acl'",
        rule="env.cann_python_module_missing",
        beside=("config",),
    )


def test_a_bare_miss_of_another_module_is_not_the_toolkit() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("stdout.log", "No module named 'aclgraph_tools'\n")
    assert "env.cann_python_module_missing" not in rules_of(diagnosis)
