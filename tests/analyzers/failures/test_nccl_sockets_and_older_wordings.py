"""NCCL's own socket warnings, and older torch wordings of the collective timeouts.

NCCL logs why it could not reach a peer (`socketStartConnect: Connect to ... failed`) before
torch raises its generic `unhandled system error`; that warning is the first error. Older
torch releases print the watchdog's timeout without a sequence number and time out a process
group's start in a store-based barrier; both are the same collective waits as today's
wordings (`hccl`, docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout).
NCCL's retries of a refused connect and the line that gives up on them are the same socket
connect failure; a log that ends in the retries is `hccl` with `hang` and `config` beside it
(docs/labelling.md#network-links-that-fail-under-a-collective). A torch 1.x `unhandled system
error` raised with no NCCL line before it is advised as a system call to find with
NCCL_DEBUG=INFO, not as collectives issued in different orders. NCCL's socket transport
receiving a longer message than the receiver posted is ranks that disagree on a send/recv or
collective's size (docs/labelling.md#a-rank-that-aborts-on-what-a-peer-sent): `hccl`, with
`hang` beside it, and the receiver that logged it is no culprit. Values of our own in the real
shapes.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

SOCKET_WARNINGS = """\
gpu-7:5120:5120 [2] NCCL INFO Bootstrap : Using eth0:10.20.0.7<0>
gpu-7:5120:5188 [2] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.20.0.9<39211> failed : Software caused connection abort
gpu-7:5120:5188 [2] NCCL INFO misc/socket.cc:564 -> 2
gpu-7:5120:5188 [2] proxy.cc:1519 NCCL WARN [Proxy Service 2] Failed to execute operation Connect from rank 2, retcode 2
gpu-7:5120:5177 [2] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer gpu-8<43117>
"""


def test_the_failed_connect_is_the_first_error_of_the_socket_warnings() -> None:
    diagnosis = diagnose_text("rank2.log", SOCKET_WARNINGS)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="socketStartConnect: Connect to 10.20.0.9",
        rule="hccl.nccl_socket_connect_failed",
    )


# One node's workers were killed; the survivor's NCCL only warns that the peer closed the
# socket, and nothing else in its log says what failed.
PEER_CLOSED_ALONE = """\
trainer-2:7012:7040 [0] NCCL INFO Channel 00 : 0[0] -> 1[0] [send] via NET/Socket/0
trainer-2:7012:7040 [0] include/socket.h:416 NCCL WARN Net : Connection closed by remote peer
trainer-2:7012:7040 [0] NCCL INFO transport/net_socket.cc:405 -> 2
trainer-2:7012:7040 [0] NCCL INFO include/net.h:28 -> 2
"""


def test_a_peer_closed_socket_alone_is_a_lost_peer_not_a_quiet_end() -> None:
    """docs/labelling.md#a-peer-that-stopped-answering"""
    diagnosis = diagnose_text("worker0.log", PEER_CLOSED_ALONE)
    assert_reads(
        diagnosis, "hccl", first_error="Connection closed by remote peer", beside=("device_fault",)
    )


def test_a_peer_closed_socket_stays_behind_the_failure_that_explains_it() -> None:
    """Counterexample: with the failed connect before it, the closure is its consequence."""
    diagnosis = diagnose_text("rank2.log", SOCKET_WARNINGS)
    assert diagnosis.first_error is not None
    assert "Connection closed by remote peer" not in diagnosis.first_error.text


def test_nccl_info_lines_alone_are_no_socket_failure() -> None:
    text = "\n".join(line for line in SOCKET_WARNINGS.splitlines() if "NCCL INFO" in line)
    diagnosis = diagnose_text("rank2.log", text + "\n")
    assert "hccl.nccl_socket_connect_failed" not in rules_of(diagnosis)


def test_an_older_watchdog_timeout_without_a_sequence_number_is_read() -> None:
    text = (
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  [Rank 2] Watchdog caught collective operation timeout: "
        "WorkNCCL(OpType=BROADCAST, Timeout(ms)=1800000) ran for 1803117 milliseconds before "
        "timing out.\n"
    )
    diagnosis = diagnose_text("rank2.log", text)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Watchdog caught collective operation timeout",
        rule="hccl.watchdog_timeout",
    )


BARRIER = """\
INFO:torch.distributed.distributed_c10d:Waiting in store based barrier to initialize process group for rank: 3, key: store_based_barrier_key:1 (world_size=16, worker_count=12, timeout=0:30:00)
RuntimeError: Timed out initializing process group in store based barrier on rank: 3, for key: store_based_barrier_key:1 (world_size=16, worker_count=12, timeout=0:30:00)
"""


def test_a_store_based_barrier_that_timed_out_is_the_store_wait() -> None:
    diagnosis = diagnose_text("rank3.log", BARRIER)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Timed out initializing process group",
        rule="hccl.store_timeout",
    )


def test_waiting_in_the_barrier_is_not_a_timeout() -> None:
    diagnosis = diagnose_text("rank3.log", BARRIER.splitlines()[0] + "\n")
    assert "hccl.store_timeout" not in rules_of(diagnosis)


def test_gloo_told_to_use_an_interface_the_host_lacks_is_the_collective_start() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/cpu_job/main.py", line 30, in <module>\n'
        '    dist.init_process_group("gloo")\n'
        "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:83] "
        "ifa != nullptr. Unable to find address for: ens5f1\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert_reads(
        diagnosis, "hccl", first_error="Unable to find address for: ens5f1", beside=("config",)
    )


def test_nccl_naming_the_interface_it_uses_is_no_failure() -> None:
    text = (
        "gpu-3:4410:4410 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ens5f1\n"
        "gpu-3:4410:4410 [0] NCCL INFO Bootstrap : Using ens5f1:10.4.0.3<0>\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert "hccl.comm_interface_not_found" not in rules_of(diagnosis)


UNHANDLED_CUDA = """\
[rank4]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2
[rank4]: ncclUnhandledCudaError: Call to CUDA function failed.
[rank4]: Last error:
[rank4]: Cuda failure 999 'unknown error'
"""


def test_the_cuda_answer_under_an_unhandled_cuda_error_names_a_failed_device() -> None:
    diagnosis = diagnose_text("rank4.log", UNHANDLED_CUDA)
    assert_reads(diagnosis, "device_fault", first_error="Cuda failure 999 'unknown error'")


def test_a_cuda_answer_about_the_call_stays_with_the_collective_layer() -> None:
    text = UNHANDLED_CUDA.replace(
        "Cuda failure 999 'unknown error'", "Cuda failure 1 'invalid argument'"
    )
    diagnosis = diagnose_text("rank4.log", text)
    assert diagnosis.category != "device_fault"
    assert "dev.cuda_device_failure" not in rules_of(diagnosis)


# NCCL's counted retries of a refused connect, far above the line that gives up on it (other
# threads' INFO lines between them), as a two-node launch with the wrong interface prints them.
_ROUND = (
    "trn-3:6120:6154 [5] NCCL INFO socketPollConnect: connect returned Connection refused, "
    "retrying ({n}/34) after sleep for {n}00 msec\n"
)
_CHANNELS = "".join(f"trn-3:6120:6120 [5] NCCL INFO Channel {i:02d}/32 : 0 1\n" for i in range(16))
RETRY_ROUNDS = "".join(_ROUND.format(n=n) for n in range(1, 18)) + _CHANNELS
RETRY_ROUNDS += "".join(_ROUND.format(n=n) for n in range(18, 35))
GIVE_UP = (
    "[2025-08-02 07:14:09] trn-3:6120:6154 [5] misc/socket.cc:544 NCCL WARN socketPollConnect: "
    "connect returned Connection refused, exceeded error retry count (35)\n"
    "trn-3:6120:6154 [5] NCCL INFO misc/socket.cc:635 -> 6\n"
    "trn-3:6120:6154 [5] NCCL INFO bootstrap.cc:605 -> 6\n"
)
# The older release logs every round in plain words and the log ends in them.
OLDER_ROUNDS = """\
node-b:22817:22817 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to lo
node-b:22817:22817 [0] NCCL INFO Bootstrap : Using [0]lo:127.0.0.1<0>
node-b:22817:22886 [0] NCCL INFO Call to connect returned Connection refused, retrying
node-b:22817:22886 [0] NCCL INFO Call to connect returned Connection refused, retrying
"""


def test_nccls_give_up_on_a_refused_connect_is_the_first_error_over_its_retry_rounds() -> None:
    diagnosis = diagnose_text("rank5.log", RETRY_ROUNDS + GIVE_UP)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="exceeded error retry count (35)",
        rule="hccl.nccl_socket_connect_failed",
    )


def test_the_give_up_repeated_under_last_error_is_read_over_torchs_exception() -> None:
    text = (
        "[rank5]: torch.distributed.DistBackendError: NCCL error in: "
        "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, remote process exited or there "
        "was a network error, NCCL version 2.27.3\n"
        "[rank5]: ncclRemoteError: A call failed possibly due to a network error or a remote "
        "process exiting prematurely.\n"
        "[rank5]: Last error:\n"
        "[rank5]: socketPollConnect: connect to 10.40.3.18<41877> returned Connection refused, "
        "exceeded error retry count after 35 attempts\n"
    )
    diagnosis = diagnose_text("rank5.log", text)
    assert_reads(diagnosis, "hccl", first_error="exceeded error retry count after 35 attempts")


def test_a_log_that_ends_in_retry_rounds_is_hccl_with_hang_and_config_beside_it() -> None:
    diagnosis = diagnose_text("rank1.log", OLDER_ROUNDS)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Call to connect returned Connection refused, retrying",
        rule="hccl.nccl_connect_retrying",
    )
    assert {"hang", "config"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_retry_rounds_yield_to_a_ranks_own_failure() -> None:
    text = (
        OLDER_ROUNDS
        + "node-b:22817:22886 [0] NCCL INFO Connected all rings\n"
        + "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. "
        "GPU 0 has a total capacity of 79.11 GiB of which 1.40 GiB is free.\n"
    )
    diagnosis = diagnose_text("rank1.log", text)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


def test_a_connect_that_succeeded_after_retries_leaves_a_healthy_run_healthy() -> None:
    done = "layer 0 passed\nmodel run success\n"
    rounds = "".join(_ROUND.format(n=n) for n in range(1, 3))
    diagnosis = diagnose_files(
        {
            "rank0.log": done,
            "rank1.log": rounds + "trn-3:6120:6154 [5] NCCL INFO Connected all rings\n" + done,
        }
    )
    assert diagnosis.category == "healthy"


SPAWNED_REFUSED_CONNECT = """\
Use GPU: 0 for training

nd-2:9120:9120 [0] misc/ibvwrap.cu:63 NCCL WARN Failed to open libibverbs.so[.1]
NCCL version 2.4.8+cuda10.1

nd-2:9121:9188 [1] include/socket.h:390 NCCL WARN Connect to 10.31.0.4<40117> failed : Connection refused
Traceback (most recent call last):
  File "train_dist.py", line 301, in <module>
    main()
  File "train_dist.py", line 88, in main
    mp.spawn(main_worker, nprocs=ngpus_per_node, args=(ngpus_per_node, args))
  File "/opt/conda/lib/python3.7/site-packages/torch/multiprocessing/spawn.py", line 118, in join
    raise Exception(msg)
Exception:

-- Process 1 terminated with the following error:
"""


def test_an_older_nccls_connect_warning_without_a_function_name_is_the_first_error() -> None:
    # Releases before 2.7 print the socket connect failure as `NCCL WARN Connect to <addr>
    # failed : <reason>`; it still explains the bare Exception that mp.spawn raises after it.
    diagnosis = diagnose_text("train.log", SPAWNED_REFUSED_CONNECT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Connect to 10.31.0.4<40117> failed : Connection refused",
        rule="hccl.nccl_socket_connect_failed",
    )


BARE_SYSTEM_ERROR_AT_DDP_START = """\
Traceback (most recent call last):
  File "train.py", line 118, in <module>
    model = DistributedDataParallel(model, device_ids=[args.local_rank], output_device=args.local_rank)
  File "/opt/conda/lib/python3.7/site-packages/torch/nn/parallel/distributed.py", line 286, in __init__
    self.broadcast_bucket_size)
  File "/opt/conda/lib/python3.7/site-packages/torch/nn/parallel/distributed.py", line 410, in _dist_broadcast_coalesced
    dist._dist_broadcast_coalesced(self.process_group, tensors, buffer_size, False)
RuntimeError: NCCL error in: /opt/conda/conda-bld/pytorch_1560000000000/work/torch/lib/c10d/ProcessGroupNCCL.cpp:272, unhandled system error
"""


def test_a_bare_system_error_is_advised_as_a_system_call_to_find() -> None:
    diagnosis = diagnose_text("node1.log", BARE_SYSTEM_ERROR_AT_DDP_START)
    assert_reads(diagnosis, "hccl", first_error="unhandled system error")
    assert "system call" in diagnosis.next_actions[0]
    assert "NCCL_DEBUG=INFO" in diagnosis.next_actions[0]
    assert sum("NCCL_DEBUG=INFO" in text for text in diagnosis.next_actions) == 1


OLDEST_CONNECT = """\
dl-07:4410:4410 [0] INFO NET : Using interface eth1:192.168.30.7<0>
dl-07:4410:4410 [0] INFO NET/Socket : 1 interfaces found
NCCL version 2.2.13+cuda9.0
dl-07:4410:4468 [0] INFO comm 0x7f31c800a3b0 rank 0 nranks 2

dl-07:4410:4467 [0] include/socket.h:360 WARN Call to connect failed : Connection timed out
dl-07:4410:4467 [0] INFO transport/net_socket.cu:118 -> 2
dl-07:4410:4467 [0] INFO bootstrap.cu:28 -> 2 [Net]

dl-07:4410:4468 [0] include/socket.h:371 WARN Connection closed by remote peer
dl-07:4410:4468 [0] INFO bootstrap.cu:259 -> 2
"""


def test_the_oldest_releases_failed_connect_is_the_socket_connect_failure() -> None:
    # Before 2.3 NCCL wrote the level with no NCCL word and named the system call.
    diagnosis = diagnose_text("rank0.log", OLDEST_CONNECT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Call to connect failed : Connection timed out",
        rule="hccl.nccl_socket_connect_failed",
    )
    assert diagnosis.confidence >= 0.5


RAISED_CONNECT_FAILURE = """\
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3
ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
Last error:
socketStartConnect: Connect to 10.31.4.7<50211> failed : No route to host
[2025-02-11 06:41:09,114] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 0 (pid: 4410) of binary: /usr/bin/python3
"""


def test_the_connect_torch_repeats_under_last_error_is_the_first_error() -> None:
    # without NCCL_DEBUG the only copy of the connect failure is the one under `Last error:`,
    # with no NCCL header; the exception above it only wraps it
    diagnosis = diagnose_text("train.log", RAISED_CONNECT_FAILURE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="socketStartConnect: Connect to 10.31.4.7",
        rule="hccl.nccl_socket_connect_failed",
    )


def test_a_connect_that_succeeded_after_retries_is_no_failure() -> None:
    text = "socketStartConnect: Connect to 10.31.4.7<50211> succeeded after 2 retries\n"
    diagnosis = diagnose_text("train.log", text)
    assert "hccl.nccl_socket_connect_failed" not in rules_of(diagnosis)


BIND_REFUSED = """\
cn-12:40511:40511 [0] NCCL INFO Bootstrap : Using ib0:fe80::9a03:9b03:2c:1f10%ib0<0>
cn-12:40511:40511 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation
cn-12:40511:40511 [0] misc/socket.cc:379 NCCL WARN Call to bind failed : Cannot assign requested address
cn-12:40511:40511 [0] NCCL INFO bootstrap.cc:176 -> 2
cn-12:40511:40511 [0] NCCL INFO bootstrap.cc:201 -> 2
Traceback (most recent call last):
  File "/srv/job/train.py", line 41, in <module>
    model = DistributedDataParallel(model, device_ids=[local_rank])
"""


def test_an_address_the_host_cannot_bind_is_the_interface_choice() -> None:
    # docs/labelling.md#a-rendezvous-host-with-no-address: the interface NCCL picked offers an
    # address this host refuses to bind to; the interface setting is the usual fix
    diagnosis = diagnose_text("rank0.log", BIND_REFUSED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Call to bind failed : Cannot assign requested address",
        rule="hccl.comm_interface_not_found",
        beside=("config",),
    )


def test_a_port_already_taken_is_not_the_interface_choice() -> None:
    text = "cn-12:40511:40511 [0] misc/socket.cc:379 NCCL WARN Call to bind failed : Address already in use\n"
    diagnosis = diagnose_text("rank0.log", text)
    assert "hccl.comm_interface_not_found" not in rules_of(diagnosis)


# A pipeline job whose stages disagree on a message's size: the receiving node's socket
# transport logs it, and the run then stalls with nothing more.
NET_MESSAGE_TRUNCATED = """\
[2025-06-11 04:02:19] trn-7:3318:3390 [1] NCCL INFO Channel 00/0 : 3[1] -> 5[1] [send] via NET/Socket/0
[2025-06-11 04:09:41] trn-7:3318:3402 [1] transport/net_socket.cc:561 NCCL WARN NET/Socket : peer 10.40.2.16<45127> message truncated : receiving 64 bytes instead of 32. If you believe your socket network is in a healthy state, there may be a mismatch in collective sizes or environment settings (e.g. NCCL_PROTO, NCCL_ALGO) between ranks
trn-7:3318:3402 [1] NCCL INFO transport/net.cc:1393 -> 5
"""


def test_a_truncated_message_on_nccls_socket_transport_is_ranks_that_disagree() -> None:
    diagnosis = diagnose_text("rank3.log", NET_MESSAGE_TRUNCATED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="message truncated : receiving 64 bytes instead of 32",
        beside=("hang",),
    )


def test_the_bootstraps_own_size_check_keeps_its_rule() -> None:
    text = "node-3:5120:5230 [2] bootstrap.cc:77 NCCL WARN Message truncated : received 512 bytes instead of 8\n"
    diagnosis = diagnose_text("rank2.log", text)
    assert "hccl.nccl_net_message_size" not in rules_of(diagnosis)


# A multi-node start whose first barrier cannot reach a peer: NCCL's poll on the pending connect
# came back without the socket becoming writable, and torch repeats that under `Last error:`.
POLL_WITHOUT_POLLOUT = """\
[rank11]: torch.distributed.DistBackendError: NCCL error in /opt/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.3
[rank11]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
[rank11]: Last error:
[rank11]: socketPollConnect poll() returned 1, no POLLOUT events
[rank11]: Traceback (most recent call last):
[rank11]:   File "/work/train.py", line 88, in setup
[rank11]:     dist.barrier()
"""


def test_a_connect_whose_poll_saw_no_write_event_is_the_first_error() -> None:
    diagnosis = diagnose_text("rank11.log", POLL_WITHOUT_POLLOUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="poll() returned 1, no POLLOUT events",
        rule="hccl.nccl_socket_connect_failed",
    )


def test_the_stores_own_poll_timeout_is_not_nccls_connect() -> None:
    text = (
        "[W socket.cpp:464] [c10d] waitForInput: poll for socket SocketImpl(fd=14, "
        "addr=[node-2]:41862) returned 0, socket timed out after 1800000ms\n"
    )
    diagnosis = diagnose_text("rank11.log", text)
    assert "hccl.nccl_socket_connect_failed" not in rules_of(diagnosis)


# A multi-node serving start whose NCCL bootstrap cannot reach its peer: NCCL's poll on the
# connect gives up with the system's answer and errno in its own words, then returns the
# system error up its call chain and the engine's process dies with no exception line kept.
POLL_CONNECT_GAVE_UP = """\
gpu-n3:4410:4410 [2] misc/socket.cc:541 NCCL WARN socketPollConnect: Connect to 10.8.1.5<41233> returned 113(No route to host) errno 115(Operation now in progress)
gpu-n3:4410:4410 [2] NCCL INFO misc/socket.cc:578 -> 2
gpu-n3:4410:4410 [2] NCCL INFO bootstrap.cc:291 -> 2
gpu-n3:4410:4410 [2] NCCL INFO init.cc:1540 -> 2
[2026-03-02 08:11:20 TP6] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/engine/managers/scheduler.py", line 1802, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)
"""


def test_a_poll_connect_that_gave_up_with_an_errno_is_the_first_error() -> None:
    diagnosis = diagnose_text("node3.log", POLL_CONNECT_GAVE_UP)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="returned 113(No route to host) errno 115",
        rule="hccl.nccl_socket_connect_failed",
    )


def test_a_poll_connect_round_that_retries_is_not_the_give_up() -> None:
    text = (
        "gpu-n3:4410:4470 [2] NCCL INFO socketPollConnect: connect returned No route to host, "
        "retrying (4/34) after sleep for 400 msec\n"
    )
    diagnosis = diagnose_text("node3.log", text)
    assert "hccl.nccl_socket_connect_failed" not in rules_of(diagnosis)


# Counted retry rounds whose reason holds no error word of its own (the host or the network
# cannot be reached), as a worker node that cannot reach the master prints them until the
# paste stops.
_UNREACHED_ROUND = (
    "node-w2:8120:8177 [0] NCCL INFO socketPollConnect: connect returned {reason}, "
    "retrying ({n}/34) after sleep for {n}00 msec\n"
)


@pytest.mark.parametrize("reason", ["No route to host", "Network is unreachable"])
def test_retry_rounds_to_an_unreachable_peer_are_read_as_the_retries_are(reason: str) -> None:
    text = "".join(_UNREACHED_ROUND.format(reason=reason, n=n) for n in range(20, 26))
    diagnosis = diagnose_text("worker.log", text)
    assert_reads(
        diagnosis,
        "hccl",
        first_error=f"connect returned {reason}, retrying (20/34)",
        rule="hccl.nccl_connect_retrying",
    )
    assert {"hang", "config"} <= set(alternative_labels(diagnosis))
