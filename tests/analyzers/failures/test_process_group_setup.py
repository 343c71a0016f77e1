"""A gloo process group that cannot connect its ranks when it is created.

Multi-node starts create gloo groups beside the device groups (torch's CPU groups, the side
groups serving frameworks build), and each pair of ranks must connect. When one cannot, the
creation fails with the transport's reason in brackets, often empty. The excerpts follow the
real shapes (torch's `[rankN]:` traceback prefixes, a Ray worker's wrapper lines) with values
of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

MESH_FAILED = """\
[rank2]:   File "/usr/local/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 1602, in _new_process_group_helper
[rank2]:     backend_class = ProcessGroupGloo(backend_prefix_store, group_rank, group_size, timeout=timeout)
[rank2]: RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error
(RayWorkerWrapper pid=40117) ERROR 03-14 09:21:55 worker_base.py:467] Error executing method init_device. This might cause deadlock in distributed execution.
(RayWorkerWrapper pid=40117) ERROR 03-14 09:21:55 worker_base.py:467] Traceback (most recent call last):
"""


def test_a_mesh_that_did_not_connect_is_the_first_error_of_the_start() -> None:
    diagnosis = diagnose_text("worker.log", MESH_FAILED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Gloo connectFullMesh failed",
        rule="hccl.gloo_full_mesh_failed",
    )
    assert diagnosis.confidence >= 0.5


def test_a_refused_peer_inside_the_mesh_failure_is_still_the_same_failure() -> None:
    text = MESH_FAILED.replace(
        "pair.cc:144] no error", "pair.cc:799] connect [10.4.0.9]:40231: Connection refused"
    )
    diagnosis = diagnose_text("worker.log", text)
    assert_reads(diagnosis, "hccl", first_error="connectFullMesh failed")


def test_a_mesh_that_connected_is_not_a_failure() -> None:
    text = (
        "[I314 09:21:50.101022311 ProcessGroupGloo.cpp:151] Gloo connectFullMesh done in 2.1s "
        "for 16 ranks\n"
        "[rank2]: RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 2; 60.97 GiB "
        "total capacity; 58.31 GiB already allocated)\n"
    )
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.category == "oom"
    assert "hccl.gloo_full_mesh_failed" not in rules_of(diagnosis)


def test_a_mesh_that_did_not_connect_offers_the_address_settings_beside_it() -> None:
    # docs/labelling.md#a-communicator-that-could-not-be-created: the address a rank hands its
    # peers comes from GLOO_SOCKET_IFNAME or the host's own name, so `config` and
    # `driver_env` are offered beside the failed mesh.
    diagnosis = diagnose_text("worker.log", MESH_FAILED)
    assert diagnosis.category == "hccl"
    assert alternative_labels(diagnosis)[:2] == ["config", "driver_env"]
