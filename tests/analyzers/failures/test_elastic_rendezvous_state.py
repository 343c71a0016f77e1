"""torch.distributed.elastic jobs whose rendezvous state or store cannot be had.

Two classes: a worker whose connect to the store the network answers (no route to the host,
an unreachable network; docs/labelling.md#a-rendezvous-host-with-no-address), and an etcd
rendezvous that reads one of its own keys and finds it missing
(docs/labelling.md#a-rendezvous-key-that-is-not-there). The excerpts follow the real shapes
(the elastic agent's Python logging, c10d's socket warnings, python-etcd's traceback) with
values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of

# The etcd rendezvous completes and names the first pod as the store host; the second pod's
# worker cannot route to it and retries until the log ends.
NO_ROUTE = """\
INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous complete for workers. Result:
  restart_count=0
  master_addr=trainer-0
  master_port=38211
  group_rank=1
  group_world_size=2
INFO:torch.distributed.elastic.agent.server.api:[default] Starting worker group
INFO:torch.distributed.elastic.multiprocessing:Setting worker0 reply file to: /tmp/torchelastic_a1/run_b2/attempt_0/0/error.json
[W socket.cpp:601] [c10d] The client socket has failed to connect to [trainer-0.jobs.svc.cluster.local]:38211 (errno: 113 - No route to host).
[W socket.cpp:601] [c10d] The client socket has failed to connect to trainer-0.jobs.svc.cluster.local:38211 (errno: 113 - No route to host).
"""

# The normal start-up race: the store was not listening yet, and the job went on.
REFUSED_THEN_RUNNING = """\
[W socket.cpp:697] [c10d] The client socket has failed to connect to [trainer-0]:38211 (errno: 111 - Connection refused).
2026-12-04 10:02:11,004 [rank1] INFO epoch 0 step 10 loss 2.31
"""

# An agent of a modified etcd rendezvous reads a key of the round that nobody wrote.
ETCD_KEY_MISSING = """\
INFO 2026-12-04 09:41:12,301 Attempting to join next rendezvous
  File "/opt/venv/lib/python3.10/site-packages/etcd/client.py", line 595, in read
    response = self.api_execute(
  File "/opt/venv/lib/python3.10/site-packages/etcd/__init__.py", line 306, in handle
    raise exc(msg, payload)
etcd.EtcdKeyNotFound: Key not found : /torchelastic/p2p/run_7d1e/rdzv/round_plan
INFO 2026-12-04 09:41:13,055 Attempting to join next rendezvous
"""


def test_a_store_host_with_no_route_is_the_first_error() -> None:
    diagnosis = diagnose_text("worker-1.log", NO_ROUTE)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "errno: 113 - No route to host" in diagnosis.first_error.text
    assert "[trainer-0.jobs.svc.cluster.local]:38211" in diagnosis.first_error.text
    assert "hccl.store_no_route" in rules_of(diagnosis)
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_refused_connect_during_start_up_is_not_a_missing_route() -> None:
    diagnosis = diagnose_text("worker-1.log", REFUSED_THEN_RUNNING)
    assert "hccl.store_no_route" not in rules_of(diagnosis)


def test_a_missing_etcd_rendezvous_key_is_the_first_error() -> None:
    diagnosis = diagnose_text("agent.log", ETCD_KEY_MISSING)
    assert diagnosis.category == "other", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "Key not found : /torchelastic/p2p/run_7d1e/rdzv/round_plan" in (
        diagnosis.first_error.text
    )
    assert "other.etcd_rendezvous_key_missing" in rules_of(diagnosis)
    assert "hccl" in {alt.category for alt in diagnosis.alternatives}


def test_a_missing_key_of_another_program_is_not_the_rendezvous() -> None:
    text = ETCD_KEY_MISSING.replace("/torchelastic/p2p/run_7d1e/rdzv/round_plan", "/app/flags/x")
    diagnosis = diagnose_text("agent.log", text)
    assert "other.etcd_rendezvous_key_missing" not in rules_of(diagnosis)
