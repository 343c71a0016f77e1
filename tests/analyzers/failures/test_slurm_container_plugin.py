"""A container that Slurm's pyxis plugin could not import or start on the node.

docs/labelling.md#a-container-slurms-pyxis-plugin-could-not-start: pyxis reprints the container
engine's log under its own prefix when an image import or a container start fails, then gives
up with `couldn't start container` and Slurm's SPANK stack fails the task. The engine's own
error line (an `[ERROR]` of enroot, a hook's command that could not do its work) is the first
error; pyxis's summary lines are read the same way only when no such line is kept. The node's
container set-up is what failed, `driver_env`, with the job's image or options (`config`) beside
it. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

HOOK_FAILED = """\
0: slurmstepd: error: pyxis: container start failed with error code: 1
0: slurmstepd: error: pyxis: printing enroot log file:
0: slurmstepd: error: pyxis:     [ERROR] Could not mount the host's scheduler libraries
0: slurmstepd: error: pyxis:     [ERROR] /etc/enroot/hooks.d/90-site.sh exited with return code 1
0: slurmstepd: error: pyxis: couldn't start container
0: slurmstepd: error: spank: required plugin spank_pyxis.so: task_init() failed with rc=-1
0: slurmstepd: error: Failed to invoke spank plugin stack
"""


def test_the_engines_own_error_under_pyxis_is_the_first_error() -> None:
    diagnosis = diagnose_text("slurm-4410.out", HOOK_FAILED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Could not mount the host's scheduler libraries",
        rule="env.pyxis_engine_log_error",
        beside=("config",),
    )


COMMAND_IN_THE_ENGINE_LOG = """\
slurmstepd: error: pyxis: container start failed with error code: 1
slurmstepd: error: pyxis: container exited too soon
slurmstepd: error: pyxis: printing engine log file:
slurmstepd: error: pyxis:     mkdir: cannot create directory '/scratch/u/7001': Permission denied
slurmstepd: error: pyxis: couldn't start container
srun: error: node-0117: task 0: Exited with exit code 1
"""


def test_a_command_the_engine_ran_that_could_not_do_its_work_is_the_first_error() -> None:
    diagnosis = diagnose_text("slurm-7001.out", COMMAND_IN_THE_ENGINE_LOG)
    assert_reads(diagnosis, "driver_env", first_error="mkdir: cannot create directory")


SUMMARY_ONLY = """\
slurmstepd: error: pyxis: failed to import docker image
slurmstepd: error: pyxis: couldn't start container
slurmstepd: error: spank: required plugin spank_pyxis.so: task_init() failed with rc=-1
"""


def test_pyxis_summary_alone_is_read_as_the_node_that_could_not_start_the_container() -> None:
    diagnosis = diagnose_text("slurm-55.out", SUMMARY_ONLY)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="pyxis: failed to import docker image",
        rule="env.pyxis_container_start_failed",
    )


ENGINE_PROGRESS_ONLY = """\
pyxis: importing docker image: nvcr.io#nvidia/pytorch:24.05-py3
slurmstepd: error: pyxis:     [INFO] Fetching image manifest list
pyxis: imported docker image: nvcr.io#nvidia/pytorch:24.05-py3
"""


def test_engine_progress_reprinted_by_pyxis_is_no_error() -> None:
    diagnosis = diagnose_text("slurm-56.out", ENGINE_PROGRESS_ONLY)
    rules = rules_of(diagnosis)
    assert "env.pyxis_engine_log_error" not in rules
    assert "env.pyxis_container_start_failed" not in rules
