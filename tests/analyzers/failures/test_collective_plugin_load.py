"""A framework's collective communication plugin that does not load.

docs/labelling.md#a-collective-library-that-does-not-load: MindSpore opens its collective
plugin (`libgpu_collective.so` over NCCL and Open MPI, `libascend_collective.so` over HCCL)
when a job asks for a communicator and says so in its own sentence when that fails. The plugin
or a library under it is missing or too old on the machine: `driver_env`, with `config` and
`hccl` beside it, and the line is the first error. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NOT_LOADED = """\
Traceback (most recent call last):
  File "run_pretrain.py", line 77, in <module>
    init("nccl")
  File "/opt/py39/lib/python3.9/site-packages/mindspore/communication/management.py", line 161, in init
    init_cluster()
RuntimeError: Loading libgpu_collective.so failed. Many reasons could cause this:
1.libgpu_collective.so is not installed.
2.nccl is not installed or found.
3.mpi is not installed or found
"""


def test_a_collective_plugin_that_does_not_load_is_the_machine() -> None:
    diagnosis = diagnose_text("worker_0.log", NOT_LOADED)
    assert_reads(diagnosis, "driver_env", first_error="Loading libgpu_collective.so failed")
    assert {"config", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_plugin_that_loaded_is_no_failure() -> None:
    text = (
        "[INFO] DEVICE(2041,7f55aa10b740,python):2026-02-03-04:05:06.070.809 "
        "[collective_manager.cc:300] InitHostCommlib] Loading libgpu_collective.so succeeded.\n"
    )
    diagnosis = diagnose_text("worker_0.log", text)
    assert diagnosis.category != "driver_env"
