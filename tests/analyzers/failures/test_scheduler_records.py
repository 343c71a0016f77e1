"""Lines a batch scheduler writes about a job it stopped or refused.

docs/labelling.md#a-job-stopped-from-outside: Slurm's step daemon records a job ended by its
time limit, by preemption or by a requeue (submitit warns of the same stop first); like torchelastic's signal record, it is the answer only when
nothing in the job failed first (`other`, `hang` beside it). Torque/PBS (its `=>> PBS:` line and
its job-end mail), Moab and LSF record the same stops in their own words and read alike.
docs/labelling.md#a-scheduler-that-refuses-the-request: srun or sbatch refusing a request the
allocation or partition cannot meet is the launch script's request (`config`); so is Volcano's
NPU plugin refusing the nodes it checked for a task, which leaves the job Pending (`config`,
`driver_env` beside it); a node refusing the step's credential is the cluster's set-up
(`driver_env`, `config` beside it). Values are our own, in the schedulers' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

TIME_LIMIT = """\
Epoch 3:  41%|████      | 410/1000 [1:02:11<1:29:30,  9.10s/it, loss=2.31]
Epoch 3:  41%|████      | 411/1000 [1:02:20<1:29:21,  9.10s/it, loss=2.30]
slurmstepd: error: *** JOB 6203117 ON gpu-c014 CANCELLED AT 2026-02-17T09:41:05 DUE TO TIME LIMIT ***
srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
slurmstepd: error: *** STEP 6203117.0 ON gpu-c014 CANCELLED AT 2026-02-17T09:41:05 DUE TO TIME LIMIT ***
"""

PREEMPTED = """\
step 1200 loss 1.93
slurmstepd: error: *** JOB 2207415 ON gpu-c014 CANCELLED AT 2025-06-30T03:12:09 DUE TO PREEMPTION ***
srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
"""

# A preemption that puts the job back in the queue: submitit is told first (the signal the
# scheduler sends ahead of the stop), then the step daemon records the requeue and the tasks end.
REQUEUED_UNDER_SUBMITIT = """\
step 5210 loss 1.48
submitit WARNING (2025-08-21 14:02:31,907) - Caught signal SIGUSR2 on gpu-c019: this job is preempted.
slurmstepd: error: *** JOB 88410 ON gpu-c019 CANCELLED AT 2025-08-21T14:02:33 DUE TO JOB REQUEUE ***
slurmstepd: error: *** STEP 88410.0 ON gpu-c019 CANCELLED AT 2025-08-21T14:02:33 DUE TO JOB REQUEUE ***
submitit WARNING (2025-08-21 14:02:33,640) - Bypassing signal SIGTERM
slurmstepd: error: Failed to send MESSAGE_TASK_EXIT: Connection refused
srun: error: gpu-c019: tasks 1-3: Exited with exit code 1
"""

REQUEUED = """\
step 5210 loss 1.48
slurmstepd: error: *** STEP 88410.0 ON gpu-c019 CANCELLED AT 2025-08-21T14:02:33 DUE TO JOB REQUEUE ***
"""

# Counterexample: submitit passes over every SIGTERM; alone, that says nothing about why.
SIGTERM_BYPASSED_ONLY = """\
step 5210 loss 1.48
submitit WARNING (2025-08-21 14:02:33,640) - Bypassing signal SIGTERM
"""

# Counterexample: the collective had already timed out when the limit ended the job.
WATCHDOG_THEN_LIMIT = """\
[rank1]:[E0217 09:10:44.207315880 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800000 milliseconds before timing out.
slurmstepd: error: *** JOB 6203117 ON gpu-c014 CANCELLED AT 2026-02-17T09:41:05 DUE TO TIME LIMIT ***
"""

# Counterexample: srun ends the step itself after a task failed; no reason is recorded.
TASK_FAILED_THEN_STEP_CANCELLED = """\
srun: error: gpu-c014: task 4: Exited with exit code 1
srun: Terminating job step 6203980.0
slurmstepd: error: *** STEP 6203980.0 ON gpu-c014 CANCELLED AT 2026-02-18T22:03:51 ***
"""

TORQUE_WALLTIME = """\
step 8800 loss 1.21
=>> PBS: job killed: walltime 7219 exceeded limit 7200
"""

MOAB_MAIL = """\
PBS Job Id: 771203.sched-01
Job Name:   ddp_train
job deleted
Job deleted at request of root@sched-01
MOAB_INFO:  job exceeded wallclock limit
"""

# Torque's job-end mail: the headline says who aborted the job, the line under it why; the
# negative exit status is the server's own code for that kill.
TORQUE_MAIL = """\
PBS Job Id: 4410278.sched-01
Job Name:   ddp_8n
Exec host:  node-07/0+node-08/0+node-09/0+node-10/0
Aborted by PBS Server
Job exceeded its walltime limit. Job was aborted
See Administrator for help
Exit_status=-11
resources_used.walltime=24:00:31
"""

# Counterexample: the same mail for a memory limit is no stop from outside.
TORQUE_MEMORY_MAIL = """\
PBS Job Id: 4410279.sched-01
Aborted by PBS Server
Job exceeded a memory resource limit (vmem, pvmem, etc). Job was aborted
Exit_status=-10
"""

LSF_RUN_LIMIT = """\
------------------------------------------------------------

TERM_RUNLIMIT: job killed after reaching LSF run time limit.
Exited with exit code 140.
"""

# A node whose slurmd does not accept the step's credential: no task starts.
CREDENTIAL_REFUSED = """\
srun: error: Task launch for StepId=88123.0 failed on node gpu-a04: Job credential expired
srun: launch/slurm: launch_p_step_launch: StepId=88123.0 aborted before step completely launched.
"""

# Counterexample: the aborted launch line alone names no reason.
LAUNCH_ABORTED_ONLY = """\
srun: launch/slurm: launch_p_step_launch: StepId=88123.0 aborted before step completely launched.
"""

STEP_REFUSED = """\
+ srun --nodes=1 --ntasks=1 -w 'gpu-a01 gpu-a02' ray start --head --block
srun: error: Unable to create step for job 88123: Requested node configuration is not available
"""

JOB_REFUSED = """\
sbatch: error: Batch job submission failed: Requested node configuration is not available
"""

# A pod of a Volcano job that the NPU plugin's node check refused, as `kubectl describe pod`
# shows it; the job never started.
NODE_CHECK_REFUSED = """\
Events:
  Type     Reason            Age   From     Message
  ----     ------            ----  ----     -------
  Warning  FailedScheduling  38s   volcano  0/1 nodes are unavailable: 1 node check failed. for details,log by search keywords <checkNodeNPUByTask : check Node npu-node-3 label [accelerator-type] Failed, value is module-910b-8> in volcano's log.
"""

# The scheduler's own record of the same refusal.
NODE_PREDICATE_RECORD = """\
I0709 20:11:03.512204       1 npu.go:88] NodePredicate failed for task train/llm-worker-0 err:checkNodeNPUByTask : check Node npu-node-3 label [accelerator-type] Failed, value is module-910b-8
"""

# Counterexample: a pod the scheduler placed; its events say nothing about the job's failure.
NODE_CHECK_PASSED = """\
Events:
  Type    Reason     Age   From     Message
  ----    ------     ----  ----     -------
  Normal  Scheduled  52s   volcano  Successfully assigned train/llm-worker-0 to npu-node-3
  Normal  Pulled     50s   kubelet  Container image "mindspeed:2.1" already present on machine
  Normal  Started    49s   kubelet  Started container worker
"""

# A pod asking for a slice of an NPU that no node offers, as `kubectl describe pod` shows it.
ACCELERATOR_REQUEST_REFUSED = """\
Events:
  Type     Reason            Age   From            Message
  ----     ------            ----  ----            -------
  Warning  FailedScheduling  14s   hami-scheduler  0/2 nodes are available: 2 Insufficient huawei.com/Ascend910B4-memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.
"""

# A sharing scheduler's filter refusing the nodes with its own reason word.
SHARING_FILTER_REFUSED = """\
NAME        READY   STATUS    RESTARTS   AGE
npu-pod     0/1     Pending   0          2m
  Warning  FilteringFailed  2m5s (x21 over 2m9s)  hami-scheduler  2 nodes ModeNotFit(npu-node-1, npu-node-2)
"""

# Counterexample: the nodes lacked host memory, not an accelerator.
HOST_MEMORY_REFUSED = """\
  Warning  FailedScheduling  22s   default-scheduler  0/3 nodes are available: 3 Insufficient memory.
"""

# Counterexample: a step asked for while the job was already ending.
STEP_AFTER_END = """\
srun: error: Unable to create step for job 88123: Job/step already completing or completed
"""


def test_a_time_limit_that_ends_a_job_still_advancing_is_the_stop_itself() -> None:
    diagnosis = diagnose_text("slurm-6203117.out", TIME_LIMIT)
    assert_reads(
        diagnosis,
        "other",
        first_error="DUE TO TIME LIMIT",
        rule="ext.scheduler_cancelled",
        beside=("hang",),
    )


def test_a_preemption_record_reads_the_same_way() -> None:
    diagnosis = diagnose_text("slurm-2207415.out", PREEMPTED)
    assert_reads(diagnosis, "other", first_error="DUE TO PREEMPTION")


def test_a_requeue_record_reads_as_a_preemption() -> None:
    diagnosis = diagnose_text("slurm-88410.out", REQUEUED)
    assert_reads(diagnosis, "other", first_error="DUE TO JOB REQUEUE", beside=("hang",))


def test_submitits_preemption_warning_is_the_stop_and_comes_first() -> None:
    diagnosis = diagnose_text("88410_0_log.err", REQUEUED_UNDER_SUBMITIT)
    assert_reads(diagnosis, "other", first_error="this job is preempted")
    assert "hccl" not in {a.category for a in diagnosis.alternatives}


def test_a_bypassed_sigterm_alone_is_no_stop_record() -> None:
    diagnosis = diagnose_text("88410_0_log.err", SIGTERM_BYPASSED_ONLY)
    assert "ext.scheduler_cancelled" not in rules_of(diagnosis)


def test_an_earlier_collective_timeout_wins_over_the_time_limit() -> None:
    diagnosis = diagnose_text("slurm-6203117.out", WATCHDOG_THEN_LIMIT)
    assert_reads(diagnosis, "hccl", first_error="Watchdog caught collective operation timeout")


def test_a_step_cancelled_without_a_reason_is_not_a_stop_from_outside() -> None:
    diagnosis = diagnose_text("slurm-6203980.out", TASK_FAILED_THEN_STEP_CANCELLED)
    assert "ext.scheduler_cancelled" not in rules_of(diagnosis)


def test_a_step_the_allocation_cannot_satisfy_is_the_scripts_request() -> None:
    diagnosis = diagnose_text("slurm-88123.out", STEP_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unable to create step for job 88123",
        rule="cfg.scheduler_request_unsatisfiable",
    )


def test_a_refused_submission_reads_the_same_way() -> None:
    diagnosis = diagnose_text("submit.log", JOB_REFUSED)
    assert diagnosis.category == "config"
    assert "cfg.scheduler_request_unsatisfiable" in rules_of(diagnosis)


def test_a_step_asked_for_while_the_job_ends_is_not_a_refused_request() -> None:
    diagnosis = diagnose_text("slurm-88123.out", STEP_AFTER_END)
    assert "cfg.scheduler_request_unsatisfiable" not in rules_of(diagnosis)


def test_a_pod_the_npu_plugin_refused_every_node_for_is_the_jobs_request() -> None:
    diagnosis = diagnose_text("describe-pod.txt", NODE_CHECK_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="node check failed",
        rule="cfg.npu_scheduler_node_check_failed",
        beside=("driver_env",),
    )


def test_the_schedulers_own_record_of_the_refusal_reads_the_same_way() -> None:
    diagnosis = diagnose_text("volcano-scheduler.log", NODE_PREDICATE_RECORD)
    assert diagnosis.category == "config"
    assert "cfg.npu_scheduler_node_check_failed" in rules_of(diagnosis)


def test_a_placed_pod_is_no_refusal() -> None:
    diagnosis = diagnose_text("describe-pod.txt", NODE_CHECK_PASSED)
    assert "cfg.npu_scheduler_node_check_failed" not in rules_of(diagnosis)


def test_other_schedulers_time_limit_kills_read_as_the_stop() -> None:
    for name, text, words in (
        ("job.o7219", TORQUE_WALLTIME, "walltime 7219 exceeded limit 7200"),
        ("mail.txt", MOAB_MAIL, "job exceeded wallclock limit"),
        ("lsf.o771", LSF_RUN_LIMIT, "TERM_RUNLIMIT"),
    ):
        diagnosis = diagnose_text(name, text)
        assert diagnosis.category == "other", (name, diagnosis.root_cause)
        assert diagnosis.first_error is not None, name
        assert words in diagnosis.first_error.text, name
        assert "ext.scheduler_cancelled" in rules_of(diagnosis), name


def test_torques_job_end_mail_names_the_walltime_under_its_headline() -> None:
    diagnosis = diagnose_text("ddp_8n.o4410278", TORQUE_MAIL)
    assert_reads(
        diagnosis,
        "other",
        first_error="Job exceeded its walltime limit",
        rule="ext.scheduler_cancelled",
    )


def test_torques_mail_for_a_memory_limit_is_no_stop_from_outside() -> None:
    diagnosis = diagnose_text("ddp_8n.o4410279", TORQUE_MEMORY_MAIL)
    assert "ext.scheduler_cancelled" not in rules_of(diagnosis)


def test_a_node_refusing_the_step_credential_is_the_clusters_setup() -> None:
    diagnosis = diagnose_text("slurm-88123.out", CREDENTIAL_REFUSED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Job credential expired",
        rule="env.slurm_task_launch_refused",
        beside=("config",),
    )


def test_an_aborted_launch_with_no_reason_is_no_credential_refusal() -> None:
    diagnosis = diagnose_text("slurm-88123.out", LAUNCH_ABORTED_ONLY)
    assert "env.slurm_task_launch_refused" not in rules_of(diagnosis)


def test_a_pod_whose_accelerator_request_fits_no_node_is_the_request() -> None:
    for text, words in (
        (ACCELERATOR_REQUEST_REFUSED, "Insufficient huawei.com/Ascend910B4-memory"),
        (SHARING_FILTER_REFUSED, "ModeNotFit(npu-node-1"),
    ):
        diagnosis = diagnose_text("describe-pod.txt", text)
        assert_reads(
            diagnosis,
            "config",
            first_error=words,
            rule="cfg.accelerator_request_fits_no_node",
            beside=("driver_env",),
        )


def test_a_pod_refused_for_host_memory_is_no_accelerator_request() -> None:
    diagnosis = diagnose_text("describe-pod.txt", HOST_MEMORY_REFUSED)
    assert "cfg.accelerator_request_fits_no_node" not in rules_of(diagnosis)


# The Kubernetes scheduler's own record of a pod no node accepted, at INFO level: a
# device-sharing scheduler found no node whose cards its device plugin had registered.
DEVICES_UNREGISTERED_RECORD = """\
I0302 08:15:11.102431       1 schedule_one.go:81] "Attempting to schedule pod" pod="train/llm-0"
I0302 08:15:11.104870       1 schedule_one.go:854] "Unable to schedule pod; no fit; waiting" pod="train/llm-0" err="0/3 nodes are available: 2 node unregistered, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.."
I0302 08:15:11.104911       1 schedule_one.go:930] "Updating pod condition" pod="train/llm-0" conditionType=PodScheduled conditionStatus=False conditionReason="Unschedulable"
"""

# A pod refused for cpu and a node selector, as the event message alone is often pasted.
CPU_AND_SELECTOR_REFUSED = """\
0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't match Pod's node affinity/selector.
"""

# Counterexample: the scheduler's count with every node fitting says nothing failed.
NODES_TO_SPARE = """\
I0302 08:15:11.102431       1 cache.go:310] 3/3 nodes are available for pod train/llm-0
"""


def test_a_pod_refused_for_host_memory_is_still_a_request_no_node_fits() -> None:
    diagnosis = diagnose_text("describe-pod.txt", HOST_MEMORY_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="3 Insufficient memory",
        rule="cfg.pod_request_fits_no_node",
    )
    assert {"driver_env", "other"} <= {a.category for a in diagnosis.alternatives}


def test_a_bare_refusal_message_reads_the_same_way() -> None:
    diagnosis = diagnose_text("events.txt", CPU_AND_SELECTOR_REFUSED)
    assert_reads(diagnosis, "config", first_error="2 Insufficient cpu")


def test_an_accelerator_refusal_keeps_its_own_rule() -> None:
    diagnosis = diagnose_text("describe-pod.txt", ACCELERATOR_REQUEST_REFUSED)
    assert diagnosis.category == "config"
    assert "cfg.accelerator_request_fits_no_node" in rules_of(diagnosis)
    assert "cfg.pod_request_fits_no_node" not in rules_of(diagnosis)


def test_nodes_whose_devices_were_never_registered_are_the_node_setup() -> None:
    diagnosis = diagnose_text("hami-scheduler.log", DEVICES_UNREGISTERED_RECORD)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="2 node unregistered",
        rule="env.scheduler_node_devices_unregistered",
        beside=("config",),
    )


def test_a_count_with_nodes_to_spare_is_no_refusal() -> None:
    diagnosis = diagnose_text("kube-scheduler.log", NODES_TO_SPARE)
    assert "cfg.pod_request_fits_no_node" not in rules_of(diagnosis)
    assert diagnosis.first_error is None


# Kubernetes closes a refusal with its preemption pass, which counts the nodes a second time.
CPU_REFUSED_WITH_PREEMPTION = """\
  Warning  FailedScheduling  17s   default-scheduler  0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.
"""


def test_the_preemption_count_after_an_accelerator_refusal_is_no_refusal_of_its_own() -> None:
    # The second count only says no pod could be evicted; read as a refusal of its own it
    # offered the generic rule's `other` beside the accelerator rule's answer.
    for name, text in (
        ("describe-pod.txt", ACCELERATOR_REQUEST_REFUSED),
        ("hami-scheduler.log", DEVICES_UNREGISTERED_RECORD),
    ):
        diagnosis = diagnose_text(name, text)
        assert "other" not in {a.category for a in diagnosis.alternatives}, name


def test_a_refusal_with_its_preemption_count_keeps_the_generic_reading() -> None:
    diagnosis = diagnose_text("describe-pod.txt", CPU_REFUSED_WITH_PREEMPTION)
    assert_reads(
        diagnosis, "config", first_error="3 Insufficient cpu", rule="cfg.pod_request_fits_no_node"
    )
    assert {"driver_env", "other"} <= {a.category for a in diagnosis.alternatives}
