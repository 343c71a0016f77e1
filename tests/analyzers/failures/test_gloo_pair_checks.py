"""gloo's own checks on the pairs of a process group, worded as its enforce failures.

Three classes of a gloo group that cannot be used, each a start-up failure of the
communication layer (docs/labelling.md#a-communicator-that-could-not-be-created):

- a pair whose two ends hold addresses of different families, IPv4 on one host and IPv6 on
  the other (`address family mismatch`, later `ss1.ss_family == ss2.ss_family. 2 vs 10`);
- a collective that needs a pair the group's context does not hold (`missing connection
  between rank 0 (thisprocess) and rank 0`);
- a socket call of gloo's TCP transport that failed with no errno text after the check
  (`rv != -1. -1`), unlike the same check followed by the call's name and reason.

Fixtures follow the shapes of torch tracebacks and of a C++ `terminate called` tail, with
paths, ranks and line numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

FAMILY_MISMATCH = r"""Traceback (most recent call last):
  File "/srv/job/train.py", line 41, in <module>
    dist.init_process_group("gloo", rank=args.rank, world_size=2)
  File "/srv/venv/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 455, in init_process_group
    barrier()
RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:207] address family mismatch
"""


def test_an_address_family_mismatch_is_a_pair_that_could_not_connect() -> None:
    diagnosis = diagnose_text("train.log", FAMILY_MISMATCH)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="address family mismatch",
        rule="hccl.gloo_address_family_mismatch",
    )
    assert {"config", "driver_env"} <= set(alternative_labels(diagnosis))


def test_the_newer_wording_names_the_two_families() -> None:
    text = (
        "[rank1]: RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/"
        "pair.cc:521] ss1.ss_family == ss2.ss_family. 2 vs 10\n"
    )
    diagnosis = diagnose_text("rank1.log", text)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert "hccl.gloo_address_family_mismatch" in rules_of(diagnosis)


def test_the_store_warning_about_an_unsupported_family_is_not_a_mismatch() -> None:
    text = (
        "[W socket.cpp:401] [c10d] The server socket cannot be initialized on [::]:29611 "
        "(errno: 97 - Address family not supported by protocol).\n"
        "step 10 loss 2.31\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "hccl.gloo_address_family_mismatch" not in rules_of(diagnosis)


MISSING_PAIR = r"""Traceback (most recent call last):
  File "/srv/job/main.py", line 88, in average_gradients
    dist.all_reduce(param.grad.data, op=dist.ReduceOp.SUM)
  File "/srv/venv/lib/python3.6/site-packages/torch/distributed/distributed_c10d.py", line 838, in all_reduce
    work.wait()
RuntimeError: [enforce fail at /pytorch/third_party/gloo/gloo/allreduce.cc:29] context->getPair(recvRank). missing connection between rank 2 (thisprocess) and rank 3
"""


def test_a_collective_missing_a_pair_of_the_group_is_the_communication_layer() -> None:
    diagnosis = diagnose_text("rank2.log", MISSING_PAIR)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="missing connection between rank 2",
        rule="hccl.gloo_missing_pair",
    )
    assert "config" in alternative_labels(diagnosis)


def test_a_count_of_connected_peers_is_no_missing_pair() -> None:
    text = "[Gloo] Rank 2 is connected to 3 peer ranks. Expected number of connected peer ranks is : 3\n"
    diagnosis = diagnose_text("rank2.log", text)
    assert "hccl.gloo_missing_pair" not in rules_of(diagnosis)


SOCKET_CALL = r"""terminate called after throwing an instance of 'gloo::EnforceNotMet'
  what():  [enforce fail at /pytorch/third_party/gloo/gloo/transport/tcp/device.cc:254] rv != -1. -1
Aborted (core dumped)
"""


def test_a_transport_socket_call_without_a_reason_is_the_communication_layer() -> None:
    diagnosis = diagnose_text("worker0.log", SOCKET_CALL)
    assert_reads(diagnosis, "hccl", first_error="rv != -1", rule="hccl.gloo_socket_call_failed")
    assert "driver_env" in alternative_labels(diagnosis)


def test_the_same_check_with_the_calls_reason_keeps_its_own_reading() -> None:
    text = (
        "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/pair.cc:210] "
        "rv != -1. -1 vs -1. accept: Too many open files\n"
    )
    diagnosis = diagnose_text("rank3.log", text)
    assert "hccl.gloo_socket_call_failed" not in rules_of(diagnosis)
    assert "env.comm_socket_fd_limit" in rules_of(diagnosis)
