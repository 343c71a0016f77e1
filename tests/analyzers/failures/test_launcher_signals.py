"""Training-launch shapes met in real job logs.

The DeepSpeed launcher reports a dead child from its sigkill_handler with the child's command
list and `exits with return code = -N`: a signal, so the rank was killed or crashed; the
`--local_rank=K` in the list names it. And torch_npu probes optional CANN functions at start-up,
warning `[W File.cpp:N] Warning: ...Failed to find function aclrt...` when one is absent: that
warning must not outrank the device error that follows it. SGLang's launcher prints the raw
wait status of a child that ended (`Child process unexpectedly failed with an exit code 11`):
below 256 it is the signal, so 11 is a segfault; 256 and up is an exit code, no signal.
Supervisors that first name the rank they found dead and then print `Exit code: -N` alone are
read by that bare status; the notice alone stands for the rank's end, and under the rank's own
error it is only a summary.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

DS_LAUNCHER_KILLED = """\
[2024-06-02 08:14:51,602] [INFO] [launch.py:256:main] process 40211 spawned with command: ['/opt/conda/bin/python', '-u', 'sft.py', '--local_rank=1', '--zero_stage', '2']
[2024-06-02 09:02:17,118] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 40210
[2024-06-02 09:02:17,119] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 40211
[2024-06-02 09:02:17,240] [ERROR] [launch.py:321:sigkill_handler] ['/opt/conda/bin/python', '-u', 'sft.py', '--local_rank=1', '--zero_stage', '2'] exits with return code = -9
"""

MPIRUN_RANK_KILLED = """\
[TensorRT-LLM] TensorRT-LLM version: 0.10.0
[05/04/2024-17:40:12] [TRT-LLM] [I] Load engine takes: 41.2 sec
--------------------------------------------------------------------------
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
--------------------------------------------------------------------------
--------------------------------------------------------------------------
mpirun noticed that process rank 3 with PID 0 on node trt-a7 exited on signal 9 (Killed).
--------------------------------------------------------------------------
"""

MPIRUN_RANK_SEGFAULT = """\
--------------------------------------------------------------------------
mpirun noticed that process rank 2 with PID 0 on node trt-a7 exited on signal 11 (Segmentation fault).
--------------------------------------------------------------------------
"""

DS_LAUNCHER_PLAIN_EXIT = """\
[2024-06-02 09:02:17,240] [ERROR] [launch.py:321:sigkill_handler] ['/opt/conda/bin/python', '-u', 'sft.py', '--local_rank=0'] exits with return code = 1
"""

ELASTIC_REPORT_PLAIN_EXIT = """\
  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/launcher/api.py", line 263, in launch_agent
    raise ChildFailedError(
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
/workspace/finetune/run_sft.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2024-03-11_22:41:09
  host      : npu-node-07
  rank      : 5 (local_rank: 5)
  exitcode  : 1 (pid: 48210)
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
"""

PROBE_WARNING_THEN_AIV_ERROR = """\
Train:   0%|          | 0/812 [00:00<?, ?it/s][W AclInterface.cpp:172] Warning: 0Failed to find function aclrtSetOpExecuteTimeOut (function operator())
[E OpParamMaker.cpp:273] call aclnnIndexPut failed, detail:EZ9999: Inner Error!
EZ9999  The error from device(chipId:2, dieId:0), serial number is 7, there is an fftsplus aivector error exception, core id is 4, error code = 0, dump info: pc start: 0x12c0aa010000, current: 0x12c0aa0104f0.[FUNC:ProcessStarsCoreErrorInfo][FILE:device_error_proc.cc][LINE:1164]
"""


def test_deepspeed_launcher_signal_is_a_killed_rank_and_names_it():
    diagnosis = diagnose_text("launcher.log", DS_LAUNCHER_KILLED)
    assert_reads(diagnosis, "device_fault", first_error="exits with return code = -9")
    assert diagnosis.culprit_ranks == [1]


def test_deepspeed_launcher_plain_exit_code_alone_reads_as_torchruns():
    # docs/labelling.md#a-rank-that-exits-without-a-word: nothing else says why the rank ended
    diagnosis = diagnose_text("launcher.log", DS_LAUNCHER_PLAIN_EXIT)
    assert diagnosis.category == "device_fault"
    assert "other" in alternative_labels(diagnosis)
    assert diagnosis.confidence < 0.5


def test_deepspeed_launcher_plain_exit_code_is_a_summary_under_the_ranks_own_error():
    text = (
        "[rank0]: ValueError: tokenizer has no pad token; set one in the config\n"
        + DS_LAUNCHER_PLAIN_EXIT
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert diagnosis.first_error is not None
    assert "tokenizer has no pad token" in diagnosis.first_error.text


def test_elastic_report_of_a_plain_exit_alone_reads_as_the_agents_line():
    # docs/labelling.md#a-rank-that-exits-without-a-word: the report's record is all there is
    diagnosis = diagnose_text("launcher.log", ELASTIC_REPORT_PLAIN_EXIT)
    assert_reads(
        diagnosis, "device_fault", first_error="exitcode  : 1 (pid: 48210)", beside=("other",)
    )
    assert diagnosis.confidence < 0.5


def test_elastic_report_of_a_plain_exit_is_a_summary_under_the_ranks_own_error():
    text = (
        "[rank5]: KeyError: 'input_ids' is missing from the collated batch\n"
        + ELASTIC_REPORT_PLAIN_EXIT
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert diagnosis.first_error is not None
    assert "KeyError: 'input_ids'" in diagnosis.first_error.text


def test_optional_cann_function_warning_yields_to_the_device_error():
    diagnosis = diagnose_text("train.log", PROBE_WARNING_THEN_AIV_ERROR)
    assert_reads(diagnosis, "aicore_timeout", first_error="fftsplus aivector error")


def test_mpirun_reporting_a_rank_killed_by_sigkill_is_a_kill_with_memory_beside_it() -> None:
    diagnosis = diagnose_text("mpirun.log", MPIRUN_RANK_KILLED)
    assert_reads(
        diagnosis, "device_fault", first_error="exited on signal 9 (Killed)", beside=("oom",)
    )
    assert 3 in diagnosis.culprit_ranks


def test_mpirun_reporting_a_segfaulted_rank_offers_no_memory_reading() -> None:
    diagnosis = diagnose_text("mpirun.log", MPIRUN_RANK_SEGFAULT)
    assert diagnosis.category == "device_fault"
    assert "oom" not in {alternative.category for alternative in diagnosis.alternatives}


# torch.multiprocessing.spawn's join, as a job launched with mp.spawn prints it when a child
# dies: the spawn index it names is the child's local rank.
SPAWN_HEAD = """\
W1204 15:25:37.268000 13689 torch/multiprocessing/spawn.py:165] Terminating process 13694 via signal SIGTERM
W1204 15:25:37.269000 13689 torch/multiprocessing/spawn.py:165] Terminating process 13695 via signal SIGTERM
Traceback (most recent call last):
  File "/srv/job/spawn_main.py", line 20, in <module>
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 340, in spawn
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 296, in start_processes
    while not context.join():
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 200, in join
    raise ProcessExitedException(
"""
SPAWN_EXIT_CODE = SPAWN_HEAD + (
    "torch.multiprocessing.spawn.ProcessExitedException: process 5 terminated with exit code 3\n"
)
SPAWN_SIGKILL = SPAWN_HEAD + (
    "torch.multiprocessing.spawn.ProcessExitedException: process 2 terminated with signal SIGKILL\n"
)
SPAWN_SIGSEGV = SPAWN_HEAD + (
    "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGSEGV\n"
)


def test_spawn_join_reporting_a_plain_exit_alone_reads_as_torchruns() -> None:
    # docs/labelling.md#a-rank-that-exits-without-a-word: the child ended and nothing says why
    diagnosis = diagnose_text("launcher.log", SPAWN_EXIT_CODE)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="process 5 terminated with exit code 3",
        beside=("other",),
    )
    assert diagnosis.confidence < 0.5


def test_spawn_join_plain_exit_names_the_child_whose_own_log_holds_no_error() -> None:
    progress = (
        "prefill start: 8 tokens\n norm passed\n attention passed\n MoE passed\nlayer 0 passed\n"
    )
    peer = progress + " norm passed\n"
    diagnosis = diagnose_files(
        {
            "job/launcher.log": SPAWN_EXIT_CODE,
            "job/log_0.log": peer,
            "job/log_4.log": peer,
            "job/log_5.log": progress,
        }
    )
    assert_reads(diagnosis, "device_fault", first_error="process 5 terminated with exit code 3")
    assert diagnosis.culprit_ranks == [5]


def test_spawn_join_plain_exit_is_a_summary_under_the_ranks_own_error() -> None:
    text = "[rank5]: ValueError: kv cache blocks must be positive, got 0\n" + SPAWN_EXIT_CODE
    diagnosis = diagnose_text("launcher.log", text)
    assert diagnosis.first_error is not None
    assert "kv cache blocks must be positive" in diagnosis.first_error.text


def test_spawn_join_reporting_a_sigkill_is_a_kill_with_memory_beside_it() -> None:
    # docs/labelling.md#a-rank-killed-for-host-memory
    diagnosis = diagnose_text("launcher.log", SPAWN_SIGKILL)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="process 2 terminated with signal SIGKILL",
        beside=("oom",),
    )
    assert diagnosis.culprit_ranks == [2]


def test_spawn_join_reporting_a_segfault_names_the_child_and_offers_no_memory_reading() -> None:
    diagnosis = diagnose_text("launcher.log", SPAWN_SIGSEGV)
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [1]
    assert "oom" not in {alternative.category for alternative in diagnosis.alternatives}


SPAWN_RAISED_HEAD = """\
spawning 8 ranks
W1204 15:48:34.300000 21373 torch/multiprocessing/spawn.py:165] Terminating process 21586 via signal SIGTERM
W1204 15:48:34.301000 21373 torch/multiprocessing/spawn.py:165] Terminating process 21587 via signal SIGTERM
Traceback (most recent call last):
  File "/work/job/spawn_main.py", line 20, in <module>
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 296, in start_processes
    while not context.join():
              ^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 211, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException: 

-- Process 5 terminated with the following error:
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "/work/job/infer.py", line 190, in pre_init
    with open(cfg) as f:
         ^^^^^^^^^
"""


def test_spawn_join_raised_header_names_the_child_and_yields_to_its_exception() -> None:
    # docs/labelling.md#a-rank-that-exits-without-a-word: the empty ProcessRaisedException is
    # the join's summary; the child's own exception ends the block under it
    text = SPAWN_RAISED_HEAD + "RuntimeError: tokenizer returned an empty batch\n"
    diagnosis = diagnose_text("launcher.log", text)
    assert diagnosis.culprit_ranks == [5]
    assert diagnosis.first_error is not None
    assert "ProcessRaisedException" not in diagnosis.first_error.text


def test_a_missing_input_file_in_a_spawned_child_is_the_jobs_setting() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load
    text = SPAWN_RAISED_HEAD + (
        "FileNotFoundError: [Errno 2] No such file or directory: "
        "'/models/toy-moe/parallel_config.json'\n"
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert_reads(diagnosis, "config", first_error="No such file or directory")
    assert diagnosis.culprit_ranks == [5]


PALS_CRASH_THEN_KILLS = """\
[2026-02-11 14:03:27][INFO][train:212] step=0 building the sharded model on 12 ranks
x1204c3s5b0n0: rank 6 died from signal 11 and dumped core
x1204c3s5b0n0: rank 2 died from signal 9
x1204c3s5b0n0: rank 9 died from signal 9
"""


def test_pals_reporting_a_crashed_rank_names_it_before_the_ranks_it_then_killed() -> None:
    # docs/labelling.md#a-rank-killed-for-host-memory: HPE Cray's mpiexec names the rank and the
    # signal with no error word; the crash comes first and the SIGKILLs after it are the teardown
    diagnosis = diagnose_text("launch.log", PALS_CRASH_THEN_KILLS)
    assert_reads(diagnosis, "device_fault", first_error="rank 6 died from signal 11")
    assert diagnosis.culprit_ranks == [6]


def test_pals_reporting_only_a_killed_rank_offers_memory_beside_it() -> None:
    diagnosis = diagnose_text("launch.log", "x3001c0s7b1n0: rank 14 died from signal 9\n")
    assert_reads(
        diagnosis, "device_fault", first_error="rank 14 died from signal 9", beside=("oom",)
    )


def test_pals_reporting_a_rank_ended_by_sigterm_is_no_crash() -> None:
    diagnosis = diagnose_text("launch.log", "x3001c0s7b1n0: rank 14 died from signal 15\n")
    assert diagnosis.category != "device_fault" or diagnosis.first_error is None


COMPOSER_RANK_SEGFAULT = """\
2026-03-09 16:20:11,402: rank0[5521][MainThread]: INFO: llmfoundry.command_utils.train: Building tokenizer...
2026-03-09 16:20:12,018: rank0[5521][MainThread]: INFO: llmfoundry.command_utils.train: Building eval loader...
ERROR:composer.cli.launcher:Global rank 1 (PID 5522) exited with code -11
Waiting up to 30 seconds for all training processes to terminate. Press Ctrl-C to exit immediately.
"""

COMPOSER_RANK_KILLED = """\
Building trainer...
ERROR:composer.cli.launcher:Rank 3 crashed with exit code -9.
Waiting up to 30 seconds for all training processes to terminate. Press Ctrl-C to exit immediately.
"""

COMPOSER_PLAIN_EXIT = """\
ERROR:composer.cli.launcher:Rank 2 crashed with exit code 1.
Waiting up to 30 seconds for all training processes to terminate. Press Ctrl-C to exit immediately.
"""


def test_composer_launcher_reporting_a_segfaulted_rank_names_it() -> None:
    # docs/labelling.md#a-rank-that-exits-without-a-word: Composer names the child by its global
    # rank and the signal as a negative code; nothing else in the paste says why it ended
    diagnosis = diagnose_text("composer.log", COMPOSER_RANK_SEGFAULT)
    assert_reads(diagnosis, "device_fault", first_error="exited with code -11")
    assert diagnosis.culprit_ranks == [1]


def test_composer_launcher_reporting_a_sigkill_offers_memory_beside_it() -> None:
    diagnosis = diagnose_text("composer.log", COMPOSER_RANK_KILLED)
    assert_reads(
        diagnosis, "device_fault", first_error="crashed with exit code -9", beside=("oom",)
    )


def test_composer_launcher_plain_exit_is_a_summary_under_the_ranks_own_error() -> None:
    # older releases say `crashed` even for a plain status: a summary, not a crash
    alone = diagnose_text("composer.log", COMPOSER_PLAIN_EXIT)
    assert alone.category == "device_fault", alone.root_cause
    assert "other" in alternative_labels(alone)
    text = "[rank2]: KeyError: 'labels' is missing from the packed batch\n" + COMPOSER_PLAIN_EXIT
    diagnosis = diagnose_text("composer.log", text)
    assert diagnosis.first_error is not None
    assert "KeyError: 'labels'" in diagnosis.first_error.text


SGLANG_CHILD_SEGFAULT = """\
[2026-01-12 08:30:40] Rank 0 scheduler is dead. Please check if there are relevant logs.
[2026-01-12 08:30:41] Child process unexpectedly failed with an exit code 11. pid=52210
[2026-01-12 08:30:41] Child process unexpectedly failed with an exit code 11. pid=52209
[2026-01-12 08:30:41] Exit code: -11
"""

SGLANG_CHILD_EXIT_STATUS = """\
[2026-01-12 08:30:41] Child process unexpectedly failed with an exit code 256. pid=52210
"""


def test_sglang_reporting_a_childs_wait_status_of_a_segfault_is_a_crash() -> None:
    diagnosis = diagnose_text("server.log", SGLANG_CHILD_SEGFAULT)
    assert_reads(diagnosis, "device_fault", first_error="with an exit code 11. pid=52210")


def test_sglang_reporting_a_plain_exit_status_is_no_crash_signal() -> None:
    diagnosis = diagnose_text("server.log", SGLANG_CHILD_EXIT_STATUS)
    assert "killed by a signal" not in diagnosis.root_cause


# A supervisor that names the rank whose process it found gone, then prints the status alone
# (docs/labelling.md#a-rank-killed-for-host-memory): a diffusion server built on vLLM's
# multi-process executor, and SGLang's launcher without a level field.
EXECUTOR_RANK_KILLED = """\
(APIServer pid=311) ERROR 05-06 07:08:09 [multiproc_executor.py:398] Rank 3 scheduler is dead. Please check if there are relevant logs.
(APIServer pid=311) ERROR 05-06 07:08:09 [multiproc_executor.py:400] Exit code: -9
(APIServer pid=311) ERROR 05-06 07:08:09 [stage_runtime.py:257] [StageRuntime] Stage initialization failed; shutting down 0 initialized client(s)
"""

EXECUTOR_RANK_SEGFAULT = EXECUTOR_RANK_KILLED.replace("Exit code: -9", "Exit code: -11")

EXECUTOR_RANK_STOPPED = EXECUTOR_RANK_KILLED.replace("Exit code: -9", "Exit code: -15")

SGLANG_RANK_DEAD_ALONE = """\
[2026-01-12 08:30:40] Rank 0 scheduler is dead. Please check if there are relevant logs.
"""

SGLANG_RANK_DEAD_UNDER_ITS_ERROR = """\
[2026-01-12 08:30:39 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/sglang/managers/scheduler.py", line 2706, in run_scheduler_process
    scheduler = Scheduler(
ValueError: The number of attention heads (20) must be divisible by the tensor parallel size (3).
[2026-01-12 08:30:40] Rank 0 scheduler is dead. Please check if there are relevant logs.
"""


def test_a_supervisors_bare_sigkill_status_is_a_kill_with_memory_beside_it() -> None:
    diagnosis = diagnose_text("server.log", EXECUTOR_RANK_KILLED)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("Exit code: -9")
    assert "oom" in {alternative.category for alternative in diagnosis.alternatives}


def test_a_supervisors_bare_segfault_status_is_a_crash_without_memory() -> None:
    diagnosis = diagnose_text("server.log", EXECUTOR_RANK_SEGFAULT)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("Exit code: -11")
    assert "oom" not in {alternative.category for alternative in diagnosis.alternatives}


def test_a_supervisors_bare_sigterm_status_is_no_crash_signal() -> None:
    diagnosis = diagnose_text("server.log", EXECUTOR_RANK_STOPPED)
    first = diagnosis.first_error
    assert first is None or not first.text.endswith("Exit code: -15")
    assert "killed by" not in diagnosis.root_cause


def test_a_supervisors_dead_rank_notice_alone_is_the_rank_gone() -> None:
    diagnosis = diagnose_text("server.log", SGLANG_RANK_DEAD_ALONE)
    assert_reads(diagnosis, "device_fault", first_error="Rank 0 scheduler is dead")


def test_a_supervisors_dead_rank_notice_is_a_summary_under_the_ranks_own_error() -> None:
    diagnosis = diagnose_text("server.log", SGLANG_RANK_DEAD_UNDER_ITS_ERROR)
    assert diagnosis.first_error is not None
    assert "must be divisible by the tensor parallel size" in diagnosis.first_error.text


# torchrun's summary of a child that aborted, as a terminal copy keeps it when the paste starts
# at the root-cause record (docs/labelling.md#a-rank-that-aborted-with-only-the-launcher-tail-left).
ELASTIC_REPORT_ABORT = """\
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-05-14_03:12:40
  host      : node-a7
  rank      : 3 (local_rank: 3)
  exitcode  : -6 (pid: 73114)
  error_file: <N/A>
  traceback : Signal 6 (SIGABRT) received by PID 73114
"""


def test_elastic_report_of_an_abort_alone_reads_as_the_agents_line():
    diagnosis = diagnose_text("launcher.log", ELASTIC_REPORT_ABORT)
    assert_reads(
        diagnosis, "device_fault", first_error="exitcode  : -6 (pid: 73114)", beside=("hccl",)
    )
    assert diagnosis.culprit_ranks == [3]
    assert diagnosis.confidence < 0.5


def test_elastic_report_of_an_abort_is_a_summary_under_the_ranks_own_timeout():
    text = (
        "[rank3]:[E514 03:12:38.120000 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=2, OpType=BROADCAST, NumelIn=1, "
        "NumelOut=1, Timeout(ms)=1800000) ran for 1800342 milliseconds before timing out.\n"
        + ELASTIC_REPORT_ABORT
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert_reads(diagnosis, "hccl", first_error="Watchdog caught collective operation timeout")


# torch.distributed.launch of torch 1.8 and older: Python's CalledProcessError for the child
# that ended, its command list naming the rank by `--local_rank`.
LEGACY_LAUNCH_CHILD_SIGNAL = """\
2021-03-14 10:02:51,310 - seg - INFO - Iter [16000/40000]	lr: 6.1e-03, loss: 0.2114
[>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>     ] 1771/2000, 12.4 task/s, elapsed: 143s, ETA:    18s
Traceback (most recent call last):
  File "/opt/conda/lib/python3.7/site-packages/torch/distributed/launch.py", line 253, in main
    raise subprocess.CalledProcessError(returncode=process.returncode,
subprocess.CalledProcessError: Command '['/opt/conda/bin/python', '-u', 'tools/train.py', '--local_rank=2', 'configs/seg_r50.py', '--launcher', 'pytorch']' died with <Signals.SIGNAL>.
"""


def test_legacy_launcher_reporting_a_sigkill_names_the_rank_with_memory_beside_it() -> None:
    """docs/labelling.md#a-rank-killed-for-host-memory: SIGKILL came from outside."""
    text = LEGACY_LAUNCH_CHILD_SIGNAL.replace("SIGNAL", "SIGKILL: 9")
    diagnosis = diagnose_text("job/launch.log", text)
    assert diagnosis.category == "device_fault", diagnosis.root_cause
    assert diagnosis.culprit_ranks == [2]
    assert "oom" in {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.first_error is not None
    assert "died with <Signals.SIGKILL: 9>" in diagnosis.first_error.text


def test_legacy_launcher_reporting_a_segfault_names_the_rank_without_memory() -> None:
    text = LEGACY_LAUNCH_CHILD_SIGNAL.replace("SIGNAL", "SIGSEGV: 11")
    diagnosis = diagnose_text("job/launch.log", text)
    assert diagnosis.category == "device_fault", diagnosis.root_cause
    assert diagnosis.culprit_ranks == [2]
    assert "oom" not in {alt.category for alt in diagnosis.alternatives}


def test_legacy_launcher_reporting_a_sigterm_is_no_crash() -> None:
    """A stop names no rank as the culprit of a crash."""
    text = LEGACY_LAUNCH_CHILD_SIGNAL.replace("SIGNAL", "SIGTERM: 15")
    diagnosis = diagnose_text("job/launch.log", text)
    assert diagnosis.category != "device_fault", diagnosis.root_cause
    assert diagnosis.culprit_ranks == []
