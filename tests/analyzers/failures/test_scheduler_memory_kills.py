"""A batch scheduler's own record that it killed a job for exceeding its memory share.

docs/labelling.md#a-rank-killed-for-host-memory: Slurm's step daemon counting the cgroup's OOM
kills, srun's `Out Of Memory` status for a task, LSF's `TERM_MEMLIMIT` report and Torque's
`PBS: job killed: mem ...` are each a kill for lack of the job's share of host memory: `oom`,
`device_fault` beside it, the record the first error, and the shell's or srun's `Killed` for the
same job yielding to it. Fixtures are our own jobs written in the schedulers' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A batch script whose training process the shell reports killed; slurmstepd adds its count.
SHELL_KILLED_THEN_CGROUP_COUNT = """\
epoch 2 step 310 loss 0.412
epoch 2 step 320 loss 0.409
/var/spool/slurmd/job05512/slurm_script: line 14: 20117 Killed                  python train.py --epochs 50 --batch-size 512
slurmstepd: error: Detected 1 oom-kill event(s) in StepId=5512.batch cgroup. Some of your processes may have been killed by the cgroup out-of-memory handler.
"""

# An srun step on newer Slurm: the step daemon's count, then srun's status for the task.
STEP_COUNT_AND_TASK_STATUS = """\
slurmstepd: error: Detected 1 oom_kill event in StepId=7781203.0. Some of the step tasks have been OOM Killed.
srun: error: gpu-c07: task 3: Out Of Memory
srun: error: gpu-c07: tasks 0-2: Terminated
"""

LSF_REPORT = """\
Sender: LSF System <lsfadmin@hpc-n041>
Subject: Job 48812: <python finetune.py> in cluster <hpc> Exited

------------------------------------------------------------

TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.
Exited with exit code 130.

Resource usage summary:

    CPU time :                                   812.40 sec.
    Max Memory :                                 63 GB
    Total Requested Memory :                     64.00 GB
"""

TORQUE_MEM = """\
=>> PBS: job killed: mem 33619968kb exceeded limit 33554432kb
"""

# Counterexample: an accounting warning with no kill; the job's own error decides.
LIMIT_PASSED_NO_KILL = """\
slurmstepd: error: Exceeded step memory limit at some point.
Traceback (most recent call last):
  File "train.py", line 88, in <module>
    main()
ValueError: learning rate must be positive, got -0.001
"""

# Counterexample: the shell's Killed with no scheduler record stays a killed process.
SHELL_KILLED_ALONE = """\
/var/spool/slurmd/job05513/slurm_script: line 14: 20190 Killed                  python train.py --epochs 50
"""


def test_the_cgroup_count_outranks_the_shells_killed() -> None:
    diagnosis = diagnose_text("error_5512.err", SHELL_KILLED_THEN_CGROUP_COUNT)
    assert_reads(
        diagnosis,
        "oom",
        first_error="oom-kill event(s) in StepId=5512.batch",
        rule="oom.scheduler_memory_kill",
        beside=("device_fault",),
    )


def test_a_step_count_and_srun_out_of_memory_read_alike() -> None:
    diagnosis = diagnose_text("slurm-7781203.out", STEP_COUNT_AND_TASK_STATUS)
    assert_reads(diagnosis, "oom", first_error="oom_kill event in StepId=7781203.0")


def test_srun_out_of_memory_alone_names_the_task() -> None:
    diagnosis = diagnose_text("slurm-7781204.out", "srun: error: gpu-c07: task 3: Out Of Memory\n")
    assert diagnosis.category == "oom", diagnosis.root_cause
    assert "oom.scheduler_memory_kill" in rules_of(diagnosis)
    assert 3 in diagnosis.culprit_ranks


def test_lsfs_memory_limit_report_is_host_memory() -> None:
    diagnosis = diagnose_text("lsf.o48812", LSF_REPORT)
    assert diagnosis.category == "oom", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("TERM_MEMLIMIT")


def test_torques_memory_kill_is_host_memory() -> None:
    diagnosis = diagnose_text("job.o8812", TORQUE_MEM)
    assert diagnosis.category == "oom", diagnosis.root_cause
    assert "oom.scheduler_memory_kill" in rules_of(diagnosis)


def test_a_limit_passed_without_a_kill_leaves_the_jobs_error_first() -> None:
    diagnosis = diagnose_text("slurm-5514.out", LIMIT_PASSED_NO_KILL)
    assert "oom.scheduler_memory_kill" not in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "learning rate must be positive" in diagnosis.first_error.text


def test_the_shells_killed_alone_stays_a_killed_process() -> None:
    diagnosis = diagnose_text("error_5513.err", SHELL_KILLED_ALONE)
    assert diagnosis.category == "device_fault", diagnosis.root_cause
    assert "oom" in {a.category for a in diagnosis.alternatives}


# A Ray Tune driver under sbatch: Ray reports a trial's actor gone, the driver's traceback
# follows for many lines, and the step daemon's count of OOM kills comes last.
RAY_ACTOR_GONE_THEN_STEP_COUNT = (
    "Traceback (most recent call last):\n"
    '  File "/opt/env/lib/python3.10/site-packages/ray/_private/worker.py", line 2630, in get\n'
    "    raise value\n"
    "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
    + "".join(
        f"trial sweep_{i:03d} status ERROR iter 0 wall 00:0{i % 10}:1{i % 6}\n" for i in range(20)
    )
    + "Traceback (most recent call last):\n"
    '  File "/home/u31/sweep.py", line 41, in <module>\n'
    "    tuner.fit()\n"
    "ray.tune.error.TuneError: ('Trials did not complete', [sweep_007])\n"
    "slurmstepd: error: Detected 5 oom-kill event(s) in StepId=66120.batch cgroup. Some of your"
    " processes may have been killed by the cgroup out-of-memory handler.\n"
)

# Counterexample: a scheduler record that is no memory kill leaves Ray's report in its place.
RAY_ACTOR_GONE_THEN_TIME_LIMIT = (
    "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
    "trial sweep_002 status ERROR iter 3\n"
    "slurmstepd: error: *** JOB 66121 ON gpu-a03 CANCELLED AT 2026-03-01T04:00:12 DUE TO TIME"
    " LIMIT ***\n"
)


def test_a_scheduler_count_below_a_ray_death_report_explains_it() -> None:
    diagnosis = diagnose_text("slurm-66120.out", RAY_ACTOR_GONE_THEN_STEP_COUNT)
    assert_reads(
        diagnosis,
        "oom",
        first_error="oom-kill event(s) in StepId=66120.batch",
        beside=("device_fault",),
    )


def test_a_ray_death_report_before_another_record_keeps_its_place() -> None:
    diagnosis = diagnose_text("slurm-66121.out", RAY_ACTOR_GONE_THEN_TIME_LIMIT)
    assert_reads(diagnosis, "device_fault", first_error="The actor died unexpectedly")
