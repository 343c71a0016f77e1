"""The heartbeat monitor's opening line when a process group's watchdog stops beating.

Newer torch releases open the monitor's report with the process group that first noticed:
`First PG on this rank that detected no heartbeat of its watchdog.`, then `Heartbeat monitor
timed out!`, and after the dump the fatal `watchdog got stuck for N seconds`. All three report the
same stall, so the opening line is the first error and the label is the stall's: `hang`, with
`hccl` beside it (docs/labelling.md#a-watchdog-that-is-itself-stuck).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# One rank of a fine-tune stalls at step 5; a console prints its own time stamps between lines.
MONITOR_SEQUENCE = """\
 33%|███▎      | 5/15 [00:09<00:18,  1.82s/it][rank1]:[E1102 08:15:40.102938475 ProcessGroupNCCL.cpp:1375] [PG 0 (default_pg) Rank 1] First PG on this rank that detected no heartbeat of its watchdog.
2025-11-02 08:15:40
[rank1]:[E1102 08:15:40.103004512 ProcessGroupNCCL.cpp:1413] [PG 0 (default_pg) Rank 1] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=4
"""

# Counterexample: the setting that turns the monitor off is no stall.
MONITOR_SETTING = "export TORCH_NCCL_ENABLE_MONITORING=0  # no heartbeat monitor for this run\n"


def test_the_monitors_opening_line_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/train.log", MONITOR_SEQUENCE)
    assert_reads(
        diagnosis,
        "hang",
        first_error="First PG on this rank that detected no heartbeat of its watchdog",
        rule="hang.pg_watchdog_stuck",
        beside=("hccl",),
    )


def test_the_monitor_setting_is_no_stall() -> None:
    diagnosis = diagnose_text("run.sh", MONITOR_SETTING)
    assert "hang.pg_watchdog_stuck" not in rules_of(diagnosis)
