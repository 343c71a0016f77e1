"""Settled incidents shared by the accuracy figures' tests."""

from __future__ import annotations

import pytest

from tests.incidents.verdict_helpers import analyzed, at, settle


@pytest.fixture
def team(alice, bob):
    """Six settled incidents; one was first settled wrongly and then corrected."""
    made = {
        "corrected": analyzed("shape_mismatch", 0.9, "tp8 decode"),
        "late_jan": analyzed("hang", 0.5, "moe all-to-all stalls"),
        "early_feb": analyzed("hang", 0.85, "allreduce timeout on rank 5"),
        "hccl_ok": analyzed("hccl", 0.95, "buffer too small"),
        "oom_ok": analyzed("oom", None, "prefill out of memory"),
        "no_run": analyzed(None, title="segfault, never analyzed"),
    }
    settle(made["corrected"], alice, "weight_load", at(1, 10))
    settle(made["corrected"], alice, "shape_mismatch", at(2, 3))
    settle(made["late_jan"], bob, "hccl", at(1, 31, 23, 30))
    settle(made["early_feb"], alice, "hccl", at(2, 1, 0, 10))
    settle(made["hccl_ok"], bob, "hccl", at(4, 2))
    settle(made["oom_ok"], alice, "oom", at(4, 5))
    settle(made["no_run"], bob, "device_fault", at(4, 6))
    return made
