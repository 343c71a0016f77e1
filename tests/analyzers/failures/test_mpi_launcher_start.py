"""An MPI launcher that cannot place or start its ranks.

docs/labelling.md#an-mpi-launcher-that-cannot-place-or-start-its-ranks. Before any training
code runs, Open MPI places the processes on its slots, each rank's MPI library joins the
launcher inside MPI_Init, srun starts each task through its node, and a framework that reads its
ranks from mpirun checks them against torch's. A refusal at one of these steps is the launch's
set-up (`config` or `driver_env`), not a collective that failed. The fixtures are in the shapes
these launchers print (values are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# mpirun asked for more processes than the allocation's node offers; nothing started.
SLOTS_REFUSED = """\
$ mpirun -np 8 python pretrain.py --config cfg/base.yaml
--------------------------------------------------------------------------
There are not enough slots available in the system to satisfy the 8
slots that were requested by the application:

  /opt/env/bin/python

Either request fewer slots for your application, or make more slots
available for use.
--------------------------------------------------------------------------
"""

# One rank's MPI library cannot reach the launcher's PMIx server and its init aborts.
INIT_ABORTED = """\
[1,0]<stdout>:loading tokenizer from /data/tok
[1,2]<stderr>:[trainer-b:31544] PMIX ERROR: UNREACHABLE in file ptl_tcp.c at line 790
[1,2]<stderr>:[trainer-b:31544] OPAL ERROR: Unreachable in file pmix3x_client.c at line 112
[1,2]<stderr>:*** An error occurred in MPI_Init_thread
[1,2]<stderr>:*** on a NULL communicator
[1,2]<stderr>:*** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,
[1,2]<stderr>:***    and potentially your MPI job)
"""

# srun with the PMIx plugin could not start the first task; no process of the job ran.
SRUN_TASK_NOT_STARTED = """\
srun: launch/slurm: launch_p_step_launch: StepId=7731.0 aborted before step completely launched.
srun: error: task 0 launch failed: Unspecified error
"""

# The script initialised torch with its own world size while mpirun started twice as many.
WORLD_DISAGREES = """\
[1,9]<stdout>:Discovered MPI settings of world_rank=9, local_rank=1, world_size=16, master_addr=10.1.0.4, master_port=29500
[1,9]<stderr>:AssertionError: MPI world size 16 does not match torch world size 8
"""

# srun started the ranks itself, but the Open MPI under them has no Slurm PMI to join through.
SRUN_WITHOUT_PMI = """\
srun: job 55120 queued and waiting for resources
srun: job 55120 has been allocated resources
--------------------------------------------------------------------------
PMI2_Init failed to initialize.  Return code: 7
--------------------------------------------------------------------------
--------------------------------------------------------------------------
The application appears to have been direct launched using "srun",
but OMPI was not built with SLURM's PMI support and therefore cannot
execute.
--------------------------------------------------------------------------
"""

# Counterexample: a launch line that only asks for the PMI-2 plugin is no failure.
SRUN_ASKS_FOR_PMI2 = """\
+ srun --mpi=pmi2 -N 2 --ntasks-per-node=4 python build_engine.py --tp 8
[builder] rank 0 of 8 started on gpu-a07
"""

# Counterexample: a call between running ranks that fails is not the start of MPI.
ALLREDUCE_FAILED = """\
[1,1]<stderr>:[trainer-b:31544] *** An error occurred in MPI_Allreduce
"""


def test_too_few_slots_is_the_launch_request() -> None:
    diagnosis = diagnose_text("mpirun.log", SLOTS_REFUSED)
    assert_reads(
        diagnosis, "config", first_error="not enough slots available", beside=("driver_env",)
    )


def test_an_mpi_init_that_cannot_reach_its_launcher_is_the_machines_setup() -> None:
    diagnosis = diagnose_text("mpirun.log", INIT_ABORTED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="PMIX ERROR: UNREACHABLE",
        rule="env.mpi_runtime_layer_error",
        beside=("hccl",),
    )


def test_open_mpis_own_words_for_an_init_that_failed_are_the_machines_setup() -> None:
    text = (
        "[1,4]<stderr>:It looks like MPI_INIT failed for some reason; your parallel process is\n"
        "[1,4]<stderr>:likely to abort.  There are many reasons that a parallel process can\n"
        "[1,4]<stderr>:  ompi_mpi_init: ompi_rte_init failed\n"
    )
    diagnosis = diagnose_text("mpirun.log", text)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert "env.mpi_init_failed" in rules_of(diagnosis)


def test_a_task_srun_could_not_start_is_the_nodes_setup() -> None:
    diagnosis = diagnose_text("slurm-7731.out", SRUN_TASK_NOT_STARTED)
    assert_reads(diagnosis, "driver_env", first_error="task 0 launch failed", beside=("config",))


def test_ranks_from_mpirun_that_disagree_with_torch_are_config() -> None:
    diagnosis = diagnose_text("rank9.log", WORLD_DISAGREES)
    assert_reads(
        diagnosis,
        "config",
        first_error="does not match torch world size",
        rule="cfg.mpi_launch_ranks_disagree",
    )


def test_a_failed_call_between_running_ranks_is_no_init_failure() -> None:
    diagnosis = diagnose_text("mpirun.log", ALLREDUCE_FAILED)
    assert "env.mpi_init_failed" not in rules_of(diagnosis)


# The step daemon cannot execute the step's program: the site module lacks the launcher.
STEP_PROGRAM_MISSING = """\
Loading pytorch/2.3 (singularity wrapper)
slurmstepd: error: execve(): torchrun: No such file or directory
srun: error: gpu-b12: task 0: Exited with exit code 2
srun: launch/slurm: _step_signal: Terminating StepId=90517.0
"""

# The batch script's shell does not find the launcher on its PATH (environment not activated).
SCRIPT_LAUNCHER_NOT_ON_PATH = """\
Job 90518 on gpu-b12, 2 nodes
/var/spool/slurmd/job90518/slurm_script: line 22: deepspeed: command not found
"""

# Counterexample: the step daemon falls back to /tmp and the job runs on to its own error.
CHDIR_FALLBACK_THEN_OWN_ERROR = """\
slurmstepd: error: couldn't chdir to `/scratch/u17/run4': No such file or directory: going to /tmp instead
Traceback (most recent call last):
  File "/opt/app/train.py", line 12, in <module>
    import yaml
ModuleNotFoundError: No module named 'yaml'
"""


def test_a_step_program_the_node_cannot_execute_is_its_setup() -> None:
    diagnosis = diagnose_text("slurm-90517.out", STEP_PROGRAM_MISSING)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="execve(): torchrun",
        rule="env.step_program_not_found",
        beside=("config",),
    )


def test_a_launcher_the_batch_shell_cannot_find_reads_alike() -> None:
    diagnosis = diagnose_text("slurm-90518.out", SCRIPT_LAUNCHER_NOT_ON_PATH)
    assert_reads(diagnosis, "driver_env", first_error="deepspeed: command not found")


def test_a_working_directory_fallback_is_no_missing_program() -> None:
    diagnosis = diagnose_text("slurm-90519.out", CHDIR_FALLBACK_THEN_OWN_ERROR)
    assert "env.step_program_not_found" not in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "No module named 'yaml'" in diagnosis.first_error.text


def test_an_open_mpi_started_by_srun_without_slurms_pmi_is_the_machines_setup() -> None:
    """The rank's MPI library cannot join the launch srun made (docs/labelling.md#an-mpi-launcher-that-cannot-place-or-start-its-ranks)."""
    diagnosis = diagnose_text("slurm-55120.out", SRUN_WITHOUT_PMI)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="PMI2_Init failed to initialize",
        rule="env.mpi_direct_launch_without_pmi",
        beside=("config",),
    )


def test_the_banner_sentence_alone_is_read_the_same_way() -> None:
    text = SRUN_WITHOUT_PMI.replace("PMI2_Init failed to initialize.  Return code: 7\n", "")
    diagnosis = diagnose_text("slurm-55120.out", text)
    assert_reads(diagnosis, "driver_env", first_error="PMI support")


def test_a_launch_that_asks_for_pmi2_is_no_failure() -> None:
    diagnosis = diagnose_text("slurm-55121.out", SRUN_ASKS_FOR_PMI2)
    assert "env.mpi_direct_launch_without_pmi" not in rules_of(diagnosis)


# MPICH's older spelling of the init headline (no `P`), its nemesis error stack under it; the
# stack's last frame says why: the node's own host name does not resolve.
MPICH_INIT_STACK = """\
$ mpirun -f hostfile -n 16 ./all_reduce_test -b 8K -e 64M -f 2 -p 8
Fatal error in MPI_Init: Other MPI error, error stack:
MPIR_Init_thread(474)...................:
MPID_Init(190)..........................: channel initialization failed
MPID_nem_tcp_init(379)..................: gethostbyname failed, gpu-node-07 (errno 1)
"""


def test_mpichs_init_headline_without_its_p_is_the_machines_setup() -> None:
    diagnosis = diagnose_text("mpirun.log", MPICH_INIT_STACK)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert "env.mpi_init_failed" in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "MPI_Init" in diagnosis.first_error.text or "gethostbyname" in diagnosis.first_error.text


def test_a_launcher_missing_in_a_chinese_locale_is_the_nodes_setup() -> None:
    text = "+ torchrun --nproc-per-node 8 train.py\nbash: torchrun: 未找到命令\n"
    diagnosis = diagnose_text("slurm-4410.out", text)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert "env.step_program_not_found" in rules_of(diagnosis)


# A pdsh-style console of three torchrun hosts: the remote shell of node 2 runs a launch line
# whose launcher path does not exist there, so that node never joins; the others wait in the
# rendezvous until it times out, and the host of its store then goes away under node 0.
LAUNCHER_PATH_MISSING_ON_ONE_NODE = """\
node-2: bash: line 1: /opt/conda/envs/infer/bin/torchrun: No such file or directory
node-1: W1207 04:12:30.665000 1888 torch/distributed/run.py:865] node_rank is only used for static rdzv_backend. It will be ignored for rdzv_backend=c10d.
node-1: Traceback (most recent call last):
node-1:   File "/work/torchenv/lib/python3.11/site-packages/torch/distributed/elastic/rendezvous/dynamic_rendezvous.py", line 680, in run
node-1:     raise RendezvousTimeoutError
node-1: torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError
node-0: [W1207 04:12:46.695078475 TCPStore.cpp:106] [c10d] sendBytes failed on SocketImpl(fd=3, addr=[::ffff:127.0.0.1]:60318, remote=[::ffff:127.0.0.1]:32511): Broken pipe
node-0: torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.
"""


def test_a_launcher_path_one_nodes_shell_cannot_find_is_its_setup() -> None:
    diagnosis = diagnose_text("console.log", LAUNCHER_PATH_MISSING_ON_ONE_NODE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="/opt/conda/envs/infer/bin/torchrun: No such file or directory",
        rule="env.step_program_not_found",
        beside=("config",),
    )


def test_a_missing_file_a_shell_redirects_to_is_no_missing_launcher() -> None:
    text = "bash: line 1: /scratch/run7/out.log: No such file or directory\n"
    assert "env.step_program_not_found" not in rules_of(diagnose_text("run.log", text))
