"""A process that never got through to the rendezvous store is told how to reach it.

docs/labelling.md#a-rank-that-never-reached-the-store: a client whose connect to the store timed
out, whose network had no route to the store's host, or whose launcher wrapped that failure as
`RendezvousConnectionError`, ran no collective yet. The category's advice (compare the ranks'
collectives, check group creation) does not help there; the first action names the store's
address, the process that hosts it and the path to it. A store that was reached but whose wait
ran out keeps the category's advice. Hosts, ports and timeouts are our own, in torch's wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

AGENT_CONNECT_TIMED_OUT = """\
*****************************************
Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid \
your system being overloaded, please further tune the variable for optimal performance in \
your application as needed.
*****************************************
[E socket.cpp:860] [c10d] The client socket has timed out after 90s while trying to connect to 10.20.3.7:29400
torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d \
store has failed. See inner exception for details.
"""

WORKER_WITHOUT_ROUTE = """\
[rank3]:[W1205 08:14:02.551208734 socket.cpp:755] [c10d] The client socket has failed to \
connect to [trainer-0.train.svc.cluster.local]:29500 (errno: 113 - No route to host).
[rank3]:[W1205 08:14:04.553118201 socket.cpp:755] [c10d] The client socket has failed to \
connect to [trainer-0.train.svc.cluster.local]:29500 (errno: 113 - No route to host).
"""

WRAPPER_ALONE = """\
  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py", line 183, in _create_tcp_store
    raise RendezvousConnectionError(
torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d \
store has failed. See inner exception for details.
"""

# Counterexample: the store answered; the wait for a peer's key ran out inside it.
STORE_WAIT_RAN_OUT = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/job/train.py", line 41, in <module>
[rank1]:     dist.init_process_group("nccl")
[rank1]: torch.distributed.DistStoreError: wait timeout after 1800000ms, keys: /default_pg/0//cuda//0
"""

STORE_ADVICE = "could not connect to the rendezvous store"


def test_a_connect_that_timed_out_is_told_to_check_the_store_and_the_path_to_it() -> None:
    diagnosis = diagnose_text("torchrun_node1.log", AGENT_CONNECT_TIMED_OUT)
    assert_reads(diagnosis, "hccl", first_error="client socket has timed out")
    assert STORE_ADVICE in diagnosis.next_actions[0]
    assert "MASTER_ADDR" in diagnosis.next_actions[0]


def test_a_store_host_with_no_route_gets_the_same_first_advice() -> None:
    diagnosis = diagnose_text("worker-3.log", WORKER_WITHOUT_ROUTE)
    assert diagnosis.category == "hccl"
    assert STORE_ADVICE in diagnosis.next_actions[0]


def test_the_launchers_wrapper_alone_gets_the_same_first_advice() -> None:
    diagnosis = diagnose_text("torchrun_node1.log", WRAPPER_ALONE)
    assert diagnosis.category == "hccl"
    assert STORE_ADVICE in diagnosis.next_actions[0]


def test_a_wait_inside_a_store_that_answered_is_not_told_to_reach_it() -> None:
    diagnosis = diagnose_text("rank1.log", STORE_WAIT_RAN_OUT)
    assert diagnosis.category == "hccl"
    assert not any(STORE_ADVICE in action for action in diagnosis.next_actions)
