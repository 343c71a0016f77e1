"""A rank whose read of the communicator's unique id from the c10d store lost its connection.

torch (and torch_npu for HCCL) names the read when it fails: `[N] is setting up NCCL
communicator and retrieving ncclUniqueId from [0] via c10d key-value store ... got error:
<reason>`. A closed connection as the reason means the process serving the store went away
under the read: a wait on a lost peer, `hccl` with `device_fault` beside it, outranked by that
peer's own failure; a timeout as the reason stays the store wait
(docs/labelling.md#a-peer-that-stopped-answering). Excerpts in the real shapes (a serving
engine's worker traceback behind its worker tag, torchrun's `[rankN]:` prefix), values of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

RULE = "hccl.unique_id_store_lost"

WORKER_LOST_STORE = """\
(Worker pid=40112) ERROR 03-02 08:15:27 [worker.py:77] Traceback (most recent call last):
(Worker pid=40112) ERROR 03-02 08:15:27 [worker.py:77]   File "/opt/app/engine/parallel.py", line 214, in warm_up
(Worker pid=40112) ERROR 03-02 08:15:27 [worker.py:77]     dist.all_reduce(probe, group=self.device_group)
(Worker pid=40112) ERROR 03-02 08:15:27 [worker.py:77]   File "/usr/local/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2501, in all_reduce
(Worker pid=40112) ERROR 03-02 08:15:27 [worker.py:77]     work = group.allreduce([tensor], opts)
(Worker pid=40112) ERROR 03-02 08:15:27 [worker.py:77] RuntimeError: [3] is setting up HCCL communicator and retrieving hcclUniqueId from [0] via c10d key-value store by key '2', but store->get('2') got error: failed to recv, got 0 bytes
"""

TORCHRUN_LOST_STORE = """\
[rank5]: Traceback (most recent call last):
[rank5]:   File "/srv/train/pretrain.py", line 61, in <module>
[rank5]:     dist.barrier()
[rank5]:   File "/usr/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 4159, in barrier
[rank5]:     work = group.barrier(opts=opts)
[rank5]: torch.distributed.DistBackendError: [5] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer. This may indicate a possible application crash on rank 0 or a network set up issue.
"""

RANK0_OWN_FAILURE = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/train/pretrain.py", line 48, in <module>
[rank0]:     model = build_model(cfg).cuda()
[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 39.39 GiB of which 1.12 GiB is free.
"""


def test_a_worker_that_lost_the_store_under_the_hccl_id_read_is_a_lost_peer() -> None:
    diagnosis = diagnose_text("worker.log", WORKER_LOST_STORE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="retrieving hcclUniqueId from [0]",
        rule=RULE,
        beside=("device_fault",),
    )


def test_torchruns_nccl_wording_with_a_reset_connection_is_read_the_same() -> None:
    diagnosis = diagnose_text("rank5.log", TORCHRUN_LOST_STORE)
    assert_reads(diagnosis, "hccl", first_error="got error: Connection reset by peer", rule=RULE)


def test_the_store_hosts_own_failure_outranks_the_lost_read() -> None:
    diagnosis = diagnose_files({"rank0.log": RANK0_OWN_FAILURE, "rank5.log": TORCHRUN_LOST_STORE})
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


def test_a_timed_out_id_read_stays_the_store_wait() -> None:
    text = TORCHRUN_LOST_STORE.replace(
        "Connection reset by peer. This may indicate a possible application crash on rank 0 "
        "or a network set up issue.",
        "Socket Timeout",
    )
    diagnosis = diagnose_text("rank5.log", text)
    assert diagnosis.category == "hccl"
    assert RULE not in rules_of(diagnosis)
    assert "hccl.store_timeout" in rules_of(diagnosis)


# A rollout engine joining a trainer's weight-update group: the store's socket was no longer
# connected when torch came to describe it, so the read's reason is torch's own complaint that
# the socket's address has no family.
ENGINE_UNDESCRIBABLE_STORE_SOCKET = """\
1: [2026-01-14 09:12:40 TP2] Scheduler hit an exception: Traceback (most recent call last):
1:   File "/opt/engine/runtime/model_runner.py", line 512, in init_weights_update_group
1:     dist.barrier(group=self._model_update_group, device_ids=[self.gpu_id])
1:   File "/usr/local/lib/python3.11/dist-packages/torch/distributed/distributed_c10d.py", line 4159, in barrier
1:     work = group.barrier(opts=opts)
1: torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: failed to format addr, unknown family=0
"""


def test_a_store_socket_torch_could_not_describe_is_the_same_lost_read() -> None:
    diagnosis = diagnose_text("engine.log", ENGINE_UNDESCRIBABLE_STORE_SOCKET)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="got error: failed to format addr, unknown family=0",
        rule=RULE,
        beside=("device_fault",),
    )
