"""NCCL's RAS report (`ncclras`) on the communicators of a running job.

docs/labelling.md#nccls-ras-report-on-a-jobs-communicators: the RAS client asks every process
of a job about its communicators and prints a summary table (`Group Comms Nodes Ranks ...
Status Errors`) and then `Errors` and `Warnings` sections. Its findings name no error word:
`Communicator ranks have different AllGather operation counts` with how many ranks launched up
to which operation (a stuck job whose ranks wait in a collective the others have not reached,
`hang` with `hccl` beside it), and `N job processes are considered dead (unreachable via the RAS
network)` (a process that stopped answering for good, `device_fault` with `hang` beside it).
Ranks whose communicator holds an error (`Asynchronous errors on 2 ranks`, `Initialization
error on 1 rank`, with what each rank reported under it) are the collective layer failing,
`hccl`; processes that sent no communicator data (`Missing communicator data from 1 job
process`) are ranks that could not answer, `hang` with `hccl` beside it. The RAS client's own
timeouts while it gathered the report are a warning about the report, not a failure of the
job. The table's header and the section titles are layout, never the first error. Counts,
hashes, pids and addresses are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

HEAD = (
    "NCCL version 2.27.3 compiled with CUDA 12.8\n"
    "CUDA runtime version 12080, driver version 12080\n"
    "\n"
    "Job summary\n"
    "===========\n"
    "\n"
    "  Nodes  Processes         GPUs  Processes     GPUs\n"
    "(total)   per node  per process    (total)  (total)\n"
    "      2          8            1         16       16\n"
    "\n"
    "Communicators... (0.01s)\n"
    "=============\n"
    "\n"
    "Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors\n"
    "    #  in group  per comm  per node  per comm  in group\n"
)
MISMATCH = HEAD + (
    "    0         1         2         8        16        16   RUNNING  MISMATCH\n"
    "\n"
    "Errors\n"
    "======\n"
    "\n"
    "Warnings\n"
    "========\n"
    "\n"
    "#0-0 (5d0c9e21a8f7b344) MISMATCH\n"
    "  Communicator ranks have different ReduceScatter operation counts\n"
    "  15 ranks have launched up to operation 2210\n"
    "  1 ranks have launched up to operation 2209\n"
    "  Rank 9 -- GPU 1 managed by process 70412 on node 10.8.0.12\n"
)
OLDER_WORDING = (
    "#0-0 (0b7e22c4a9d1f560) MISMATCH\n"
    "  Communicator ranks have different collective operation counts\n"
    "  30 ranks have launched up to operation 918\n"
    "  2 ranks have launched up to operation 917\n"
)
DEAD = HEAD + (
    "    0         1         2         8        16        16   RUNNING  INCOMPLETE\n"
    "\n"
    "Errors\n"
    "======\n"
    "\n"
    "DEAD\n"
    "  1 job process is considered dead (unreachable via the RAS network)\n"
    "  Process 91377 on node 10.8.0.13 managing GPU 6\n"
)
ASYNC_ERRORS = HEAD + (
    "    0         1         2         8        16        16   RUNNING  ERROR\n"
    "\n"
    "Errors\n"
    "======\n"
    "\n"
    "#0-0 (3c9e07d1b5a2f846) ERROR\n"
    "  Asynchronous errors on 2 ranks\n"
    "  2 ranks reported remote process exited or there was a network error\n"
    "  Rank 5 -- GPU 5 managed by process 48810 on node 10.8.0.12\n"
    "  Rank 13 -- GPU 5 managed by process 60144 on node 10.8.0.13\n"
    "\n"
    "Warnings\n"
    "========\n"
    "\n"
    "TIMEOUT\n"
    "  Encountered 2 communication timeouts while gathering communicator data\n"
)
INIT_ERROR = HEAD + (
    "    0         1         2         8        16        16      INIT   ERROR\n"
    "\n"
    "Errors\n"
    "======\n"
    "\n"
    "#0-0 (91d4a6e0c37b2f05) ERROR\n"
    "  Initialization error on 1 rank\n"
    "  Rank 2 reported unhandled system error (run with NCCL_DEBUG=INFO for details) -- GPU 2"
    " managed by process 30117 on node 10.8.0.12\n"
)
MISSING_DATA = HEAD + (
    "    0         1         2         8        16        16   RUNNING  INCOMPLETE\n"
    "\n"
    "Errors\n"
    "======\n"
    "\n"
    "INCOMPLETE\n"
    "  Missing communicator data from 1 job process\n"
    "  Process 40213 on node 10.8.0.13 managing GPU 3\n"
    "\n"
    "#0-0 (5d0c9e21a8f7b344) INCOMPLETE\n"
    "  Missing communicator data from 1 rank\n"
    "  Rank 11 -- GPU 3 managed by process 40213 on node 10.8.0.13\n"
)
GATHERING_TIMEOUT_ONLY = HEAD + (
    "    0         1         2         8        16        16   RUNNING      OK\n"
    "\n"
    "Errors\n"
    "======\n"
    "\n"
    "Warnings\n"
    "========\n"
    "\n"
    "TIMEOUT\n"
    "  Encountered 1 communication timeout while gathering communicator data\n"
)
HEALTHY = HEAD + (
    "    0         1         2         8        16        16   RUNNING      OK\n"
    "\n"
    "Errors\n"
    "======\n"
    "\n"
    "Warnings\n"
    "========\n"
)


def test_ranks_at_different_operation_counts_are_a_stall_in_a_collective() -> None:
    diagnosis = diagnose_text("ncclras.txt", MISMATCH)
    assert_reads(
        diagnosis,
        "hang",
        first_error="Communicator ranks have different ReduceScatter operation counts",
        rule="hang.nccl_ras_operation_count_mismatch",
        beside=("hccl",),
    )


def test_the_older_per_communicator_wording_is_read_alike() -> None:
    diagnosis = diagnose_text("ras.out", OLDER_WORDING)
    assert diagnosis.category == "hang"
    assert "hang.nccl_ras_operation_count_mismatch" in rules_of(diagnosis)


def test_a_process_the_ras_network_gave_up_on_is_a_lost_rank() -> None:
    diagnosis = diagnose_text("ncclras.txt", DEAD)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="1 job process is considered dead",
        rule="dev.nccl_ras_process_dead",
        beside=("hang",),
    )


def test_a_report_with_nothing_wrong_names_no_error_line() -> None:
    diagnosis = diagnose_text("ncclras.txt", HEALTHY)
    line = diagnosis.first_error.text if diagnosis.first_error else ""
    assert "Status  Errors" not in line
    assert line.strip() not in {"Errors", "Warnings"}
    assert not rules_of(diagnosis) & {
        "hang.nccl_ras_operation_count_mismatch",
        "dev.nccl_ras_process_dead",
    }


def test_ranks_whose_communicator_reports_errors_are_a_collective_failure() -> None:
    diagnosis = diagnose_text("ncclras.txt", ASYNC_ERRORS)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Asynchronous errors on 2 ranks",
        rule="hccl.nccl_ras_communicator_errors",
    )


def test_an_initialization_error_names_what_the_rank_reported() -> None:
    diagnosis = diagnose_text("ncclras.txt", INIT_ERROR)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "Initialization error on 1 rank" in diagnosis.first_error.text
    assert "hccl.nccl_ras_communicator_errors" in rules_of(diagnosis)


def test_processes_that_sent_no_communicator_data_are_a_stall() -> None:
    diagnosis = diagnose_text("ncclras.txt", MISSING_DATA)
    assert_reads(
        diagnosis,
        "hang",
        first_error="Missing communicator data from 1 job process",
        rule="hang.nccl_ras_missing_communicator_data",
        beside=("hccl",),
    )


def test_the_clients_own_timeouts_while_gathering_are_no_failure() -> None:
    diagnosis = diagnose_text("ncclras.txt", GATHERING_TIMEOUT_ONLY)
    assert diagnosis.first_error is None
    assert diagnosis.category != "hccl"
