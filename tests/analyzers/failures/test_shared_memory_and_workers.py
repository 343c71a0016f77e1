"""Shared memory too small for the job, and data loader workers killed by a signal.

docs/labelling.md#config-driver_env-or-weight_load: NCCL's intra-node segments and a data
loader's batches live in /dev/shm; when torch or NCCL blame shared memory the machine (or the
container) is short of it, `driver_env`. A worker killed outright is a killed process,
`device_fault`, with `oom` beside it. The excerpts follow the real shapes (NCCL's `Last error:`
block, the data loader's error in the main process) with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

NCCL_SHM = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/lm/train.py", line 61, in <module>
[rank1]:     model = DistributedDataParallel(model, device_ids=[local_rank])
[rank1]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank1]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
[rank1]: Last error:
[rank1]: Error while creating shared memory segment /dev/shm/nccl-Wq3e9L (size 7340032)
"""


def _rules(diagnosis) -> set[str]:
    return {e.rule for e in diagnosis.evidence if e.rule}


def test_the_shared_memory_reason_under_an_nccl_error_is_the_machine() -> None:
    diagnosis = diagnose_text("rank1.log", NCCL_SHM)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "Error while creating shared memory segment" in diagnosis.first_error.text
    assert "env.nccl_shm_segment_failed" in _rules(diagnosis)


def test_another_system_error_reason_stays_with_the_collective_layer() -> None:
    text = NCCL_SHM.replace(
        "Error while creating shared memory segment /dev/shm/nccl-Wq3e9L (size 7340032)",
        "socketStartConnect: Connect to 10.2.0.7<41533> failed : Software caused connection abort",
    )
    diagnosis = diagnose_text("rank1.log", text)
    assert diagnosis.category == "hccl"
    assert "env.nccl_shm_segment_failed" not in _rules(diagnosis)


WORKER_BUS_ERROR = """\
ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).
Traceback (most recent call last):
  File "/srv/seg/train.py", line 144, in <module>
    for images, masks in loader:
RuntimeError: DataLoader worker (pid 70113) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.
"""


def test_a_bus_error_blamed_on_shared_memory_is_the_container() -> None:
    diagnosis = diagnose_text("train.log", WORKER_BUS_ERROR)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "insufficient shared memory" in diagnosis.first_error.text
    assert "device_fault" in {alt.category for alt in diagnosis.alternatives}


def test_a_bare_bus_error_stays_a_crash() -> None:
    diagnosis = diagnose_text("train.log", "Bus error (core dumped)\n")
    assert diagnosis.category == "device_fault"
    assert "env.dataloader_shm_bus_error" not in _rules(diagnosis)


def test_a_worker_killed_outright_is_a_killed_process_with_oom_beside_it() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/seg/train.py", line 144, in <module>\n'
        "    for images, masks in loader:\n"
        "RuntimeError: DataLoader worker (pid 70114) is killed by signal: Killed. \n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert "is killed by signal: Killed" in diagnosis.first_error.text
    assert "oom" in {alt.category for alt in diagnosis.alternatives}


def test_a_worker_that_exited_is_not_read_as_killed() -> None:
    text = "RuntimeError: DataLoader worker (pid(s) 70114, 70115) exited unexpectedly\n"
    diagnosis = diagnose_text("train.log", text)
    assert "dev.dataloader_worker_killed" not in _rules(diagnosis)


IB_REGISTRATION = """\
gpu-21:7102:7190 [4] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory
gpu-21:7102:7190 [4] NCCL INFO transport/net_ib.cc:812 -> 2
[rank4]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank4]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
"""


def test_the_nic_refusing_to_register_memory_is_the_host_setup() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: the locked-memory limit, not the GPU.
    diagnosis = diagnose_text("rank4.log", IB_REGISTRATION)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "ibv_reg_mr failed" in diagnosis.first_error.text
    assert {"oom", "hccl"} & {alt.category for alt in diagnosis.alternatives}


def test_an_nccl_system_error_without_the_refusal_stays_with_the_collective_layer() -> None:
    text = "\n".join(IB_REGISTRATION.splitlines()[2:]) + "\n"
    diagnosis = diagnose_text("rank4.log", text)
    assert diagnosis.category == "hccl"
    assert "env.ib_memory_registration" not in _rules(diagnosis)


IB_REGISTRATION_IOVA = """\
trn-7:80412:80412 [2] NCCL INFO Assigned NET plugin IB to comm
[rank6]:   File "/opt/conda/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2634, in _coalescing_manager
[rank6]:     work = group.reduce_scatter_tensor_coalesced(outputs, inputs, reduce_opts)
[rank6]: RuntimeError: NCCL Error 2: unhandled system error (run with NCCL_DEBUG=INFO for details)

[2026-02-03 04:11:27] trn-7:80412:80977 [2] misc/ibvwrap.cc:182 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Invalid argument
trn-7:80412:80977 [2] NCCL INFO transport/net_ib.cc:1880 -> 2
trn-7:80412:80977 [2] NCCL INFO transport/net.cc:861 -> 2
"""


def test_a_refused_iova2_registration_is_read_like_the_older_call() -> None:
    # Newer NCCL names `ibv_reg_mr_iova2`; the refusal explains the `unhandled system error`
    # even when the rank's traceback is pasted above it.
    diagnosis = diagnose_text("node0.log", IB_REGISTRATION_IOVA)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "ibv_reg_mr_iova2 failed" in diagnosis.first_error.text
    assert "hccl" in {alt.category for alt in diagnosis.alternatives}
