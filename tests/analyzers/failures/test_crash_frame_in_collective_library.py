"""A fault handler's crash stack whose frame is in the collective library's own code.

Ray's and torch's failure-signal handlers (abseil) print the faulting frame and the frames
under it (`PC: @ 0x.. (unknown) addProxyOpIfNeeded()`, `@ 0x.. 64 ncclProxyProgress()`). When
such a frame is an NCCL or RCCL function, the process died inside a collective's machinery:
the crash stays `device_fault` with the signal line as the first error, and `hccl` is offered
beside it. Counterexample: the same banner over frames in the Python binding offers no
collective. Fixtures are written here in the real shapes with their own values.

docs/labelling.md#native-only-crashes
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

WORKER = "(RayWorkerWrapper pid=7340, ip=10.0.4.21)"

CRASH_IN_NCCL_PROXY = "".join(
    f"{WORKER} {line}\n"
    for line in (
        "*** SIGSEGV received at time=1760001122 on cpu 41 ***",
        "PC: @     0x7f52aa14c9d0  (unknown)  ncclProxySaveOp()",
        "    @     0x7f53c0a42520  (unknown)  (unknown)",
        "[2026-05-06 07:08:09,101 E 7340 7340] logging.cc:460: *** SIGSEGV received at time=1760001122 on cpu 41 ***",
    )
)

CRASH_IN_BINDING = "".join(
    f"{WORKER} {line}\n"
    for line in (
        "*** SIGSEGV received at time=1760001122 on cpu 41 ***",
        "PC: @     0x7f52aa14c9d0  (unknown)  pybind11::cpp_function::dispatcher()",
        "    @     0x7f53c0a42520  (unknown)  (unknown)",
    )
)


def test_a_crash_frame_in_the_collective_library_offers_the_collective_layer() -> None:
    diagnosis = diagnose_text("serve/worker.log", CRASH_IN_NCCL_PROXY)
    assert_reads(diagnosis, "device_fault", first_error="SIGSEGV received", beside=("hccl",))


def test_a_crash_frame_in_other_code_offers_no_collective() -> None:
    diagnosis = diagnose_text("serve/worker.log", CRASH_IN_BINDING)
    assert_reads(diagnosis, "device_fault", first_error="SIGSEGV received")
    assert "hccl" not in alternative_labels(diagnosis)
