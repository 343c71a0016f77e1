"""A container engine that cannot hand a container its GPUs.

docs/labelling.md#config-driver_env-or-weight_load: docker finding no device driver for
`--gpus`, a runtime name the daemon does not know, CDI device names no spec resolves (podman,
or docker with CDI) and the NVIDIA container CLI failing in the runtime's hook are the host's
container set-up, `driver_env` with `config` beside it, and the engine's line is the first
error. Lines that only list runtimes or report a spec are not a failure.

Fixtures are written in the shapes docker, podman and the NVIDIA container CLI print, with
image names, paths and versions of our own.
"""

from __future__ import annotations

import pytest

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import diagnose_text

# An eight-GPU training container started with `--gpus all` on a host whose docker has no
# NVIDIA hook.
NO_DEVICE_DRIVER = """\
$ docker run --rm --gpus all --ipc=host -v /data:/data trainer:2.3 torchrun --nproc_per_node 8 train.py
docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].
ERRO[0000] error waiting for container: context canceled
"""

# A launcher script asks for a runtime the daemon was never told about.
UNKNOWN_RUNTIME = """\
+ docker run --runtime=nvidia --gpus all --rm --shm-size=16g trainer:2.3 bash -lc 'torchrun --nproc_per_node 4 train.py'
docker: Error response from daemon: unknown or invalid runtime name: nvidia.
See 'docker run --help'.
"""

# docker is podman here, and no CDI spec names the GPUs.
UNRESOLVED_CDI = """\
$ docker run --rm --device nvidia.com/gpu=all trainer:2.3 torchrun --nproc_per_node 2 train.py
Emulate Docker CLI using podman. Create /etc/containers/nodocker to quiet msg.
Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all
"""

# The CLI in the runtime's hook cannot load the driver's management library.
HOOK_CLI_FAILED = """\
docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'
nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown.
"""


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        (NO_DEVICE_DRIVER, "could not select device driver"),
        (UNKNOWN_RUNTIME, "unknown or invalid runtime name: nvidia"),
        (UNRESOLVED_CDI, "unresolvable CDI devices nvidia.com/gpu=all"),
    ],
)
def test_an_engine_that_cannot_give_gpus_is_the_host(text: str, cited: str) -> None:
    diagnosis = diagnose_text("launch/console.log", text)
    assert diagnosis.category == "driver_env"
    assert diagnosis.confidence >= 0.8
    assert diagnosis.first_error is not None
    assert cited in diagnosis.first_error.text


def test_the_container_cli_failing_in_the_hook_is_the_host() -> None:
    diagnosis = diagnose_text("launch/console.log", HOOK_CLI_FAILED)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line in (1, 2)


def test_the_rule_reads_the_engines_refusals_and_not_its_inventory() -> None:
    rules = load_knowledge().signatures
    rule = next(s for s in rules if s.id == "env.container_gpu_request_refused")
    assert rule.category == "driver_env"
    assert rule.search(
        'Error response from daemon: could not select device driver "nvidia" with '
        "capabilities: [[gpu]]"
    )
    assert not rule.search(
        'level=info msg="Loading containers: done." runtimes="io.containerd.runc.v2 nvidia runc"'
    )
    assert not rule.search("nvidia-container-cli: info: driver version 550.54.15")
