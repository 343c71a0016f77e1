"""A batch scheduler that reports a node of the job failed.

docs/labelling.md#a-node-that-drops-out: Slurm's clients say so in their own words when the
controller declares a node of the allocation down while a step runs (`srun: error: Node failure
on <node>`, the same from salloc or sbatch), and slurmstepd on the nodes still up records the
job's end for it (`*** JOB <id> ON <node> CANCELLED AT <time> DUE TO NODE FAILURE ... ***`). The
node dropped out: `device_fault`, with the machine (`driver_env`) and the stall of the ranks left
waiting (`hang`) beside it. Lines of our own in Slurm's format.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text


def test_srun_reporting_a_node_failure_is_the_node_dropping_out() -> None:
    text = (
        "srun: error: Node failure on gpu-c17\n"
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
    )
    assert_reads(
        diagnose_text("slurm-4411.out", text),
        "device_fault",
        first_error="Node failure on gpu-c17",
        rule="dev.scheduler_node_failure",
        beside=["driver_env"],
    )


def test_salloc_words_the_same_failure_alike() -> None:
    text = "0: node-a\n1: node-b\nsalloc: error: Node failure on node-b\n"
    assert_reads(
        diagnose_text("session.log", text),
        "device_fault",
        first_error="salloc: error: Node failure on node-b",
        rule="dev.scheduler_node_failure",
    )


def test_the_step_daemons_record_of_a_job_ended_for_a_node_failure_reads_alike() -> None:
    text = (
        "slurmstepd: error: *** JOB 77120 ON gpu-c18 CANCELLED AT 2026-03-02T04:11:09 DUE TO NODE"
        " FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***\n"
    )
    assert_reads(
        diagnose_text("slurm-77120.out", text),
        "device_fault",
        first_error="DUE TO NODE FAILURE",
        rule="dev.scheduler_node_failure",
    )


def test_a_job_ended_for_its_time_limit_is_not_a_node_failure() -> None:
    """Counterexample: the same record with another reason keeps the stop-from-outside reading."""
    text = (
        "slurmstepd: error: *** JOB 77121 ON gpu-c18 CANCELLED AT 2026-03-02T04:11:09 DUE TO TIME"
        " LIMIT ***\n"
    )
    diagnosis = diagnose_text("slurm-77121.out", text)
    assert diagnosis.category == "other", diagnosis.category
