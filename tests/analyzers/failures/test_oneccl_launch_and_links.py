"""oneCCL lines that name the launch or a card's link rather than the library itself.

docs/labelling.md#collective-libraries-of-other-accelerators: oneCCL started by a launcher
that does not tell it the process's local rank and count fails its start-up check there
(`config`), and a fabric port it finds failed at start-up is the first error of the collective
that dies later (`hccl`), though both come at its warning or error level like any other of its
lines. Fixtures follow oneCCL's format with hosts, pids and ports of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NO_LOCAL_COORDINATES = """\
2025:06:11-08:20:31:(40211) |CCL_WARN| did not find MPI-launcher specific variables, switch to ATL/OFI, to force enable ATL/MPI set CCL_ATL_TRANSPORT=mpi
2025:06:11-08:20:31:(40211) |CCL_WARN| could not get local_idx/count from environment variables, trying to get them from ATL
2025:06:11-08:20:31:(40211) |CCL_ERROR| global.cpp:150 getenv_local_coord: condition global_data::env().ze_ipc_exchange == ccl::ze::ipc_exchange_mode::sockets failed
Traceback (most recent call last):
  File "/srv/ft/train.py", line 77, in <module>
    trainer.train()
"""

# Counterexample: the same warnings, then the transport finding no provider: that is the
# library's own start on this host, not the launch.
NO_PROVIDER_AFTER_WARNINGS = """\
2025:06:11-08:20:31:(40211) |CCL_WARN| could not get local_idx/count from environment variables, trying to get them from ATL
2025:06:11-08:20:31:(40211) |CCL_ERROR| atl_ofi.cpp:243 init: can't find suitable provider
"""

FAILED_PORT_THEN_ABORT = """\
2025:07:01-10:12:44:(20311) |CCL_WARN| did not find MPI-launcher specific variables, switch to ATL/OFI, to force enable ATL/MPI set CCL_ATL_TRANSPORT=mpi
2025:07:01-10:12:44:(20311) |CCL_WARN| host: gpu-node-2, rank: 1, local_port_id: { 65563 0 1 }, port issue: { status: failed, details: training timeout }
SIGABRT(6), PID: 20311, Thread 20311:
 frame #2: ccl_executor::wait(ccl_request const*) + 0x58 (0x7f3a10a6dcd8 in /opt/intel/oneapi/lib/libccl.so.1)
"""

# Counterexample: a port reported only degraded is no failure; the job's own error is.
DEGRADED_PORT_THEN_OOM = """\
2025:07:01-10:12:44:(20311) |CCL_WARN| host: gpu-node-2, rank: 1, local_port_id: { 65563 0 1 }, port issue: { status: degraded, details: lane width }
RuntimeError: XPU out of memory. Tried to allocate 4.00 GiB (GPU 1; 64.00 GiB total capacity; 61.20 GiB already allocated; 61.50 GiB reserved in total by PyTorch)
"""


def test_local_coordinates_the_launcher_did_not_give_are_the_launch() -> None:
    diagnosis = diagnose_text("logs/finetune.log", NO_LOCAL_COORDINATES)
    assert_reads(diagnosis, "config", first_error="getenv_local_coord", beside=("hccl",))


def test_a_transport_with_no_provider_stays_the_collective_library() -> None:
    diagnosis = diagnose_text("logs/finetune.log", NO_PROVIDER_AFTER_WARNINGS)
    assert_reads(diagnosis, "hccl", first_error="can't find suitable provider")


def test_a_failed_fabric_port_is_the_first_error_of_the_abort() -> None:
    diagnosis = diagnose_text("logs/test.log", FAILED_PORT_THEN_ABORT)
    assert_reads(
        diagnosis, "hccl", first_error="port issue: { status: failed", beside=("driver_env",)
    )


def test_a_degraded_port_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/test.log", DEGRADED_PORT_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="out of memory")
