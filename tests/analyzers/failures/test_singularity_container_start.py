"""A Singularity or Apptainer container that the runtime could not create.

docs/labelling.md#a-singularity-or-apptainer-container-that-could-not-be-created: on HPC nodes
the job's image runs under Singularity (Apptainer since its move to the Linux Foundation).
Before the job's command runs, the runtime sets the container up on the host (image mounts, the
GPU libraries that `--nv` binds, the binds the site configures), and when that fails it says so
in its own format: `FATAL:   container creation failed: <reason>` since 3.0, `ERROR  : <reason>`
followed by `ABORT  : Retval = 255` in the 2.x releases. The reason is the first error; the
label is `driver_env` (the node's runtime or its configuration), with `config` (the image or
the job's options) beside it. The runtime's INFO, WARNING and VERBOSE lines are no error.
Values of our own in the runtime's shapes.
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import assert_reads, diagnose_text

# 2.x: the library bind directory cannot be made in the image.
OLD_RELEASE = """\
singularity exec --nv /scratch/images/trainer-2.3.img python train.py
WARNING: Skipping user bind, non existent bind point (file) in container: '/bin/nvidia-smi'
WARNING: Library bind directory not present in container, update container
ERROR  : Failed creating directory /var/singularity/mnt/final/.singularity.d/libs :Read-only file system
ABORT  : Retval = 255
"""

# 3.x and Apptainer: no loop device for the image on the node.
NEW_RELEASE = """\
$ apptainer exec --nv trainer.sif torchrun --nproc_per_node 4 train.py
INFO:    Setting 'NVIDIA_VISIBLE_DEVICES=all' to emulate legacy GPU binding.
FATAL:   container creation failed: mount /proc/self/fd/3->/var/apptainer/mnt/session/rootfs error: while mounting image /proc/self/fd/3: failed to find loop device: could not attach image file to loop device: no loop devices available
"""


def test_an_old_release_error_before_its_abort_is_the_first_error() -> None:
    diagnosis = diagnose_text("slurm-5121.out", OLD_RELEASE)
    assert_reads(
        diagnosis, "driver_env", first_error="Failed creating directory", beside=("config",)
    )


def test_a_new_release_container_creation_failure_is_the_host() -> None:
    diagnosis = diagnose_text("slurm-5122.out", NEW_RELEASE)
    assert_reads(diagnosis, "driver_env", first_error="no loop devices available")


def test_the_runtimes_notices_are_no_error() -> None:
    rules = [
        s
        for s in load_knowledge().signatures
        if s.id in ("env.singularity_container_not_created", "env.singularity_abort")
    ]
    assert len(rules) == 2
    for line in (
        "INFO:    Setting --writable-tmpfs (required by nvidia-container-cli)",
        "WARNING: Library bind directory not present in container, update container",
        "VERBOSE: Set messagelevel to: 5",
        "ERROR: could not find a version that satisfies the requirement torch==9.9",
    ):
        assert not any(rule.search(line) for rule in rules), line
