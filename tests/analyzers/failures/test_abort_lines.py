"""Lines that restate a failure reported just before them are not its first cause.

torch_npu follows the line carrying an ACL code with a one-line plain-language summary, and a
launcher reports a rank that aborted itself (SIGABRT, exit code -6) after the rank's own log
said why. Each scenario is a real-looking log scanned and diagnosed end to end.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

SET_DEVICE = """\
Traceback (most recent call last):
  File "/srv/serve/worker.py", line 41, in init_device
    torch.npu.set_device(local_rank)
RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:146 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033
[ERROR] 2026-03-02-10:14:07 (PID:9120, Device:-1, RankID:-1) ERR00100 PTA call acl api failed
[Error]: Failed to start the device.
        Rectify the fault based on the error information in the ascend log.
"""

WATCHDOG_THEN_ABORT = """\
  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2050, in all_reduce
    work = group.allreduce([tensor], opts)
RuntimeError: NCCL communicator was aborted on rank 1.  Original reason for failure was: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=881, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800412 milliseconds before timing out.
WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 5120 closing signal SIGTERM
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 1 (pid: 5121) of binary: /opt/conda/bin/python
"""


def test_the_code_line_not_its_plain_language_summary_is_the_first_error() -> None:
    diagnosis = diagnose_text("serve/worker.log", SET_DEVICE)
    assert_reads(diagnosis, "driver_env", first_error="error code is 507033")


def test_a_summary_without_its_code_line_is_still_cited() -> None:
    diagnosis = diagnose_text("serve/worker.log", "[Error]: Failed to start the device.\n")
    assert_reads(diagnosis, "driver_env", first_error="Failed to start the device")


def test_a_rank_that_aborted_after_a_collective_timeout_is_a_communication_failure() -> None:
    diagnosis = diagnose_text("train/launcher.log", WATCHDOG_THEN_ABORT)
    assert_reads(diagnosis, "hccl", first_error="Watchdog caught collective operation timeout")


def test_a_rank_killed_by_a_segfault_stays_a_device_fault() -> None:
    text = WATCHDOG_THEN_ABORT.replace("exitcode: -6", "exitcode: -11").split("\n")
    diagnosis = diagnose_text("train/launcher.log", "\n".join(text[-2:]))
    assert diagnosis.category == "device_fault"


LAUNCHER_TAIL_ONLY = """\
frame #4: <unknown function> + 0x94ac3 (0x7f11a2094ac3 in /lib/x86_64-linux-gnu/libc.so.6)
frame #5: clone + 0x44 (0x7f11a2126a04 in /lib/x86_64-linux-gnu/libc.so.6)

W0312 08:41:07.118000 40211 site-packages/torch/distributed/elastic/multiprocessing/api.py:897] Sending process 40290 closing signal SIGTERM
W0312 08:41:07.120000 40211 site-packages/torch/distributed/elastic/multiprocessing/api.py:897] Sending process 40291 closing signal SIGTERM
E0312 08:41:07.402000 40211 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -6) local_rank: 2 (pid: 40292) of binary: /srv/venv/bin/python3
"""


def test_an_abort_with_only_the_launcher_tail_names_the_watchdog_as_the_alternative() -> None:
    # docs/labelling.md#a-rank-that-aborted-with-only-the-launcher-tail-left
    diagnosis = diagnose_text("train/launcher.log", LAUNCHER_TAIL_ONLY)
    assert_reads(diagnosis, "device_fault", first_error="exitcode: -6", beside=("hccl",))


def test_a_segfault_tail_gets_no_communication_alternative() -> None:
    # docs/labelling.md#a-rank-that-aborted-with-only-the-launcher-tail-left
    diagnosis = diagnose_text("train/launcher.log", LAUNCHER_TAIL_ONLY.replace("-6)", "-11)"))
    assert diagnosis.category == "device_fault"
    assert "hccl" not in alternative_labels(diagnosis)


SPAWN_ABORT_AFTER_PEER_RESET = """\
rank 6: layer 0 passed
rank 7: layer 0 passed
rank 6:  norm passed
rank 7:  norm passed
rank 6:  attention passed
rank 7:  attention passed
Fatal Python error: Aborted

rank 7:  MoE passed
rank 7: layer 1 passed
rank 7:  norm passed
rank 7: model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error [127.0.0.1]:11944: Connection reset by peer. This is typically caused by a remote worker hanging or bugs in the application. Check the logs of the remote worker before reporting an error. GLHF!
W1204 16:52:40.462000 8498 torch/multiprocessing/spawn.py:165] Terminating process 8514 via signal SIGTERM
Traceback (most recent call last):
  File "/srv/job/spawn_main.py", line 20, in <module>
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
  File "/usr/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 192, in join
    raise ProcessExitedException(
torch.multiprocessing.spawn.ProcessExitedException: process 6 terminated with signal SIGABRT
"""


def test_a_spawned_child_that_aborted_without_a_word_is_the_culprit_not_the_peer() -> None:
    # docs/labelling.md#a-rank-that-aborted-with-only-the-launcher-tail-left
    diagnosis = diagnose_text("job/launcher.log", SPAWN_ABORT_AFTER_PEER_RESET)
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [6]
    assert "hccl" in alternative_labels(diagnosis)


# Older torch raised only this sentence in a rank whose watchdog tore the communicator down; an
# MPI launcher's output tags can be glued into it when the line was written in two pieces.
ABORT_WITHOUT_REASON = """\
[1,5]<stderr>:RuntimeError[1,5]<stderr>:: NCCL communicator was aborted on rank 5.
[1,12]<stderr>:Traceback (most recent call last):
[1,12]<stderr>:  File "tools/train_net.py", line 88, in <module>
[1,12]<stderr>:    run_epoch(model, loader)
[1,12]<stderr>:  File "tools/train_net.py", line 61, in run_epoch
[1,12]<stderr>:    engine.step()
"""

OOM_THEN_ABORT = """\
[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.10 GiB of which 1.02 GiB is free.
[rank1]: RuntimeError: NCCL communicator was aborted on rank 1.
"""


def test_an_abort_that_kept_no_reason_is_still_a_failed_collective() -> None:
    # docs/labelling.md#a-watchdog-headline-without-its-detail
    diagnosis = diagnose_text("job/mpirun.log", ABORT_WITHOUT_REASON)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="communicator was aborted on rank 5",
        rule="hccl.nccl_communicator_aborted",
        beside=("hang", "device_fault"),
    )


def test_an_abort_after_a_rank_ran_out_of_memory_is_its_consequence() -> None:
    # docs/labelling.md#a-watchdog-headline-without-its-detail
    diagnosis = diagnose_text("job/train.log", OOM_THEN_ABORT)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")
