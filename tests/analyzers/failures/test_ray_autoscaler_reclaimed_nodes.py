"""A Ray cluster whose autoscaler announces that the platform is taking nodes back.

docs/labelling.md#a-job-stopped-from-outside: Ray's autoscaler says an instance will be
terminated soon and names why; when the reason is the platform's (a Kubernetes pod being
terminated, a preemption, a spot reclaim) the job was stopped from outside, and what the
job reports next (a placement group it can no longer fill) is the consequence. An instance the
autoscaler removes for its own reasons (idle) is no such stop. Node ids, addresses and sizes
are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RECLAIMED = """\
(autoscaler +12m40s) Instance k-77c2e1d90003 (node IP: 10.4.8.21) will be terminated soon (reason: kubernetes-pod-termination).
(autoscaler +12m40s) [autoscaler] Cluster resized to {96 CPU, 4 GPU}.
Traceback (most recent call last):
  File "/srv/app/launch.py", line 211, in wait_for_bundles
    raise RuntimeError(
RuntimeError: Failed to create placement group with 2 bundles (requiring 4.0 GPUs, 2.0 CPUs total) in 300 seconds.
"""

SPOT = """\
(autoscaler +3h01m12s) Instance i-0f3a9c (node IP: 172.31.9.40) will be terminated soon (reason: spot-preemption).
(RayTrainWorker pid=8812, ip=172.31.9.41) RuntimeError: Connection reset by peer
"""

IDLE = """\
(autoscaler +40m02s) Instance k-77c2e1d90004 (node IP: 10.4.8.22) will be terminated soon (reason: idle).
epoch 12 done, val_loss 0.412
"""


def test_a_node_the_platform_takes_back_is_a_stop_from_outside() -> None:
    diagnosis = diagnose_text("driver.log", RECLAIMED)
    assert_reads(
        diagnosis,
        "other",
        first_error="will be terminated soon (reason: kubernetes-pod-termination)",
        rule="ext.ray_instance_reclaimed",
    )


def test_a_spot_reclaim_comes_before_the_peers_lost_connection() -> None:
    diagnosis = diagnose_text("driver.log", SPOT)
    assert_reads(
        diagnosis,
        "other",
        first_error="reason: spot-preemption",
        rule="ext.ray_instance_reclaimed",
    )


def test_an_idle_node_the_autoscaler_removes_is_no_stop() -> None:
    diagnosis = diagnose_text("driver.log", IDLE)
    assert "ext.ray_instance_reclaimed" not in rules_of(diagnosis)
