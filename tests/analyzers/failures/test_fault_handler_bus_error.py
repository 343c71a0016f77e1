"""A process's own fault handler reporting a bus error offers the machine's set-up beside it.

Python's fault handler (`Fatal Python error: Bus error`) and the abseil handler of Ray's and
torch's workers (`*** SIGBUS received at time=N on cpu C ***`) report the same end as the
shell's and the launchers' bus-error records: the crash stays `device_fault` with the banner
as the first error, and `driver_env` is offered beside it (a container's shared memory too
small for the workers' shared buffers is the usual way a multi-process job meets SIGBUS).
Counterexample: the same handler's SIGSEGV banner offers no set-up. Fixtures are written here
in the real shapes with their own values.

docs/labelling.md#config-driver_env-or-weight_load
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

BUS_ERROR_IN_WORKER = """\
INFO 02-03 04:05:06 llm_engine.py:72] Initializing an LLM engine with config: tensor_parallel_size=2
(RayWorker pid=6021) *** SIGBUS received at time=1700112233 on cpu 7 ***
(RayWorker pid=6021) PC: @     0x7f11d2a0c1b0  (unknown)  (unknown)
(RayWorker pid=6021) Fatal Python error: Bus error
"""

SEGFAULT_IN_WORKER = """\
INFO 02-03 04:05:06 llm_engine.py:72] Initializing an LLM engine with config: tensor_parallel_size=2
(RayWorker pid=6021) *** SIGSEGV received at time=1700112233 on cpu 7 ***
(RayWorker pid=6021) PC: @     0x7f11d2a0c1b0  (unknown)  (unknown)
(RayWorker pid=6021) Fatal Python error: Segmentation fault
"""


def test_a_worker_bus_error_offers_the_machine_setup_beside_the_crash() -> None:
    diagnosis = diagnose_text("serve/api_server.log", BUS_ERROR_IN_WORKER)
    assert_reads(diagnosis, "device_fault", first_error="SIGBUS received", beside=("driver_env",))


def test_a_worker_segfault_offers_no_setup() -> None:
    diagnosis = diagnose_text("serve/api_server.log", SEGFAULT_IN_WORKER)
    assert_reads(diagnosis, "device_fault", first_error="SIGSEGV received")
    assert "driver_env" not in alternative_labels(diagnosis)
