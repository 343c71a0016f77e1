"""Shared memory too small for the job, and data loader workers killed by a signal.

docs/labelling.md#config-driver_env-or-weight_load: NCCL's intra-node segments and a data
loader's batches live in /dev/shm; when torch or NCCL blame shared memory the machine (or the
container) is short of it, `driver_env`. A worker killed outright is a killed process,
`device_fault`, with `oom` beside it. The excerpts follow the real shapes (NCCL's `Last error:`
block, the data loader's error in the main process) with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

NCCL_SHM = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/lm/train.py", line 61, in <module>
[rank1]:     model = DistributedDataParallel(model, device_ids=[local_rank])
[rank1]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank1]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
[rank1]: Last error:
[rank1]: Error while creating shared memory segment /dev/shm/nccl-Wq3e9L (size 7340032)
"""


def test_the_shared_memory_reason_under_an_nccl_error_is_the_machine() -> None:
    diagnosis = diagnose_text("rank1.log", NCCL_SHM)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Error while creating shared memory segment",
        rule="env.nccl_shm_segment_failed",
    )


def test_another_system_error_reason_stays_with_the_collective_layer() -> None:
    text = NCCL_SHM.replace(
        "Error while creating shared memory segment /dev/shm/nccl-Wq3e9L (size 7340032)",
        "socketStartConnect: Connect to 10.2.0.7<41533> failed : Software caused connection abort",
    )
    diagnosis = diagnose_text("rank1.log", text)
    assert diagnosis.category == "hccl"
    assert "env.nccl_shm_segment_failed" not in rules_of(diagnosis)


# Newer NCCL grows the segment file itself and says so before it gives up on the segment; an
# older release prints the first line without the errno. Four ranks in a pod whose /dev/shm
# kept the container runtime's small default.
NCCL_SHM_EXTEND = """\
trainer-0:5120:5188 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] via SHM/direct/direct
trainer-0:5120:5188 [1] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-Hv2Qe8 to 7340036 bytes, error: No space left on device (28)

trainer-0:5120:5188 [1] misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Hv2Qe8 (size 7340032), error: No space left on device (28)
trainer-0:5120:5188 [1] NCCL INFO transport/shm.cc:551 -> 2
trainer-0:5120:5191 [1] proxy.cc:1326 NCCL WARN Socket recv failed
"""

NCCL_SHM_EXTEND_OLD = """\
trainer-0:5120:5188 [1] misc/shmutils.cc:71 NCCL WARN Error: failed to extend /dev/shm/nccl-Hv2Qe8 to 7340036 bytes
trainer-0:5120:5188 [1] NCCL INFO transport/shm.cc:114 -> 2
trainer-0:5120:5188 [1] NCCL INFO init.cc:1089 -> 2
"""


def test_a_shared_memory_file_nccl_cannot_grow_is_the_machine() -> None:
    diagnosis = diagnose_text("trainer-0/rank1.log", NCCL_SHM_EXTEND)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="failed to extend /dev/shm/nccl-Hv2Qe8",
        beside=("hccl",),
    )


def test_the_growth_failure_without_its_errno_is_read_the_same() -> None:
    diagnosis = diagnose_text("trainer-0/rank1.log", NCCL_SHM_EXTEND_OLD)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="failed to extend /dev/shm/nccl-Hv2Qe8",
        rule="env.nccl_shm_segment_failed",
    )


def test_nccl_mapping_its_shared_buffer_is_no_failure() -> None:
    text = (
        "trainer-0:5120:5188 [1] NCCL INFO MMAP allocated shareable host buffer "
        "/dev/shm/nccl-Hv2Qe8 size 7340032 ptr 0x7f3a20000000\n"
        "trainer-0:5120:5188 [1] NCCL INFO Connected all rings\n"
    )
    diagnosis = diagnose_text("trainer-0/rank1.log", text)
    assert "env.nccl_shm_segment_failed" not in rules_of(diagnosis)
    assert diagnosis.first_error is None


WORKER_BUS_ERROR = """\
ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).
Traceback (most recent call last):
  File "/srv/seg/train.py", line 144, in <module>
    for images, masks in loader:
RuntimeError: DataLoader worker (pid 70113) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.
"""


def test_a_bus_error_blamed_on_shared_memory_is_the_container() -> None:
    diagnosis = diagnose_text("train.log", WORKER_BUS_ERROR)
    assert_reads(
        diagnosis, "driver_env", first_error="insufficient shared memory", beside=("device_fault",)
    )


def test_a_bare_bus_error_stays_a_crash() -> None:
    diagnosis = diagnose_text("train.log", "Bus error (core dumped)\n")
    assert diagnosis.category == "device_fault"
    assert "env.dataloader_shm_bus_error" not in rules_of(diagnosis)


def test_a_worker_killed_outright_is_a_killed_process_with_oom_beside_it() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/seg/train.py", line 144, in <module>\n'
        "    for images, masks in loader:\n"
        "RuntimeError: DataLoader worker (pid 70114) is killed by signal: Killed. \n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis, "device_fault", first_error="is killed by signal: Killed", beside=("oom",)
    )


def test_a_worker_that_exited_is_not_read_as_killed() -> None:
    text = "RuntimeError: DataLoader worker (pid(s) 70114, 70115) exited unexpectedly\n"
    diagnosis = diagnose_text("train.log", text)
    assert "dev.dataloader_worker_killed" not in rules_of(diagnosis)


IB_REGISTRATION = """\
gpu-21:7102:7190 [4] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory
gpu-21:7102:7190 [4] NCCL INFO transport/net_ib.cc:812 -> 2
[rank4]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank4]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
"""


def test_the_nic_refusing_to_register_memory_is_the_host_setup() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: the locked-memory limit, not the GPU.
    diagnosis = diagnose_text("rank4.log", IB_REGISTRATION)
    assert_reads(diagnosis, "driver_env", first_error="ibv_reg_mr failed")
    assert {"oom", "hccl"} & {alt.category for alt in diagnosis.alternatives}


def test_an_nccl_system_error_without_the_refusal_stays_with_the_collective_layer() -> None:
    text = "\n".join(IB_REGISTRATION.splitlines()[2:]) + "\n"
    diagnosis = diagnose_text("rank4.log", text)
    assert diagnosis.category == "hccl"
    assert "env.ib_memory_registration" not in rules_of(diagnosis)


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
    assert_reads(diagnosis, "driver_env", first_error="ibv_reg_mr_iova2 failed", beside=("hccl",))


# docs/labelling.md#config-driver_env-or-weight_load: older torch names a loader worker's
# SIGBUS without the shared-memory sentence; it is still the loader's shared memory.
OLD_WORKER_BUS_ERROR = """\
  File "/opt/venvs/det/lib/python3.6/multiprocessing/connection.py", line 379, in _recv
    chunk = read(handle, remaining)
  File "/opt/venvs/det/lib/python3.6/site-packages/torch/utils/data/dataloader.py", line 227, in handler
    _error_if_any_worker_fails()
RuntimeError: DataLoader worker (pid 52117) is killed by signal: Bus error. Details are lost due to multiprocessing. Rerunning with num_workers=0 may give better error trace.
"""


def test_an_older_loader_bus_error_is_the_shared_memory_below_the_confident_band() -> None:
    diagnosis = diagnose_text("train.log", OLD_WORKER_BUS_ERROR)
    assert_reads(
        diagnosis, "driver_env", first_error="killed by signal: Bus error", beside=("device_fault",)
    )
    assert diagnosis.confidence < 0.8
    assert "dev.segfault" not in rules_of(diagnosis)


def test_a_worker_that_exited_with_no_reason_is_a_dead_process() -> None:
    text = (
        '[rank2]:   File "/srv/vid/train.py", line 90, in <module>\n'
        "[rank2]:     for batch in loader:\n"
        "[rank2]: RuntimeError: DataLoader worker (pid(s) 40913) exited unexpectedly\n"
    )
    diagnosis = diagnose_text("rank2.log", text)
    assert diagnosis.category == "device_fault"
    assert {"oom", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.7


def test_an_exit_under_the_loaders_signal_line_restates_it() -> None:
    text = WORKER_BUS_ERROR + "RuntimeError: DataLoader worker (pid(s) 70113) exited unexpectedly\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "exited unexpectedly" not in diagnosis.first_error.text
    assert diagnosis.confidence >= 0.85  # the restatement does not contest it


def test_a_timed_exit_does_not_outrank_the_untimed_crash_that_explains_it() -> None:
    # The job logs the exception it caught with a timestamp; the worker's own crash line, on
    # stderr, has none. The crash is the cause, the exit its symptom.
    diagnosis = diagnose_files(
        {
            "attempt_0/3/stdout.log": (
                "2026-03-02 10:14:07,511 [rank3] INFO step 40 loss 2.113\n"
                "2026-03-02 10:14:09,730 [rank3] ERROR model run failed: "
                "DataLoader worker (pid(s) 30512) exited unexpectedly\n"
            ),
            "attempt_0/3/stderr.log": (
                "ERROR: Unexpected segmentation fault encountered in worker.\n"
                "[rank3]: RuntimeError: DataLoader worker (pid 30512) is killed by signal: "
                "Segmentation fault. \n"
            ),
        }
    )
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert "exited unexpectedly" not in diagnosis.first_error.text


LOADER_FD_LIMIT = """\
Traceback (most recent call last):
  File "/srv/recon/train.py", line 205, in train
    for batch_idx, sample in enumerate(loader):
  File "/opt/py/lib/python3.8/site-packages/torch/utils/data/dataloader.py", line 1017, in _try_get_data
    raise RuntimeError(
RuntimeError: Too many open files. Communication with the workers is no longer possible. Please increase the limit using `ulimit -n` in the shell or change the sharing strategy by calling `torch.multiprocessing.set_sharing_strategy('file_system')` at the beginning of your code
"""


def test_the_loaders_open_file_limit_is_the_hosts_limit() -> None:
    diagnosis = diagnose_text("train.log", LOADER_FD_LIMIT)
    assert_reads(diagnosis, "driver_env", first_error="Too many open files", beside=("config",))


def test_a_stripped_descriptor_is_read_the_same_way_with_less_confidence() -> None:
    text = (
        '  File "/opt/py/lib/python3.7/multiprocessing/reduction.py", line 161, in recvfds\n'
        "    len(ancdata))\n"
        "RuntimeError: received 0 items of ancdata\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "driver_env"
    explicit = diagnose_text("train.log", LOADER_FD_LIMIT)
    assert diagnosis.confidence < explicit.confidence


def test_a_shared_memory_object_that_cannot_be_opened_then_errno_24() -> None:
    text = (
        '  File "/opt/py/lib/python3.6/dist-packages/torch/multiprocessing/reductions.py", line 243, in reduce_storage\n'
        "RuntimeError: unable to open shared memory object </torch_8812_55120193> in read-write mode\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.6/socket.py", line 460, in fromfd\n'
        "    nfd = dup(fd)\n"
        "OSError: [Errno 24] Too many open files\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "driver_env", first_error="shared memory object")


def test_nccls_socket_warning_is_not_the_open_file_rule() -> None:
    text = "box-2:3171:3171 [0] misc/socket.cc:440 NCCL WARN Call to socket failed : Too many open files\n"
    diagnosis = diagnose_text("node0.log", text)
    assert "env.open_file_limit" not in rules_of(diagnosis)


STREAMING_SHM_TAKEN = """\
[rank3]:   File "/opt/py/lib/python3.11/multiprocessing/shared_memory.py", line 104, in __init__
[rank3]:     self._fd = _posixshmem.shm_open(
[rank3]:                ^^^^^^^^^^^^^^^^^^^^^
[rank3]: FileExistsError: [Errno 17] File exists: '/000002_locals'
"""


def test_a_shared_memory_name_that_is_taken_is_the_hosts_dev_shm() -> None:
    diagnosis = diagnose_text("rank3.log", STREAMING_SHM_TAKEN)
    assert_reads(diagnosis, "driver_env", first_error="File exists: '/000002_locals'")
    assert {"config", "other"} <= {alt.category for alt in diagnosis.alternatives}


def test_an_existing_directory_is_not_a_shared_memory_segment() -> None:
    text = STREAMING_SHM_TAKEN.replace("'/000002_locals'", "'/mnt/out/run3'")
    diagnosis = diagnose_text("rank3.log", text)
    assert "env.shm_name_taken" not in rules_of(diagnosis)


# torch's SIGCHLD check names a worker that ended with a status of its own (os._exit in the
# dataset, a native exit()) by its pid and that status; the rank's peers then lose it.
WORKER_EXIT_CODE = """\
[rank0]:   File "/srv/gen/infer.py", line 96, in forward
[rank0]:     time.sleep(0.03)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/signal_handling.py", line 73, in handler
[rank0]:     _error_if_any_worker_fails()
[rank0]: RuntimeError: DataLoader worker (pid 51207) exited unexpectedly with exit code 3. Details are lost due to multiprocessing. Rerunning with num_workers=0 may give better error trace.
"""
PEER_LOST_RANK0 = """\
prefill start: batch 1 (16 tokens)
 norm passed
[rank1]:     work.wait()
[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:40112. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
"""


def test_a_worker_that_exited_with_its_own_status_is_a_dead_process_too() -> None:
    diagnosis = diagnose_files(
        {"job/log_0.log": WORKER_EXIT_CODE, "job/log_1.log": PEER_LOST_RANK0}
    )
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="exited unexpectedly with exit code 3",
        rule="dev.dataloader_worker_exited",
    )
    assert {"oom", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.culprit_ranks == [0]


PADDLE_WORKER_BUS_ERROR = """\
I0412 10:31:07.220114 88120 init.cc:239] CustomDevice: npu, visible devices count: 4
ERROR: Unexpected BUS error encountered in DataLoader worker. This might be caused by insufficient shared memory (shm), please check whether use_shared_memory is set and storage space in /dev/shm is enough
"""


def test_paddles_loader_wording_of_the_shared_memory_bus_error_is_the_container() -> None:
    diagnosis = diagnose_text("train.log", PADDLE_WORKER_BUS_ERROR)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Unexpected BUS error encountered in DataLoader worker",
        rule="env.dataloader_shm_bus_error",
        beside=("device_fault",),
    )


def test_paddles_loader_segfault_does_not_name_shared_memory() -> None:
    text = "ERROR: Unexpected segmentation fault encountered in DataLoader workers.\n"
    diagnosis = diagnose_text("train.log", text)
    assert "env.dataloader_shm_bus_error" not in rules_of(diagnosis)


# A data set's parallel map (datasets' num_proc) under a multi-rank trainer: one of its pool
# workers is gone and the library names no reason.
MAP_WORKER_DIED = """\
Running tokenizer on dataset (num_proc=16):  97%|█████████▋| 80211/82730 [01:31<00:02, 871.40 examples/s]
[rank0]:   File "/opt/venv/lib/python3.10/site-packages/datasets/utils/py_utils.py", line 714, in iflatmap_unordered
[rank0]:     raise RuntimeError(
[rank0]: RuntimeError: One of the subprocesses has abruptly died during map operation.To debug the error, disable multiprocessing.
"""


def test_a_map_worker_that_died_without_a_word_is_a_dead_process() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load
    diagnosis = diagnose_text("train.log", MAP_WORKER_DIED)
    assert_reads(diagnosis, "device_fault", first_error="abruptly died during map operation")
    assert {"oom", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_a_kernel_record_of_the_kill_says_why_the_map_worker_died() -> None:
    text = (
        "[Tue May 14 03:10:02 2026] Out of memory: Killed process 51877 (python) "
        "total-vm:81234560kB, anon-rss:60211840kB, file-rss:0kB, shmem-rss:0kB, UID:1000\n"
        + MAP_WORKER_DIED
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "oom", first_error="Out of memory: Killed process 51877")


# torch's file_system sharing strategy reaches shared tensors through its shm manager daemon;
# after hours of loader workers and evaluation processes the daemon stopped answering.
SHM_MANAGER_TIMEOUT = """\
[rank2]:   File "/opt/venv/lib/python3.10/site-packages/torch/multiprocessing/reductions.py", line 321, in rebuild_storage_filename
[rank2]:     storage = torch.UntypedStorage._new_shared_filename_cpu(manager, handle, size)
[rank2]: RuntimeError: Shared memory manager connection has timed out
"""


def test_a_shared_memory_manager_that_stops_answering_is_the_host_not_a_collective() -> None:
    diagnosis = diagnose_text("log_2.log", SHM_MANAGER_TIMEOUT)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Shared memory manager connection has timed out",
        rule="env.torch_shm_manager_unavailable",
    )
    assert "hccl" not in {alt.category for alt in diagnosis.alternatives}


def test_a_shared_memory_manager_that_cannot_be_started_is_the_host() -> None:
    line = (
        'RuntimeError: error executing torch_shm_manager at "/opt/venv/lib/python3.10/'
        'site-packages/torch/bin/torch_shm_manager" at ../torch/lib/libshm/core.cpp:64\n'
    )
    diagnosis = diagnose_text("log_0.log", line)
    assert diagnosis.category == "driver_env"
    assert "config" in {alt.category for alt in diagnosis.alternatives}
