"""A shared library that loads but lacks a symbol, read by whose library it is.

docs/labelling.md#config-driver_env-or-weight_load: a library of the CANN installation itself
(toolkit tree, operator package, driver lib64) missing a symbol means the host mixes releases
(`driver_env`); a Python package's extension missing one means the installed packages do not
fit together (`config`). Each names the other as its alternative.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

TOOLKIT_PLOG = (
    "[ERROR] GE(70215,main):2026-01-09-17:20:44.508.331 [host_cpu_engine.cc:288]70390 LoadLib: "
    "ErrorNo: 1343225860(Internal errors) [INIT][DEFAULT][Invoke][DlOpen] failed. path = "
    "/usr/local/Ascend/ascend-toolkit/8.0.RC3/opp/built-in/op_impl/host_cpu/libops_host_cpu.so, "
    "error = /usr/local/Ascend/ascend-toolkit/8.0.RC3/opp/built-in/op_impl/host_cpu/"
    "libops_host_cpu.so: undefined symbol: _ZN2ge16ReportInnerErrorEPKc\n"
    "[EVENT] TDT(70215,main):2026-01-09-17:20:44.510.902 [process_mode_manager.cpp:103]"
    "[OpenProcess][tid:70390] [ProcessModeManager] enter into open process deviceId[0] "
    "rankSize[0]\n"
)

PACKAGE_IMPORT = (
    "Traceback (most recent call last):\n"
    '  File "/srv/jobs/train.py", line 4, in <module>\n'
    "    import torch_npu\n"
    '  File "/opt/py310/lib/python3.10/site-packages/torch_npu/__init__.py", line 18, in '
    "<module>\n"
    "    import torch_npu.npu\n"
    "ImportError: /opt/py310/lib/python3.10/site-packages/torch_npu/lib/libtorch_npu.so: "
    "undefined symbol: _ZN3c104impl21ExcludeDispatchKeyGuardC1ENS_14DispatchKeySetE\n"
)


def test_a_toolkit_library_missing_a_toolkit_symbol_is_the_host_installation():
    diagnosis = diagnose_files(
        {
            "plog/plog-70215_20260109172044101.log": TOOLKIT_PLOG,
            "app.log": "aclrtSetDevice: open device 0 failed, runtime result = 507033\n",
        }
    )
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="libops_host_cpu.so: undefined symbol",
        beside=("config",),
    )


def test_a_python_package_missing_a_symbol_stays_a_package_set_mismatch():
    diagnosis = diagnose_text("worker.log", PACKAGE_IMPORT)
    assert_reads(diagnosis, "config", first_error="libtorch_npu.so: undefined symbol")


def test_a_framework_custom_op_package_inside_the_toolkit_tree_is_still_the_package_set():
    text = (
        "OSError: /usr/local/Ascend/ascend-toolkit/latest/opp/vendors/serve_ops/op_api/lib/"
        "libcust_opapi.so: undefined symbol: aclnnMoeGatingSortGetWorkspaceSize\n"
    )
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause


ADAPTER_LOAD = (
    "Traceback (most recent call last):\n"
    '  File "/opt/py311/lib/python3.11/site-packages/torch_npu/op_plugin/atb/_atb_ops.py", '
    "line 66, in <module>\n"
    "    torch.ops.load_library(atb_so_path)\n"
    "OSError: /home/ops/Ascend/nnal/atb/latest/atb/cxx_abi_1/lib/libtbe_adapter.so: "
    "undefined symbol: _ZN3Mki6LoaderC1Ev\n"
)


def test_a_package_extension_missing_a_symbol_names_the_host_as_the_alternative():
    diagnosis = diagnose_text("worker.log", PACKAGE_IMPORT)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "driver_env" in alternative_labels(diagnosis)


def test_an_nnal_adapter_missing_a_symbol_is_the_package_set_with_the_host_as_alternative():
    diagnosis = diagnose_text("worker.log", ADAPTER_LOAD)
    assert_reads(
        diagnosis,
        "config",
        first_error="libtbe_adapter.so: undefined symbol",
        beside=("driver_env",),
    )


def test_a_name_missing_from_a_python_module_does_not_suggest_the_host():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/jobs/serve.py", line 3, in <module>\n'
        "    from serve_plugin.quant import W8A8Config\n"
        "ImportError: cannot import name 'W8A8Config' from 'serve_plugin.quant' "
        "(/opt/py311/lib/python3.11/site-packages/serve_plugin/quant/__init__.py)\n"
    )
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "driver_env" not in alternative_labels(diagnosis)


# The loader's reason pasted on its own, without the ImportError in front of it: a reporter
# quoting only the line that matters, or a plugin loader that logs the reason bare.
BARE_EXTENSION_LINE = (
    "python check_ops.py\n"
    "/opt/src/visionops/visionops/_ext.cpython-310-aarch64-linux-gnu.so: undefined symbol: "
    "_ZN8npu_core9RunConfig4modeE\n"
)


def test_a_bare_loader_line_for_an_extension_is_read_without_its_exception_class():
    diagnosis = diagnose_text("run.log", BARE_EXTENSION_LINE)
    assert_reads(
        diagnosis,
        "config",
        first_error="_ext.cpython-310-aarch64-linux-gnu.so: undefined symbol",
        beside=("driver_env",),
    )


def test_talk_about_undefined_symbols_is_no_loader_refusal():
    text = (
        "checking the extension for undefined symbols before packaging\n"
        "nm -D --undefined-only _ext.so | wc -l\n"
        "build finished, 42 objects linked\n"
    )
    diagnosis = diagnose_text("build.log", text)
    assert diagnosis.category != "config", diagnosis.root_cause
    assert diagnosis.first_error is None
