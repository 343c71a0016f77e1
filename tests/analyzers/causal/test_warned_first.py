"""The earliest warning of the rule that reads the first error leads it
(docs/labelling.md#a-failure-warned-about-before-it-was-raised)."""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

WARNED_TWICE_THEN_RAISED = """\
2025-04-10 08:00:01,100 WARNING [train.py:900] (0/2) Grad scale is small: 0.0009765625
2025-04-10 08:00:05,100 WARNING [train.py:900] (1/2) Grad scale is small: 0.00048828125
RuntimeError: grad_scale is too small, exiting: 1.52587890625e-05
"""

OTHER_FAILURE_IN_BETWEEN = """\
2025-04-10 08:00:01,100 WARNING [train.py:900] (0/2) Grad scale is small: 0.0009765625
RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 39.39 GiB total capacity)
RuntimeError: grad_scale is too small, exiting: 1.52587890625e-05
"""


def test_the_first_of_several_warnings_leads() -> None:
    diagnosis = diagnose_text("train.log", WARNED_TWICE_THEN_RAISED)
    assert diagnosis.first_error is not None
    assert "0.0009765625" in diagnosis.first_error.text


def test_a_failure_of_another_rule_in_between_keeps_its_place() -> None:
    diagnosis = diagnose_text("train.log", OTHER_FAILURE_IN_BETWEEN)
    assert diagnosis.first_error is not None
    assert "Grad scale is small" not in diagnosis.first_error.text


# torch's RPC agent warns with the peer and the reason, then the call raises the reason; a
# pasted traceback cut short keeps only the start of that reason (values our own).
AGENT_WARNED_THEN_CUT_RAISE = """\
[W tensorpipe_agent.cpp:641] RPC agent for learner encountered error when sending outgoing request #3 to actor2: ETIMEDOUT: connection timed out
Traceback (most recent call last):
  File "/srv/rl/learner.py", line 77, in <module>
    rpc.rpc_sync("actor2", step, args=(k,))
RuntimeError: ETIMEDOUT: conne
"""

# Counterexample: the raise names another reason than the warning did, so it is no copy.
AGENT_WARNED_THEN_OTHER_RAISE = """\
[W tensorpipe_agent.cpp:641] RPC agent for learner encountered error when sending outgoing request #3 to actor2: ETIMEDOUT: connection timed out
RuntimeError: ECONNREFUSED: connection refused
"""


def test_a_raise_cut_short_still_restates_the_warning_before_it() -> None:
    diagnosis = diagnose_text("learner.log", AGENT_WARNED_THEN_CUT_RAISE)
    assert_reads(diagnosis, "hccl", first_error="RPC agent for learner encountered error")
    assert diagnosis.first_error.line == 1


def test_a_raise_of_another_reason_is_no_copy_of_the_warning() -> None:
    diagnosis = diagnose_text("learner.log", AGENT_WARNED_THEN_OTHER_RAISE)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 2


# c10d's own lookup warning, then the connect timeout to the same endpoint (values our own):
# the name never resolved, so the connect had no address to try.
LOOKUP_THEN_CONNECT = """\
[W1204 09:10:01.100200300 socket.cpp:764] [c10d] The IPv6 network addresses of (ranker-master-1.ranker.svc, 39110) cannot be retrieved (gai error: -2 - Name or service not known).
[W1204 09:10:02.400500600 socket.cpp:764] [c10d] The IPv6 network addresses of (ranker-master-1.ranker.svc, 39110) cannot be retrieved (gai error: -2 - Name or service not known).
[E1204 09:10:11.100200300 socket.cpp:1028] [c10d] The client socket has timed out after 10000ms while trying to connect to (ranker-master-1.ranker.svc, 39110).
"""

# The lookup that failed is another host's (a metrics sidecar), not the store the connect aimed
# at: the connect timeout keeps its place.
LOOKUP_OF_ANOTHER_HOST = """\
[W1204 09:10:01.100200300 socket.cpp:764] [c10d] The IPv6 network addresses of (metrics-agent.monitoring, 9091) cannot be retrieved (gai error: -2 - Name or service not known).
[E1204 09:10:11.100200300 socket.cpp:1028] [c10d] The client socket has timed out after 10000ms while trying to connect to (10.4.0.7, 39110).
"""

# A launcher that retried the lookup until it was stopped left nothing else.
LOOKUP_ONLY = """\
[W1204 09:10:01.100200300 socket.cpp:764] [c10d] The IPv6 network addresses of (node-07.cluster.lcoal, 29400) cannot be retrieved (gai error: -2 - Name or service not known).
[W1204 09:10:04.100200300 socket.cpp:764] [c10d] The IPv6 network addresses of (node-07.cluster.lcoal, 29400) cannot be retrieved (gai error: -2 - Name or service not known).
[W1204 09:10:11.100200300 socket.cpp:764] [c10d] The IPv6 network addresses of (node-07.cluster.lcoal, 29400) cannot be retrieved (gai error: -2 - Name or service not known).
"""


def test_a_connect_to_a_host_whose_lookup_failed_is_led_by_the_lookup() -> None:
    diagnosis = diagnose_text("stdout.log", LOOKUP_THEN_CONNECT)
    assert_reads(diagnosis, "hccl", first_error="cannot be retrieved")
    assert diagnosis.first_error.line == 1


def test_a_lookup_of_another_endpoint_does_not_lead_the_connect() -> None:
    diagnosis = diagnose_text("stdout.log", LOOKUP_OF_ANOTHER_HOST)
    assert diagnosis.first_error is not None
    assert "client socket has timed out" in diagnosis.first_error.text


def test_lookup_warnings_alone_are_the_unresolved_host() -> None:
    diagnosis = diagnose_text("console.log", LOOKUP_ONLY)
    assert diagnosis.category == "hccl"
    assert {alt.category for alt in diagnosis.alternatives} >= {"config"}
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 1


# One process per rank, plain prints with the time of day (torch 2.13, gloo, values our own):
# rank 1's loss is NaN at step 1, its loop warns and skips backward, so it leaves out the
# gradient all_reduces its peers enter; they all time out 6 s later.
def _skipping_job(warned_at: str) -> dict[str, str]:
    timeout = (
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "unbound_buffer.cc:78] Timed out waiting 6000ms for recv operation to complete"
    )
    files = {}
    for rank in range(4):
        lines = [
            f"[01:47:24] rank{rank}: init process group: backend=gloo rank={rank} world_size=4",
            f"[01:47:29] rank{rank}: prefill start: 8 tokens",
            f"[01:47:29] rank{rank}: layer 0 passed",
            f"[01:47:29] rank{rank}: layer 1 passed",
        ]
        if rank == 1:
            lines.append(
                f"[{warned_at}] rank1: WARNING: step 1: loss is nan, skipping backward and "
                "optimizer step on this rank"
            )
            lines += [
                "[01:47:30] rank1: prefill start: 8 tokens",
                "[01:47:30] rank1: layer 0 passed",
            ]
        lines += [
            f"[01:47:36] rank{rank}: model run failed",
            f"[rank{rank}]: Traceback (most recent call last):",
            f'[rank{rank}]:   File "/srv/sft/train.py", line 201, in main',
            f"[rank{rank}]:     dist.all_reduce(prm.grad)",
            f"[rank{rank}]: {timeout}",
        ]
        files[f"sft-rerun/worker-{rank}.txt"] = "\n".join(lines) + "\n"
    return files


def test_a_rank_that_skipped_its_step_leads_the_waits_that_followed() -> None:
    diagnosis = diagnose_files(_skipping_job("01:47:30"))
    assert_reads(diagnosis, "other", first_error="loss is nan, skipping backward")
    assert diagnosis.culprit_ranks == [1]


def test_a_skip_noticed_after_the_waits_does_not_lead_them() -> None:
    """Counterexample: Python logging with dates; the peers' failures come 19 s before rank 1's
    notice (rank 1 ran on with a longer timeout and skipped a later step): the notice is no
    cause of the waits."""
    timeout = (
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "unbound_buffer.cc:78] Timed out waiting 6000ms for recv operation to complete"
    )
    files = {}
    for rank in range(4):
        lines = [f"2026-12-05 01:47:29,10{n} INFO [rank{rank}] layer {n} passed" for n in range(3)]
        if rank == 1:
            lines.append(
                "2026-12-05 01:47:55,210 WARNING [rank1] step 4: loss is nan, skipping backward and "
                "optimizer step on this rank"
            )
        else:
            lines.append(f"2026-12-05 01:47:36,420 ERROR [rank{rank}] model run failed: {timeout}")
        files[f"sft-rerun/worker-{rank}.txt"] = "\n".join(lines) + "\n"
    diagnosis = diagnose_files(files)
    assert diagnosis.first_error is not None
    assert "Timed out waiting" in diagnosis.first_error.text


# torch_npu raises the failed synchronize with the runtime's code; the runtime's record of a
# wait that returned the same code follows, from the synchronize on the way out (values ours).
SYNC_HEADLINE_THEN_RECORD = """\
RuntimeError: operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:25 NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507035
[ERROR] 2026-03-02-11:20:05 (PID:4410, Device:2, RankID:-1) ERR00100 PTA call acl api failed
[Error]: The vector core execution is abnormal.
        wait for compute device to finish failed, runtime result = 507035.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
 (function npuSynchronizeUsedDevices)
EH9999: [PID: 4410] 2026-03-02-11:20:05.310.200 wait for compute device to finish failed, runtime result = 507035.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
"""

# The headline gave up waiting (107020); the record after it names a core that failed: another
# failure, which keeps its place.
SYNC_HEADLINE_OTHER_CODE = SYNC_HEADLINE_THEN_RECORD.replace(
    "copy_stream), error code is 507035", "copy_stream), error code is 107020"
)


def test_a_synchronize_headline_leads_the_runtime_record_of_the_same_code() -> None:
    """docs/labelling.md#code-only-synchronize-failures"""
    diagnosis = diagnose_text("run.log", SYNC_HEADLINE_THEN_RECORD)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="AclrtSynchronizeStreamWithTimeout(copy_stream)"
    )


def test_a_runtime_record_of_another_code_keeps_its_place() -> None:
    diagnosis = diagnose_text("run.log", SYNC_HEADLINE_OTHER_CODE)
    assert diagnosis.first_error is not None
    assert "runtime result = 507035" in diagnosis.first_error.text


# The same, with the ACL wrapper's wording for the headline.
ACL_HEADLINE_THEN_RECORD = """\
[rank2]: RuntimeError: ACL stream synchronize failed, error code:507014
[rank2]: EH9999: [PID: 9120] 2026-03-02-11:20:05.310.200 wait for compute device to finish failed, runtime result = 507014.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
"""


def test_the_acl_wording_of_the_headline_leads_as_well() -> None:
    diagnosis = diagnose_text("rank2.log", ACL_HEADLINE_THEN_RECORD)
    assert_reads(diagnosis, "aicore_timeout", first_error="ACL stream synchronize failed")


# c10d's per-address warnings with the network's answer, then its summary error and the
# client's give-up, all for one endpoint (values our own): the host has no route from here,
# so the first warning says why every later line failed. The warnings write the endpoint as
# `[host]:port`, IPv4-mapped or bare; the summary as `(host, port)`.
NO_ROUTE_THEN_SUMMARY = """\
2026-12-06 10:21:16,669 INFO  [rank 2] train: init process group: backend=gloo rank=2 world_size=4
[W1206 10:21:19.120715366 socket.cpp:764] [c10d] The client socket has failed to connect to [::ffff:10.9.4.201]:41230 (errno: 113 - No route to host).
[W1206 10:21:22.192670819 socket.cpp:764] [c10d] The client socket has failed to connect to 10.9.4.201:41230 (errno: 113 - No route to host).
[E1206 10:21:22.192696727 socket.cpp:818] [c10d] The client socket has failed to connect to any network address of (10.9.4.201, 41230).
[E1206 10:21:29.948808881 TCPStore.cpp:328] [c10d] TCP client failed to connect/validate to host 10.9.4.201:41230 - timed out (try=1, timeout=10000ms): The client socket has failed to connect to any network address of (10.9.4.201, 41230).
"""

# The warning is about another endpoint (a metrics push to a host on another network), the
# summary about the store: the summary keeps its place.
NO_ROUTE_OF_ANOTHER_ENDPOINT = """\
[W1206 10:21:19.120715366 socket.cpp:764] [c10d] The client socket has failed to connect to [::ffff:10.77.0.9]:9091 (errno: 113 - No route to host).
[E1206 10:21:22.192696727 socket.cpp:818] [c10d] The client socket has failed to connect to any network address of (10.9.4.201, 41230).
"""


def test_a_connect_summary_is_led_by_the_no_route_warning_for_its_endpoint() -> None:
    diagnosis = diagnose_text("log_2.log", NO_ROUTE_THEN_SUMMARY)
    assert_reads(diagnosis, "hccl", first_error="errno: 113 - No route to host", beside=["config"])
    assert diagnosis.first_error.line == 2


def test_a_no_route_warning_for_another_endpoint_does_not_lead_the_summary() -> None:
    diagnosis = diagnose_text("log_2.log", NO_ROUTE_OF_ANOTHER_ENDPOINT)
    assert diagnosis.first_error is not None
    assert "any network address of (10.9.4.201, 41230)" in diagnosis.first_error.text


def test_a_no_route_warning_that_leads_the_summary_keeps_the_summary_s_confidence() -> None:
    led = diagnose_text("log_2.log", NO_ROUTE_THEN_SUMMARY)
    summary_only = diagnose_text("log_2.log", NO_ROUTE_THEN_SUMMARY.split("\n", 3)[3])
    assert led.confidence >= summary_only.confidence


# A launcher agent whose store host went away: its store client logs the socket call that
# broke, and its next store call raises the bare reason (times and addresses our own).
AGENT_STORE_BROKE = """\
[W1207 18:41:16.208705724 TCPStore.cpp:115] [c10d] recvVector failed on SocketImpl(fd=3, addr=[::ffff:127.0.0.1]:39110, remote=[::ffff:127.0.0.1]:29912): Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?
W1207 18:41:17.027000 13105 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 13363 closing signal SIGTERM
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py", line 118, in _call_store
    return getattr(self._store, store_op)(*args, **kwargs)
torch.distributed.DistNetworkError: Broken pipe
"""

AGENT_RAISE_ONLY = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py", line 118, in _call_store
    return getattr(self._store, store_op)(*args, **kwargs)
torch.distributed.DistNetworkError: Broken pipe
"""


def test_the_store_client_s_warning_leads_its_process_s_bare_raise() -> None:
    diagnosis = diagnose_text("node1/agent.log", AGENT_STORE_BROKE)
    assert_reads(diagnosis, "hccl", first_error="recvVector failed on SocketImpl")


def test_another_process_s_store_warning_does_not_lead_the_raise() -> None:
    """Counterexample: the warning in another file is another process's call."""
    diagnosis = diagnose_files(
        {
            "node0/agent.log": AGENT_STORE_BROKE.split("\n", 1)[0] + "\n",
            "node1/agent.log": AGENT_RAISE_ONLY,
        }
    )
    assert diagnosis.first_error is not None
    assert "Broken pipe" in diagnosis.first_error.text
