"""Start-up failures where the machine or the launch setting, not the job's work, is wrong.

A device plugin that torch cannot load names the plugin, and the dynamic loader's line
before it names the library that is missing; a graph engine option that points at a
directory the process cannot use is refused before the op compiler starts, and the
compiler's start-up failures after it restate the refusal.

docs/labelling.md#config-driver_env-or-weight_load
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

# The loader's reason printed bare (no exception class) before torch's autoload failure.
PLUGIN_LIBRARY_MISSING = """\
libascend_dmi.so: cannot open shared object file: No such file or directory
RuntimeError: Failed to load the backend extension: torch_npu. You can disable extension auto-loading with TORCH_DEVICE_BACKEND_AUTOLOAD=0.
"""

# The autoload failure alone still says the environment lacks a working plugin.
PLUGIN_ALONE = """\
Traceback (most recent call last):
  File "/srv/bench/run.py", line 3, in <module>
    import torch
RuntimeError: Failed to load the backend extension: torch_npu. You can disable extension auto-loading with TORCH_DEVICE_BACKEND_AUTOLOAD=0.
"""

# Counterexample: a loader that found its library prints no error.
PLUGIN_LOADED = """\
loading libascend_dmi.so from /usr/local/Ascend/driver/lib64
loaded the backend extension torch_npu in 0.31 s
step 1 loss 2.94
"""

GE_PATH_REFUSED = """\
(RayWorkerWrapper pid=5120) ERROR 03-14 08:09:10 [worker_base.py:620] [PID: 5120] 2026-03-14-08:09:10.200.300 Path [/sbin] for [ge.debugDir] is invalid.Result: access real path failed. Reason: Permission denied
(RayWorkerWrapper pid=5120) ERROR 03-14 08:09:10 [worker_base.py:620]         TraceBack (most recent call last):
(RayWorkerWrapper pid=5120) ERROR 03-14 08:09:10 [worker_base.py:620]         [GraphOpt][InitializeInner][InitTbeFunc] Failed to init tbe.[FUNC:InitializeTeFusion][FILE:tbe_op_store_adapter.cc][LINE:1930]
(RayWorkerWrapper pid=5120) ERROR 03-14 08:09:10 [worker_base.py:620]         [SubGraphOpt][PreCompileOp][InitAdapter] InitializeAdapter adapter [tbe_op_adapter] failed! Ret [4294967295][FUNC:InitializeAdapter][FILE:op_store_adapter_manager.cc][LINE:80]
"""

# Without the path refusal the same start-up lines say only that the op compiler did not
# start: its environment (docs/labelling.md#the-operator-compilers-environment-does-not-start).
GE_INIT_ALONE = """\
(RayWorkerWrapper pid=5120) ERROR 03-14 08:09:10 [worker_base.py:620]         [GraphOpt][InitializeInner][InitTbeFunc] Failed to init tbe.[FUNC:InitializeTeFusion][FILE:tbe_op_store_adapter.cc][LINE:1930]
(RayWorkerWrapper pid=5120) ERROR 03-14 08:09:10 [worker_base.py:620]         [SubGraphOpt][PreCompileOp][InitAdapter] InitializeAdapter adapter [tbe_op_adapter] failed! Ret [4294967295][FUNC:InitializeAdapter][FILE:op_store_adapter_manager.cc][LINE:80]
"""


def test_the_loaders_bare_line_outranks_the_plugin_autoload_failure() -> None:
    diagnosis = diagnose_text("job/container.log", PLUGIN_LIBRARY_MISSING)
    assert_reads(
        diagnosis, "driver_env", first_error="libascend_dmi.so: cannot open shared object file"
    )


def test_the_plugin_autoload_failure_alone_is_the_environment() -> None:
    diagnosis = diagnose_text("job/bench.log", PLUGIN_ALONE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Failed to load the backend extension: torch_npu",
        beside=("config",),
    )


def test_a_loader_that_found_its_library_is_not_an_error() -> None:
    diagnosis = diagnose_text("job/bench.log", PLUGIN_LOADED)
    assert diagnosis.category != "driver_env"
    assert diagnosis.first_error is None


def test_a_graph_engine_option_path_it_cannot_use_is_the_setting() -> None:
    diagnosis = diagnose_text("job/ray_worker.log", GE_PATH_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Path [/sbin] for [ge.debugDir] is invalid",
        beside=("driver_env",),
    )


# Counterexample: a subgraph whose op failed to compile is the op's build, not the start-up.
GE_SUBGRAPH_COMPILE = """\
(RayWorkerWrapper pid=5120) ERROR 03-14 08:09:10 [worker_base.py:620]         [GraphOpt][FusedGraph][RunCompile] Failed to compile graph with compiler Normal mode Op Compiler[FUNC:SubGraphCompile][FILE:fe_graph_optimizer.cc][LINE:1390]
(RayWorkerWrapper pid=5120) ERROR 03-14 08:09:10 [worker_base.py:620]         Call OptimizeFusedGraph failed, ret:-1, engine_name:AIcoreEngine, graph_name:partition0_rank1_sub_graph3[FUNC:OptimizeSubGraph][FILE:graph_optimize.cc][LINE:127]
"""


def test_compiler_start_up_lines_without_the_refusal_are_the_compilers_environment() -> None:
    diagnosis = diagnose_text("job/ray_worker.log", GE_INIT_ALONE)
    assert_reads(diagnosis, "driver_env", first_error="Failed to init tbe", beside=("config",))


def test_a_subgraph_that_failed_to_compile_stays_the_operators() -> None:
    diagnosis = diagnose_text("job/ray_worker.log", GE_SUBGRAPH_COMPILE)
    assert diagnosis.category == "operator"


# Counterexample: NCCL's start-up probe for an optional plugin that is not installed.
NCCL_PLUGIN_PROBE = """\
node-4:7311:7311 [0] NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory
node-4:7311:7311 [0] NCCL INFO Using network Socket
step 1 loss 3.02
"""


def test_nccls_optional_plugin_probe_is_not_a_missing_library() -> None:
    diagnosis = diagnose_text("job/train.log", NCCL_PLUGIN_PROBE)
    assert diagnosis.category != "driver_env"
    assert diagnosis.first_error is None


# An aclnn entry point the installed operator library lacks: the op's reading by the corpus
# rule, with the toolkit's release and installation beside it.
# docs/labelling.md#operator-installation-or-platform-limit
ENTRY_POINT_MISSING = """\
[rank1]:   File "/srv/serve/layers/attention.py", line 88, in forward
[rank1]:     out = torch_npu.npu_sparse_paged_attention(q, k_cache, v_cache)
[rank1]: RuntimeError: aclnnSparsePagedAttention or aclnnSparsePagedAttentionGetWorkspaceSize not in libopapi.so, or libopapi.sonot found.
"""

# Counterexample: a lookup that found the entry point is not a failure.
ENTRY_POINT_FOUND = """\
[rank1]: found aclnnSparsePagedAttention in libopapi.so
[rank1]: step 3 done
"""


def test_a_missing_entry_point_offers_the_toolkit_readings_below_the_confident_band() -> None:
    diagnosis = diagnose_text("job/rank1.log", ENTRY_POINT_MISSING)
    assert_reads(diagnosis, "operator", first_error="not in libopapi.so")
    alternatives = alternative_labels(diagnosis)
    assert "config" in alternatives
    assert "driver_env" in alternatives
    assert diagnosis.confidence < 0.8


# The same refusal kept only in an issue's title, above the engine's start-up traceback cut
# before its last frame: the title is the one line that says what failed.
ENTRY_POINT_MISSING_TITLE = """\
[Bug]: 部署 'aclnnDemoGatherRows or aclnnDemoGatherRowsGetWorkspaceSize not in libopapi.so, or libopapi.sonot found.', please check the stack trace above for the root cause
(EngineCore_DP0 pid=412) EngineCore failed to start.
(EngineCore_DP0 pid=412) Traceback (most recent call last):
(EngineCore_DP0 pid=412)   File "/srv/venv/lib/python3.11/site-packages/vllm/v1/engine/core.py", line 112, in __init__
(EngineCore_DP0 pid=412)     blocks = self._initialize_kv_caches(
(EngineCore_DP0 pid=412)   File "/srv/venv/lib/python3.11/site-packages/vllm/v1/engine/core.py", line 242, in _initialize_kv_caches
"""


def test_a_missing_entry_point_kept_only_in_a_title_is_still_read() -> None:
    diagnosis = diagnose_text("job/engine.log", ENTRY_POINT_MISSING_TITLE)
    assert_reads(
        diagnosis,
        "operator",
        first_error="not in libopapi.so",
        rule="op.missing_from_op_library",
        beside=("config",),
    )


def test_an_entry_point_that_was_found_is_no_error() -> None:
    diagnosis = diagnose_text("job/rank1.log", ENTRY_POINT_FOUND)
    assert diagnosis.first_error is None


# A framework that finds no device, pasted beside the import of its device plugin done by hand:
# the loader's refusal of the toolkit library (cut after `cannot open` by the paste) says why.
NO_DEVICE_VERDICT = """\
INFO 05-02 09:14:03 __init__.py:30] No platform plugin could be activated.
    raise RuntimeError("Failed to infer device type")
RuntimeError: Failed to infer device type
"""

PLUGIN_IMPORT_BY_HAND = """\
>>> import torch_npu
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
  File "/opt/py310/lib/python3.10/site-packages/torch_npu/__init__.py", line 24, in <module>
    from torch_npu import _C
ImportError: libascendcl.so: cannot open sha
"""

# Counterexample: the same verdict with a library refusal that is no loader's (a lock file).
UNRELATED_OPEN_REFUSAL = """\
WARNING 05-02 09:14:01 cache.py:12] libhccl.so: cannot open the lock file, retrying
RuntimeError: Failed to infer device type
"""


def test_a_library_the_loader_refused_in_another_paste_explains_the_missing_device() -> None:
    diagnosis = diagnose_files(
        {"issue/serve.log": NO_DEVICE_VERDICT, "issue/import_check.log": PLUGIN_IMPORT_BY_HAND}
    )
    assert_reads(diagnosis, "driver_env", first_error="libascendcl.so: cannot open sha")


def test_the_no_device_verdict_alone_stays_the_first_error() -> None:
    diagnosis = diagnose_text("issue/serve.log", NO_DEVICE_VERDICT)
    assert_reads(diagnosis, "driver_env", first_error="Failed to infer device type")


def test_an_open_refusal_that_is_not_the_loaders_does_not_lead() -> None:
    diagnosis = diagnose_text("issue/serve.log", UNRELATED_OPEN_REFUSAL)
    assert diagnosis.first_error is not None
    assert "Failed to infer device type" in diagnosis.first_error.text


# The NPU container runtime's installer checks the host's release file before it installs and
# refuses a host it does not recognise: the machine's set-up stops, not a job.
# docs/labelling.md#config-driver_env-or-weight_load
INSTALLER_REFUSES_HOST = """\
Uncompressing ascend-docker-runtime  100%
[INFO] installing ascend docker runtime
[INFO] platform(x86_64) matched!
[ERROR] /etc/os-release is invalid
[ERROR] install failed, a500a2 not support this os
"""


def test_an_installer_that_refuses_the_host_os_is_the_machine() -> None:
    diagnosis = diagnose_text("install.log", INSTALLER_REFUSES_HOST)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="/etc/os-release is invalid",
        rule="env.installer_refuses_host_os",
        beside=("config",),
    )


def test_the_refusal_without_the_release_file_line_is_still_read() -> None:
    text = "[ERROR] install failed, a300i not support this os\n"
    diagnosis = diagnose_text("install.log", text)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="not support this os",
        rule="env.installer_refuses_host_os",
    )


def test_an_installer_that_recognised_the_host_is_no_failure() -> None:
    """Counterexample: the installer's notices that the platform and OS were matched, and an
    install step that failed for another reason, say nothing about the host's OS."""
    text = (
        "[INFO] platform(aarch64) matched!\n"
        "[INFO] os is Euler/OpenEuler\n"
        "[ERROR] install failed, no space left on device\n"
    )
    diagnosis = diagnose_text("install.log", text)
    assert "env.installer_refuses_host_os" not in rules_of(diagnosis)
