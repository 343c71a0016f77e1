"""A launcher agent that waits for the other nodes' agents after its own workers ended.

docs/labelling.md#an-agent-that-waits-at-the-exit-barrier: torchrun's agent waits on the
rendezvous store at the end until every other agent arrives. When one never does it logs
`Error waiting on exit barrier` and the store's timeout under it. After one of its own children
failed, that is the agent's wind-down and the child's record keeps its reading; alone, it says
another node's agent never finished. Values are our own, in the agent's real wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

BARRIER = """\
(node-0 pid=4410) ERROR:torch.distributed.elastic.agent.server.api:Error waiting on exit barrier. Elapsed: 300.0917 seconds
(node-0 pid=4410) Traceback (most recent call last):
(node-0 pid=4410)   File "/usr/lib/python3/dist-packages/torch/distributed/elastic/agent/server/api.py", line 906, in _exit_barrier
(node-0 pid=4410)     store_util.barrier(
(node-0 pid=4410)   File "/usr/lib/python3/dist-packages/torch/distributed/elastic/utils/store.py", line 67, in barrier
(node-0 pid=4410)     synchronize(store, data, rank, world_size, key_prefix, barrier_timeout)
(node-0 pid=4410)   File "/usr/lib/python3/dist-packages/torch/distributed/elastic/utils/store.py", line 31, in get_all
(node-0 pid=4410)     data = store.get(f"{prefix}{idx}")
(node-0 pid=4410) RuntimeError: Socket Timeout
"""

CHILD_ABORTED_THEN_BARRIER = (
    """\
(node-0 pid=4410) epoch 4 step 1200 loss 0.71
(node-1 pid=9120, ip=10.2.0.8) epoch 4 step 1200 loss 0.70
(node-0 pid=4410) ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 0 (pid: 4522) of binary: /usr/bin/python3
"""
    + BARRIER
)

WORKERS_DONE_THEN_BARRIER = (
    """\
(node-0 pid=4410) INFO:torch.distributed.elastic.agent.server.api:Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish
"""
    + BARRIER
)

# Counterexample: the barrier that completes.
BARRIER_DONE = """\
INFO:torch.distributed.elastic.agent.server.api:Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish
INFO:torch.distributed.elastic.agent.server.api:Done waiting for other agents. Elapsed: 12.5 seconds
"""


def test_a_barrier_timeout_after_a_child_aborted_yields_to_the_childs_record() -> None:
    diagnosis = diagnose_text("sky_launch.log", CHILD_ABORTED_THEN_BARRIER)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="failed (exitcode: -6) local_rank: 0",
        beside=("hccl",),
    )


def test_a_barrier_timeout_after_workers_that_finished_is_another_nodes_agent() -> None:
    diagnosis = diagnose_text("sky_launch.log", WORKERS_DONE_THEN_BARRIER)
    assert_reads(diagnosis, "hccl", first_error="Error waiting on exit barrier")
    assert {"hang", "device_fault"} & {a.category for a in diagnosis.alternatives}


def test_a_barrier_that_completes_is_no_error() -> None:
    diagnosis = diagnose_text("launcher.log", BARRIER_DONE)
    assert diagnosis.first_error is None or "Done waiting" not in diagnosis.first_error.text


# docs/labelling.md#an-agent-that-waits-at-the-exit-barrier, the store that went away: node 1's
# ranks ended their (shorter) epoch and left; node 0's ranks lost them in the next all-reduce and
# exited, and node 0's agent, which hosts the rendezvous store, ended with them. Node 1's agent
# was waiting at the exit barrier: the store's end closed under it after 3.7 s, nowhere near the
# barrier's timeout. Its headline then says the store's host went away, the consequence of
# node 0's failure, not a node that never came.
NODE0_RANK = {
    "job/node0/logs/log_1.log": """\
2026-12-03 10:15:30,112 [rank1] INFO step 4 done
2026-12-03 10:15:30,160 [rank1] INFO   forward passed
2026-12-03 10:15:35,640 [rank1] ERROR model run failed: [/opt/gloo/transport/tcp/pair.cc:553] Connection closed by peer [10.1.0.12]:40311. This is typically caused by a remote worker crashing.
""",
}
NODE1_CONSOLE = """\
I1203 10:15:37.755000 3120 torch/distributed/elastic/agent/server/api.py:955] [default] worker group successfully finished. Waiting 300 seconds for other agents to finish.
E1203 10:15:41.477000 3120 torch/distributed/elastic/agent/server/api.py:1008] Error waiting on exit barrier. Elapsed: 3.721925973892212 seconds
E1203 10:15:41.477000 3120 torch/distributed/elastic/agent/server/api.py:1008] Traceback (most recent call last):
E1203 10:15:41.477000 3120 torch/distributed/elastic/agent/server/api.py:1008]   File "/usr/lib/python3/dist-packages/torch/distributed/elastic/agent/server/api.py", line 994, in _exit_barrier
E1203 10:15:41.477000 3120 torch/distributed/elastic/agent/server/api.py:1008]     store_util.barrier(
E1203 10:15:41.477000 3120 torch/distributed/elastic/agent/server/api.py:1008]   File "/usr/lib/python3/dist-packages/torch/distributed/elastic/utils/store.py", line 201, in barrier
E1203 10:15:41.477000 3120 torch/distributed/elastic/agent/server/api.py:1008]     store.wait([last_member_key])
E1203 10:15:41.477000 3120 torch/distributed/elastic/agent/server/api.py:1008] torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?
"""
# Counterexample: the same headline over the store's timeout, after 300 s, is a node that never
# came to the barrier, and stays the first error ahead of an earlier lost connection elsewhere.
NODE1_CONSOLE_TIMEOUT = NODE1_CONSOLE.replace(
    "Elapsed: 3.721925973892212 seconds", "Elapsed: 300.0917 seconds"
).replace(
    "torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?",
    "torch.distributed.DistStoreError: Socket Timeout",
)


def test_a_barrier_whose_store_went_away_yields_to_the_other_nodes_lost_peer() -> None:
    diagnosis = diagnose_files({**NODE0_RANK, "job/node1/launcher.log": NODE1_CONSOLE})
    assert_reads(diagnosis, "hccl", first_error="Connection closed by peer [10.1.0.12]:40311")


def test_a_barrier_that_ran_out_keeps_its_headline() -> None:
    diagnosis = diagnose_files({**NODE0_RANK, "job/node1/launcher.log": NODE1_CONSOLE_TIMEOUT})
    assert_reads(diagnosis, "hccl", first_error="Error waiting on exit barrier")
