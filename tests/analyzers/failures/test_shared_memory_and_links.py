"""Shared memory a process cannot get, and a collective's network link that fails.

docs/labelling.md#config-driver_env-or-weight_load: NCCL refused its `/dev/shm` segment (a
system call it names, at its WARN level) and a data-loader worker killed by a bus error that
torch ties to shared memory are the container's `/dev/shm`, `driver_env`, and the first error
ahead of the `unhandled system error` or the re-raise after them. A bus error that names no
shared memory stays a native crash.

docs/labelling.md#network-links-that-fail-under-a-collective: NCCL's IB/RoCE transport
reporting a failed work completion is the collective's network failing, `hccl`, even when the
log holds nothing else; setup lines of the same transport are not a failure. A CUDA call that
failed inside NCCL (`Cuda failure '<text>'`) is the reason under torch's `unhandled cuda
error`, the collective layer's unless its text names a failed device.

Fixtures are written in the shapes of NCCL's debug output and torch's data loader, with hosts,
pids, sizes and addresses of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# Four ranks in a container whose /dev/shm the job may not write; NCCL then returns a system
# error to torch, which raises it with an older torch's wording (no colon after "in").
SHM_SEGMENT_REFUSED = """\
box4:9120:9301 [2] NCCL INFO Channel 00 : 2[81000] -> 3[c1000] via direct shared memory
box4:9120:9301 [2] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied
box4:9120:9301 [2] NCCL INFO include/shm.h:41 -> 2
box4:9120:9301 [2] include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-7d02a1e9c4b3f815-0-2-3 (size 4460544)
Traceback (most recent call last):
  File "train_ddp.py", line 57, in <module>
    model = DistributedDataParallel(model, device_ids=[local_rank])
RuntimeError: NCCL error in ProcessGroupNCCL.cpp:514, unhandled system error, NCCL version 2.7.8
"""

# The same torch error with no NCCL line to explain it.
BARE_SYSTEM_ERROR = """\
Traceback (most recent call last):
  File "train_ddp.py", line 57, in <module>
    model = DistributedDataParallel(model, device_ids=[local_rank])
RuntimeError: NCCL error in ProcessGroupNCCL.cpp:514, unhandled system error, NCCL version 2.7.8
"""

# A segmentation model's loader workers outgrow the container's /dev/shm.
LOADER_BUS_ERROR = """\
Epoch [3][120/400]  lr: 9.812e-03, loss: 0.4127
ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).
Traceback (most recent call last):
  File "/usr/lib/python3.9/site-packages/torch/utils/data/dataloader.py", line 1133, in _try_get_data
    data = self._data_queue.get(timeout=timeout)
  File "/usr/lib/python3.9/site-packages/torch/utils/data/_utils/signal_handling.py", line 66, in handler
    _error_if_any_worker_fails()
RuntimeError: DataLoader worker (pid 50213) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.
"""

# A rank dies of SIGBUS inside NCCL's set-up; nothing names shared memory.
NCCL_BUS_ERROR = """\
c7e1:4410:4790 [5] NCCL INFO Connected all trees
[c7e1:4410 :0:4795] Caught signal 7 (Bus error: nonexistent physical address)
==== backtrace (tid:   4795) ====
 0 0x0000000000043090 killpg()  ???:0
 1 0x000000000008170d ncclGroupEnd()  ???:0
=================================
"""

# Two nodes over RoCE; rank 6's NIC stops getting acknowledgements from its peer.
LINK_COMPLETION_ERRORS = """\
nodeb:6021:6455 [6] NCCL INFO NET/IB : Using [0]mlx5_2:1/RoCE ; OOB bond0:10.31.0.12<0>
nodeb:6021:6455 [6] transport/net_ib.cc:1450 NCCL WARN NET/IB : Got completion from peer 10.31.0.11<47210> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.31.0.12 remoteGids::ffff:10.31.0.11
nodeb:6021:6455 [6] NCCL INFO transport/net.cc:1302 -> 6
nodeb:6021:6455 [6] NCCL INFO proxy.cc:698 -> 6
nodeb:6021:6455 [6] transport/net_ib.cc:1450 NCCL WARN NET/IB : Got completion from peer 10.31.0.11<47210> with status=12 opcode=32616 len=0 vendor err 129 (Recv) localGid ::ffff:10.31.0.12 remoteGids::ffff:10.31.0.11
"""

# The same transport setting up, and the log ending there.
LINK_SETUP_ONLY = """\
nodeb:6021:6455 [6] NCCL INFO NET/IB : Using [0]mlx5_2:1/RoCE ; OOB bond0:10.31.0.12<0>
nodeb:6021:6455 [6] NCCL INFO Channel 00/0 : 5[6] -> 6[6] [receive] via NET/IB/0
nodeb:6021:6455 [6] NCCL INFO Connected all rings
"""


def test_an_nccl_shared_memory_refusal_is_the_machine() -> None:
    diagnosis = diagnose_text("ddp/rank2.log", SHM_SEGMENT_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="Call to shm_open failed", beside=("hccl",))


def test_an_unexplained_nccl_system_error_stays_the_collective_layer() -> None:
    diagnosis = diagnose_text("ddp/rank2.log", BARE_SYSTEM_ERROR)
    assert_reads(diagnosis, "hccl", first_error="unhandled system error")


def test_a_loader_bus_error_in_shared_memory_is_the_machine() -> None:
    diagnosis = diagnose_text("seg/train.log", LOADER_BUS_ERROR)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Unexpected bus error encountered in worker",
        beside=("device_fault",),
    )


def test_a_bus_error_that_names_no_shared_memory_stays_a_crash() -> None:
    diagnosis = diagnose_text("mp/train.log", NCCL_BUS_ERROR)
    assert_reads(diagnosis, "device_fault", first_error="Caught signal 7")


def test_a_failed_link_completion_is_the_collective_network() -> None:
    diagnosis = diagnose_text("nodeb/worker.log", LINK_COMPLETION_ERRORS)
    assert_reads(diagnosis, "hccl", first_error="opcode=0 len=0", beside=("driver_env",))


# The one line a user kept of such a failure: NCCL's sentence without its host and source
# prefix and without the peer's address (a flushed send, vendor error 249).
# docs/labelling.md#network-links-that-fail-under-a-collective
LINK_COMPLETION_NO_PEER = """\
NET/IB : Got completion from peer with error 5, opcode 0, len 7110, vendor err 249 (Send)
"""

# The same words in a line that reports no failed completion.
LINK_COMPLETION_NO_PEER_NOTE = """\
NET/IB : Got completion from peer, queue pair 0x1a drained
"""


def test_a_failed_completion_pasted_without_its_peer_is_the_collective_network() -> None:
    diagnosis = diagnose_text("nccl.log", LINK_COMPLETION_NO_PEER)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "vendor err 249" in diagnosis.first_error.text
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_a_drained_queue_pair_note_is_no_failed_completion() -> None:
    diagnosis = diagnose_text("nccl.log", LINK_COMPLETION_NO_PEER_NOTE)
    assert diagnosis.category != "hccl" or diagnosis.confidence < 0.5


# The NIC's verbs provider reports the error completion itself, before NCCL says anything: a
# trainer broadcasting weights to two rollout engines over RoCE, and the paste ending there.
# docs/labelling.md#network-links-that-fail-under-a-collective
VERBS_PROVIDER_ERROR_COMPLETION = """\
(PolicyTrainer pid=40218) sync step 3: sending 291 tensors to 2 rollout engines
(RolloutEngine pid=7715, ip=10.12.0.31) received weight: lm_head.weight, dtype: torch.bfloat16, shape: torch.Size([151936, 3584])
(RolloutEngine pid=7802, ip=10.12.0.32) mlx5: infer-b02: got completion with error:
(RolloutEngine pid=7802, ip=10.12.0.32) 00000000 00000000 00000000 00000000
"""

# The same provider and the verbs library talking without any failure.
VERBS_PROVIDER_QUIET = """\
(RolloutEngine pid=7802, ip=10.12.0.32) libibverbs: Warning: couldn't open config directory '/etc/libibverbs.d'.
(RolloutEngine pid=7802, ip=10.12.0.32) mlx5: infer-b02: completion queue polled, 0 errors
(RolloutEngine pid=7802, ip=10.12.0.32) received weight: lm_head.weight, dtype: torch.bfloat16, shape: torch.Size([151936, 3584])
"""


def test_a_verbs_provider_error_completion_is_the_collective_network() -> None:
    diagnosis = diagnose_text("rl/ray_job.log", VERBS_PROVIDER_ERROR_COMPLETION)
    assert_reads(diagnosis, "hccl", first_error="got completion with error", beside=("driver_env",))


def test_a_quiet_verbs_provider_is_not_a_failure() -> None:
    diagnosis = diagnose_text("rl/ray_job.log", VERBS_PROVIDER_QUIET)
    assert diagnosis.category != "hccl", diagnosis.root_cause
    assert diagnosis.first_error is None


def test_link_setup_lines_are_not_a_failure() -> None:
    diagnosis = diagnose_text("nodeb/worker.log", LINK_SETUP_ONLY)
    assert diagnosis.category != "hccl", diagnosis.root_cause
    assert diagnosis.first_error is None


# docs/labelling.md#a-peer-that-stopped-answering: torch's `ncclRemoteError` with NCCL's socket
# reason under `Last error:`; the reason is the first error and the exception yields to it.
SOCKET_RESET_UNDER_REMOTE_ERROR = """\
[rank5]: torch.distributed.DistBackendError: NCCL error in: /src/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, remote process exited or there was a network error, NCCL version 2.21.5
[rank5]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.
[rank5]: Last error:
[rank5]: socketProgressOpt: Call to recv from 10.52.7.33<41877> failed : Connection reset by peer
"""

# The same exception with no reason under it stays the exception's own line.
BARE_REMOTE_ERROR = """\
[rank5]: torch.distributed.DistBackendError: NCCL error in: /src/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, remote process exited or there was a network error, NCCL version 2.21.5
[rank5]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.
"""


def test_a_socket_reset_under_a_remote_error_is_the_first_error() -> None:
    diagnosis = diagnose_text("ddp/rank5.log", SOCKET_RESET_UNDER_REMOTE_ERROR)
    assert_reads(
        diagnosis, "hccl", first_error="Call to recv from 10.52.7.33", beside=("device_fault",)
    )
    assert diagnosis.confidence < 0.8


def test_a_remote_error_without_its_reason_keeps_its_headline() -> None:
    diagnosis = diagnose_text("ddp/rank5.log", BARE_REMOTE_ERROR)
    assert_reads(diagnosis, "hccl", first_error="remote process exited")


# Older NCCL releases log the same socket failure without the peer's address, from their
# socket header, with the watchdog's teardown under it; the WARN is still the first error.
OLD_SOCKET_RESET_WARN = """\
a100-2:5120:5188 [0] include/socket.h:421 NCCL WARN Call to recv failed : Connection reset by peer
a100-2:5120:5188 [0] NCCL INFO transport/net_ib.cc:593 -> 2
a100-2:5120:5188 [0] NCCL INFO proxy.cc:198 -> 2 [Proxy Thread]
[E ProcessGroupNCCL.cpp:325] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. To avoid this inconsistency, we are taking the entire process down.
"""


def test_an_old_socket_reset_warn_is_a_lost_peer() -> None:
    diagnosis = diagnose_text("node1/stdout.log", OLD_SOCKET_RESET_WARN)
    assert_reads(diagnosis, "hccl", first_error="Call to recv failed", beside=("device_fault",))


# The oldest releases named the sending side after the system call, and printed the header's
# line number after a space; the write that failed first is the first error, ahead of the
# proxy thread's return code and the read that failed after it.
OLDEST_SOCKET_WRITE_WARN = """\
node7:2210:2291 [1] include/socket.h 398 NCCL WARN Call to write failed : Connection reset by peer.
node7:2210:2291 [1] transport.cu:153 NCCL WARN transport.cu:153 ->2 [Proxy thread error]
node7:2210:2291 [1] include/socket.h 398 NCCL WARN Call to recv failed : Connection reset by peer.
"""


def test_the_oldest_socket_write_warn_is_the_first_error() -> None:
    diagnosis = diagnose_text("node7/train.log", OLDEST_SOCKET_WRITE_WARN)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Call to write failed",
        rule="hccl.nccl_socket_io_failed",
        beside=("device_fault",),
    )


# torch's `unhandled cuda error` with NCCL's failed runtime call under `Last error:`, as a
# serving framework's worker logger prints it; the call's answer is the first error.
CUDA_CALL_UNDER_UNHANDLED_ERROR = """\
(Worker pid=7301) ERROR 05-11 09:02:17 worker.py:88] torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1
(Worker pid=7301) ERROR 05-11 09:02:17 worker.py:88] ncclUnhandledCudaError: Call to CUDA function failed.
(Worker pid=7301) ERROR 05-11 09:02:17 worker.py:88] Last error:
(Worker pid=7301) ERROR 05-11 09:02:17 worker.py:88] Cuda failure 'invalid argument'
"""

# The same runtime answer naming a device that failed is the device's fault, not NCCL's.
DEVICE_FAILURE_UNDER_UNHANDLED_ERROR = CUDA_CALL_UNDER_UNHANDLED_ERROR.replace(
    "'invalid argument'", "'unspecified launch failure'"
)


def test_a_cuda_call_failing_inside_nccl_is_the_first_error() -> None:
    diagnosis = diagnose_text("serve/worker.log", CUDA_CALL_UNDER_UNHANDLED_ERROR)
    assert_reads(diagnosis, "hccl", first_error="Cuda failure 'invalid argument'")
    assert {"device_fault", "config"} & {alt.category for alt in diagnosis.alternatives}


def test_a_failed_device_under_nccl_stays_the_device() -> None:
    diagnosis = diagnose_text("serve/worker.log", DEVICE_FAILURE_UNDER_UNHANDLED_ERROR)
    assert_reads(diagnosis, "device_fault", first_error="unspecified launch failure")
