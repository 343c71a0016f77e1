"""The device's task daemon refusing to open a device, worded by a library that opens the device
for its own transport (a memory-fabric or KV-transfer engine): `TsdOpen for (deviceId=N,
rankCount=M) failed: <ret>`, with the library's own wrappers (`open tsd failed`, `Failed to open
device, ret: -1`, `create entity failed`) restating it under it. It is the same refusal as the
runtime's `TsdOpen failed ... tdt error=N`: a device held by another process or a machine not set
up, `driver_env`, and the first error (docs/labelling.md#probes-yield-to-their-reason).
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text


def _rules(diagnosis) -> set[str]:
    return {e.rule for e in diagnosis.evidence if e.rule}


_BLOCK = (
    "[FAB transport_manager.cpp:310 OpenTsd] TsdOpen for (deviceId=3, rankCount=4) failed: 31\n"
    "[FAB transport_manager.cpp:280 PrepareOpenDevice] open tsd failed.\n"
    "[FAB entity.cpp:90 InitTransManager] Failed to open device, ret: -1\n"
    "[FAB entry.cpp:40 Initialize] create entity failed\n"
)


def test_a_callers_tsdopen_refusal_is_the_machines_and_the_first_error() -> None:
    diagnosis = diagnose_text("fabric.log", _BLOCK)
    assert diagnosis.category == "driver_env"
    assert "env.device_open_refused" in _rules(diagnosis)
    assert diagnosis.first_error is not None
    assert "TsdOpen for (deviceId=3, rankCount=4) failed: 31" in diagnosis.first_error.text


def test_a_tsdopen_that_succeeded_for_a_rank_is_no_refusal() -> None:
    diagnosis = diagnose_text(
        "fabric.log",
        "[FAB transport_manager.cpp:312 OpenTsd] TsdOpen for (deviceId=3, rankCount=4) success\n",
    )
    assert "env.device_open_refused" not in _rules(diagnosis)
