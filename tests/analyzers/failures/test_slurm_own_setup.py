"""Slurm's own set-up of a step that fails before the job's program runs.

docs/labelling.md#an-mpi-launcher-that-cannot-place-or-start-its-ranks,
#a-scheduler-that-refuses-the-request, #mpi-that-does-not-start-in-a-process and
#a-job-stopped-from-outside. srun loads the plugin of the MPI flavour asked for, opens its own
step socket on its host, the node's step daemon joins the step to the job's private directories
and, with `--mpi=pmix`, runs Slurm's PMIx servers; Open MPI and PMIx load their own components.
A failure at any of these is the cluster's set-up (`driver_env`), not the request and not a
collective between running ranks. A step record that Slurm cancelled with no reason names no
cause at all. The fixtures are in the shapes these programs print (values are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

# The cluster's Slurm has no PMIx plugin; the launch script asks for it.
MPI_PLUGIN_MISSING = """\
+ srun -N 2 --mpi=pmix ./solver input.nml
srun: error: Couldn't find the specified plugin name for mpi/pmix looking at all files
srun: error: cannot find mpi plugin for mpi/pmix
srun: error: cannot create mpi context for mpi/pmix
srun: error: "--mpi=pmix" -- long invalid MPI type, --mpi=list for acceptable types.
"""

# Counterexample: srun listing the MPI types it has is no failure.
MPI_TYPES_LISTED = """\
$ srun --mpi=list
srun: MPI types are...
srun: none
srun: pmi2
"""

# srun cannot open its own socket on the host it runs on.
STEP_SOCKET_REFUSED = """\
[pipeline] submitting align step for sample S14
srun: error: unable to initialize step context socket: Address already in use
srun: error: Unable to create step for job 70311: Address already in use
"""

# Counterexample: a rendezvous store's port that is taken is the communication set-up's.
STORE_PORT_TAKEN = """\
torch.distributed.DistNetworkError: The server socket has failed to listen on any local network \
address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use
"""

# The node's job-container plugin cannot join the step to the job's private directories.
JOB_CONTAINER_FAILED = """\
slurmstepd: error: container_p_join: open failed /local/jobs/70322/.active: No such file or directory
slurmstepd: error: container_g_join failed: 70322
"""

# Slurm's PMIx servers on the two nodes cannot agree on the MPI library's first fence.
PMIX_PLUGIN_FENCE = """\
[2026-04-11T08:02:19.402] error:  mpi/pmix_v4: pmixp_coll_belong_chk: gpu-c12 [1]: pmixp_coll.c:280: No process controlled by this slurmstepd is involved in this collective.
[2026-04-11T08:02:19.402] error:  mpi/pmix_v4: _process_server_request: gpu-c12 [1]: pmixp_server.c:923: Unable to pmixp_state_coll_get()
[2026-04-11T08:02:19.511] error:  mpi/pmix_v4: pmixp_coll_ring_check: gpu-c11 [0]: pmixp_coll_ring.c:613: 0x7f0a20008840: unexpected contrib from gpu-c12:1, expected is 0
"""

# Counterexample: the plugin's debug line that it loaded says nothing failed.
PMIX_PLUGIN_LOADED = """\
[2026-04-11T08:02:18.100] debug:  mpi/pmix_v4: init: gpu-c11 [0]: mpi_pmix.c:154: PMIx plugin loaded
[rank 0] step 10 loss 2.311
"""

# PMIx in a container cannot load its munge security component.
PMIX_COMPONENT_MISSING = """\
--------------------------------------------------------------------------
A requested component was not found, or was unable to be opened.  This
means that this component is either not installed or is unable to be
used on your system (e.g., sometimes this means that shared libraries
that the component requires are unable to be found/loaded).  Note that
PMIX stopped checking at the first component that it did not find.

Host:      gpu-c11
Framework: psec
Component: munge
--------------------------------------------------------------------------
  pmix_psec_base_open failed
  --> Returned value -46 instead of PMIX_SUCCESS
[gpu-c11:40112] PMIX ERROR: NOT-FOUND in file server/pmix_server.c at line 237
"""

# A step Slurm cancelled with no reason, with the step daemon's bookkeeping after it.
STEP_CANCELLED_NO_REASON = """\
  0: slurmstepd: error: *** STEP 881204.0 ON nid01207 CANCELLED AT 2026-04-11T09:15:02 ***
 96: slurmstepd: error: _is_a_lwp: open() /proc/51177/status failed: No such file or directory
"""

# Counterexample: the same record after a task's own failure only ends the step.
STEP_CANCELLED_AFTER_OOM = """\
  3: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 3; 79.15 GiB total capacity)
  0: slurmstepd: error: *** STEP 881205.0 ON nid01207 CANCELLED AT 2026-04-11T09:20:44 ***
srun: error: nid01207: task 3: Exited with exit code 1
"""


def test_a_slurm_without_the_mpi_plugin_asked_for_is_the_clusters_set_up() -> None:
    diagnosis = diagnose_text("run.log", MPI_PLUGIN_MISSING)
    assert_reads(
        diagnosis, "driver_env", first_error="Couldn't find the specified plugin name for mpi/pmix"
    )
    assert "config" in alternative_labels(diagnosis)
    assert "env.slurm_plugin_missing" in rules_of(diagnosis)


def test_srun_listing_its_mpi_types_is_no_missing_plugin() -> None:
    diagnosis = diagnose_text("run.log", MPI_TYPES_LISTED)
    assert "env.slurm_plugin_missing" not in rules_of(diagnosis)


def test_sruns_own_step_socket_refused_is_the_host_not_a_collective_port() -> None:
    diagnosis = diagnose_text("srun.err", STEP_SOCKET_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="step context socket")
    assert "hccl" not in alternative_labels(diagnosis)
    assert "hccl.listen_failed" not in rules_of(diagnosis)


def test_a_store_port_already_in_use_keeps_its_communication_reading() -> None:
    diagnosis = diagnose_text("rank0.log", STORE_PORT_TAKEN)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert "env.slurm_step_socket_failed" not in rules_of(diagnosis)


def test_a_job_container_plugin_that_cannot_join_the_step_is_the_nodes_set_up() -> None:
    diagnosis = diagnose_text("slurm-70322.err", JOB_CONTAINER_FAILED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="container_p_join: open failed",
        rule="env.slurm_job_container_failed",
    )


def test_slurms_pmix_servers_that_cannot_agree_are_the_clusters_set_up() -> None:
    diagnosis = diagnose_text("srun.err", PMIX_PLUGIN_FENCE)
    assert_reads(diagnosis, "driver_env", first_error="pmixp_coll_belong_chk")
    assert {"hccl", "hang"} & set(alternative_labels(diagnosis))
    assert "env.slurm_pmix_plugin_error" in rules_of(diagnosis)


def test_the_pmix_plugins_debug_lines_are_no_failure() -> None:
    diagnosis = diagnose_text("srun.err", PMIX_PLUGIN_LOADED)
    assert "env.slurm_pmix_plugin_error" not in rules_of(diagnosis)


def test_a_pmix_component_the_machine_cannot_load_is_read_from_its_banner() -> None:
    diagnosis = diagnose_text("slurm.out", PMIX_COMPONENT_MISSING)
    assert_reads(diagnosis, "driver_env", first_error="A requested component was not found")
    assert "config" in alternative_labels(diagnosis)
    assert "env.mpi_component_not_found" in rules_of(diagnosis)


def test_a_step_cancelled_with_no_reason_alone_is_a_stop_nothing_explains() -> None:
    diagnosis = diagnose_text("job.log", STEP_CANCELLED_NO_REASON)
    assert_reads(diagnosis, "other", first_error="CANCELLED AT")
    assert "hang" in alternative_labels(diagnosis)
    assert diagnosis.confidence < 0.5


def test_a_step_cancelled_after_a_tasks_own_failure_yields_to_it() -> None:
    diagnosis = diagnose_text("job.log", STEP_CANCELLED_AFTER_OOM)
    assert_reads(diagnosis, "oom", first_error="out of memory")
