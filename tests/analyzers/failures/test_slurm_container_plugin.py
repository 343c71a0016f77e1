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

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

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


# docs/labelling.md#a-container-slurms-pyxis-plugin-could-not-start, the paragraphs on pyxis's
# own refusals and on a registry that refuses the image: the job's container options are what
# has to change there, so the label is `config`, with the node (`driver_env`) beside it.

NAMED_CONTAINER_MISSING = """\
$ srun --container-name=trainenv python train.py
pyxis: error: a container with name "trainenv" does not exist, and --container-image is not set
slurmstepd: error: spank: required plugin spank_pyxis.so: task_init() failed with rc=-1
slurmstepd: error: Failed to invoke spank plugin stack
srun: error: gpu-07: task 0: Exited with exit code 1
"""


def test_pyxis_refusing_the_jobs_container_options_is_read_as_config() -> None:
    diagnosis = diagnose_text("slurm-9120.out", NAMED_CONTAINER_MISSING)
    assert_reads(
        diagnosis,
        "config",
        first_error='a container with name "trainenv" does not exist',
        rule="cfg.pyxis_option_refused",
        beside=("driver_env",),
    )


MOUNT_OPTION_MALFORMED = """\
srun: error: pyxis: --container-mounts: invalid format: /data::ro
srun: error: spank: required plugin spank_pyxis.so: init_post_opt() failed with rc=-1
"""


def test_a_malformed_container_option_is_the_first_error() -> None:
    diagnosis = diagnose_text("srun.log", MOUNT_OPTION_MALFORMED)
    assert_reads(
        diagnosis,
        "config",
        first_error="--container-mounts: invalid format",
        rule="cfg.pyxis_option_refused",
    )


OPTION_IGNORED_NOTICE = """\
srun: error: pyxis: ignoring --container-mounts because neither --container-image nor --container-name is set
"""


def test_an_option_pyxis_only_ignores_is_no_refusal() -> None:
    diagnosis = diagnose_text("srun.log", OPTION_IGNORED_NOTICE)
    assert "cfg.pyxis_option_refused" not in rules_of(diagnosis)


RUNTIME_DIRECTORY_ON_THE_NODE = {
    "srun.log": """\
srun: job 5521 queued and waiting for resources
srun: job 5521 has been allocated resources
srun: error: task 0 launch failed: Plugin initialization failed
""",
    "slurmd.log": """\
[2024-03-02T08:11:40.118] [5521.0] error: pyxis: couldn't mkdir /run/pyxis/7001: Permission denied
[2024-03-02T08:11:40.118] [5521.0] error: spank: required plugin spank_pyxis.so: init_post_opt() failed with rc=-1
[2024-03-02T08:11:40.119] [5521.0] error: Plugin stack initialization failed.
""",
}


def test_pyxis_failing_to_prepare_the_node_comes_before_sruns_launch_failure() -> None:
    diagnosis = diagnose_files(RUNTIME_DIRECTORY_ON_THE_NODE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="couldn't mkdir /run/pyxis/7001: Permission denied",
        rule="env.pyxis_node_setup_failed",
        beside=("config",),
    )


def test_a_plugin_failure_without_pyxis_keeps_sruns_launch_failure_first() -> None:
    diagnosis = diagnose_files({"srun.log": RUNTIME_DIRECTORY_ON_THE_NODE["srun.log"]})
    assert_reads(diagnosis, "driver_env", first_error="task 0 launch failed")
    assert "env.pyxis_node_setup_failed" not in rules_of(diagnosis)


REGISTRY_REFUSED_THE_IMAGE = """\
pyxis: importing docker image: registry.example.org/team/trainer:v3
slurmstepd: error: pyxis: child 812 failed with error code: 1
slurmstepd: error: pyxis: failed to import docker image
slurmstepd: error: pyxis: printing enroot log file:
slurmstepd: error: pyxis:     [INFO] Fetching image manifest list
slurmstepd: error: pyxis:     [ERROR] URL https://registry-1.docker.io/v2/registry.example.org/team/trainer/manifests/v3 returned error code: 404 Not Found
slurmstepd: error: pyxis: couldn't start container
"""


def test_a_registry_that_refuses_the_image_reference_is_read_as_config() -> None:
    diagnosis = diagnose_text("slurm-812.out", REGISTRY_REFUSED_THE_IMAGE)
    assert_reads(
        diagnosis,
        "config",
        first_error="returned error code: 404 Not Found",
        rule="cfg.container_registry_refused",
        beside=("driver_env",),
    )


REGISTRY_FAILED_ITSELF = """\
slurmstepd: error: pyxis: failed to import docker image
slurmstepd: error: pyxis: printing enroot log file:
slurmstepd: error: pyxis:     [ERROR] URL https://nvcr.io/v2/nvidia/pytorch/manifests/24.05-py3 returned error code: 503 Service Unavailable
slurmstepd: error: pyxis: couldn't start container
"""


def test_a_registry_that_fails_on_its_own_side_stays_the_engines_error() -> None:
    diagnosis = diagnose_text("slurm-813.out", REGISTRY_FAILED_ITSELF)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="503 Service Unavailable",
        rule="env.pyxis_engine_log_error",
    )
    assert "cfg.container_registry_refused" not in rules_of(diagnosis)


IMPORT_CHILD_FAILED = """\
slurmstepd: error: pyxis: child 4410 failed with error code: 1
slurmstepd: error: pyxis: failed to import docker image
slurmstepd: error: pyxis: printing enroot log file:
slurmstepd: error: pyxis:     [INFO] Querying registry for permission grant
slurmstepd: error: pyxis: couldn't start container
"""


def test_the_import_childs_failure_is_read_with_pyxiss_summary() -> None:
    diagnosis = diagnose_text("slurm-4410.out", IMPORT_CHILD_FAILED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="child 4410 failed with error code: 1",
        rule="env.pyxis_container_start_failed",
    )
