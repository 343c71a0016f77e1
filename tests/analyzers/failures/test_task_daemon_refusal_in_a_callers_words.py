"""The device's task daemon refusing to open a device, worded by a library that opens the device
for its own transport (a memory-fabric or KV-transfer engine): `TsdOpen for (deviceId=N,
rankCount=M) failed: <ret>`, with the library's own wrappers (`open tsd failed`, `Failed to open
device, ret: -1`, `create entity failed`) restating it under it. It is the same refusal as the
runtime's `TsdOpen failed ... tdt error=N`: a device held by another process or a machine not set
up, `driver_env`, and the first error (docs/labelling.md#probes-yield-to-their-reason).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

_BLOCK = (
    "[FAB transport_manager.cpp:310 OpenTsd] TsdOpen for (deviceId=3, rankCount=4) failed: 31\n"
    "[FAB transport_manager.cpp:280 PrepareOpenDevice] open tsd failed.\n"
    "[FAB entity.cpp:90 InitTransManager] Failed to open device, ret: -1\n"
    "[FAB entry.cpp:40 Initialize] create entity failed\n"
)


def test_a_callers_tsdopen_refusal_is_the_machines_and_the_first_error() -> None:
    diagnosis = diagnose_text("fabric.log", _BLOCK)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="TsdOpen for (deviceId=3, rankCount=4) failed: 31",
        rule="env.device_open_refused",
    )


def test_a_tsdopen_that_succeeded_for_a_rank_is_no_refusal() -> None:
    diagnosis = diagnose_text(
        "fabric.log",
        "[FAB transport_manager.cpp:312 OpenTsd] TsdOpen for (deviceId=3, rankCount=4) success\n",
    )
    assert "env.device_open_refused" not in rules_of(diagnosis)
