"""Open MPI's fatal-error banner: MPI that cannot start in a process, and an MPI call that fails.

- A job whose library bootstraps through MPI (tensor-parallel communication overlap that
  exchanges its buffer handles over MPI, a launcher-agnostic package that calls MPI_Init
  itself) started under a launcher that gave MPI nothing to start from: Open MPI prints its
  banner for the init call (`*** An error occurred in MPI_Init_thread`, `*** on a NULL
  communicator`, `*** MPI_ERRORS_ARE_FATAL ...`) and, when the banner was cut, `Local abort
  before MPI_INIT completed`. The way the job was started does not fit the bootstrap it asked
  for: `config`, with the machine's MPI installation (`driver_env`) and the communication layer
  (`hccl`) beside it; the init line is the first error, ahead of the launcher's exit report.
  Counterexample: a line reporting the thread level MPI_Init_thread granted is no failure.
- Under mpirun, Open MPI's own runtime layers may say first why the init failed (`PMIX ERROR:
  ... in file ptl_tcp.c at line N`, `OPAL ERROR: ... in file ... at line N`): the process could
  not reach the runtime the launcher set up on the machine, so that line is the first error and
  the label is `driver_env`, with `hccl` and `config` beside it.
- The same banner for a call between ranks (`*** An error occurred in MPI_Allreduce` with the
  communicator and the MPI error class under it) is a collective that failed: `hccl`, with the
  machine's MPI setup beside it.

Fixtures are written here in the real shapes with their own values.

docs/labelling.md#mpi-that-does-not-start-in-a-process
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

OVERLAP_BOOTSTRAP_UNDER_TORCHRUN = """\
[rank0]: setting up tensor-parallel communication overlap buffers (bootstrap backend: mpi)
*** An error occurred in MPI_Init_thread
*** on a NULL communicator
*** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,
***    and potentially your MPI job)
[trainer-12:40917] Local abort before MPI_INIT completed completed successfully, but am not able to aggregate error messages, and not able to guarantee that all other processes were killed!
E0312 08:14:55.201000 40890 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 40917) of binary: /usr/bin/python3
"""

PLAIN_INIT_BANNER = """\
*** An error occurred in MPI_Init
*** on a NULL communicator
*** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,
***    and potentially your MPI job)
"""

BANNER_CUT_TO_THE_LOCAL_ABORT = """\
loading model shards for stage 2 of 4
[worker-b7:55210] Local abort before MPI_INIT completed completed successfully, but am not able to aggregate error messages, and not able to guarantee that all other processes were killed!
"""

COLLECTIVE_CALL_BANNER = """\
step 120 loss 2.871
[gpu-node-3:21044] *** An error occurred in MPI_Allreduce
[gpu-node-3:21044] *** reported by process [2871263233,3]
[gpu-node-3:21044] *** on communicator MPI_COMM_WORLD
[gpu-node-3:21044] *** MPI_ERR_TRUNCATE: message truncated
[gpu-node-3:21044] *** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,
[gpu-node-3:21044] ***    and potentially your MPI job)
"""

RUNTIME_LAYER_BEFORE_THE_BANNER = """\
[1,0]<stdout>:no launcher variables found, reading the MPI environment
[1,2]<stderr>:[node-3:08812] PMIX ERROR: UNREACHABLE in file ptl_tcp.c at line 790
[1,2]<stderr>:[node-3:08812] OPAL ERROR: Unreachable in file pmix3x_client.c at line 113
[1,2]<stderr>:*** An error occurred in MPI_Init_thread
[1,2]<stderr>:*** on a NULL communicator
[1,2]<stderr>:*** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,
[1,2]<stderr>:***    and potentially your MPI job)
"""

THREAD_LEVEL_INFO = """\
[rank1]: MPI_Init_thread granted thread level MPI_THREAD_MULTIPLE
[rank1]: step 1 loss 7.912
"""


def test_mpi_that_cannot_start_under_the_launcher_is_the_launch() -> None:
    diagnosis = diagnose_text("stdout.log", OVERLAP_BOOTSTRAP_UNDER_TORCHRUN)
    assert_reads(diagnosis, "config", first_error="An error occurred in MPI_Init_thread")
    assert {"driver_env", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_the_plain_init_call_reads_the_same() -> None:
    diagnosis = diagnose_text("stdout.log", PLAIN_INIT_BANNER)
    assert_reads(diagnosis, "config", first_error="An error occurred in MPI_Init")


def test_the_local_abort_alone_still_says_mpi_did_not_start() -> None:
    diagnosis = diagnose_text("worker.log", BANNER_CUT_TO_THE_LOCAL_ABORT)
    assert_reads(diagnosis, "config", first_error="Local abort before MPI_INIT completed")


def test_the_mpi_runtime_saying_why_first_is_the_machine() -> None:
    diagnosis = diagnose_text("mpirun.log", RUNTIME_LAYER_BEFORE_THE_BANNER)
    assert_reads(diagnosis, "driver_env", first_error="PMIX ERROR")


def test_the_banner_for_a_call_between_ranks_is_the_collective() -> None:
    diagnosis = diagnose_text("rank3.log", COLLECTIVE_CALL_BANNER)
    assert_reads(diagnosis, "hccl", first_error="An error occurred in MPI_Allreduce")


def test_a_granted_thread_level_is_no_failure() -> None:
    diagnosis = diagnose_text("stdout.log", THREAD_LEVEL_INFO)
    assert diagnosis.first_error is None
