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
from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

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


# Older runtime hooks print the command they ran before the CLI's error, and docker escapes the
# hook's output twice inside its own message, so the CLI's words come after an escaped newline.
HOOK_COMMAND_THEN_CLI = (
    "docker: Error response from daemon: OCI runtime create failed: container_linux.go:348: "
    'starting container process caused "process_linux.go:402: container init caused '
    '\\"process_linux.go:385: running prestart hook 1 caused \\\\\\"error running hook: exit '
    "status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods "
    "configure --device=all --compute --utility --pid=4242 /var/lib/docker/overlay2/0f1e/merged]"
    "\\\\\\\\nnvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/"
    '0f1e/merged/usr/bin/nvidia-smi: file exists\\\\\\\\n\\\\\\"\\"": unknown.\n'
)


def test_the_clis_words_after_the_hooks_command_are_the_first_error() -> None:
    diagnosis = diagnose_text("launch/console.log", HOOK_COMMAND_THEN_CLI)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="nvidia-container-cli: mount error: file creation failed",
    )


# The CLI could not take the capabilities it needs (a container engine that drops them before
# it runs the CLI), or could not describe the container it was asked to set up.
CLI_PERMISSION = """\
$ apptainer exec --nv --nvccli trainer.sif torchrun --nproc_per_node 2 train.py
INFO:    Setting 'NVIDIA_VISIBLE_DEVICES=all' to emulate legacy GPU binding.
INFO:    Setting --writable-tmpfs (required by nvidia-container-cli)
FATAL:   container creation failed: nvidia-container-cli failed with exit status 1: nvidia-container-cli: permission error: capability change failed: operation not permitted
"""


def test_the_clis_permission_and_container_errors_are_the_host() -> None:
    diagnosis = diagnose_text("launch/console.log", CLI_PERMISSION)
    assert diagnosis.category == "driver_env"
    assert diagnosis.confidence >= 0.8
    assert diagnosis.first_error is not None
    assert "permission error: capability change failed" in diagnosis.first_error.text
    rule = next(
        s for s in load_knowledge().signatures if s.id == "env.container_gpu_request_refused"
    )
    assert rule.search("nvidia-container-cli: container error: open failed: /proc/4242/ns/mnt")
    assert not rule.search("nvidia-container-cli: info: permission checks skipped")


# The runtime or the container tool could not find the NVIDIA tool it runs on the host: the
# toolkit is not installed where the engine looks. Not the job's command.
RUNTIME_TOOL_MISSING = """\
$ singularity exec --nv trainer.sif python train.py
INFO:    Setting 'NVIDIA_VISIBLE_DEVICES=all' to emulate legacy GPU binding.
INFO:    Setting --writable-tmpfs (required by nvidia-container-cli)
FATAL:   container creation failed: exec: "/usr/bin/nvidia-container-cli": stat /usr/bin/nvidia-container-cli: no such file or directory
"""

HOOK_BINARY_MISSING = (
    "docker: Error response from daemon: failed to create task for container: failed to create "
    "shim task: OCI runtime create failed: runc create failed: unable to start container "
    "process: error during container init: error running prestart hook #0: exec: "
    '"nvidia-container-runtime-hook": executable file not found in $PATH: unknown.\n'
)

# Counterexample: the job's own command is missing from the image.
JOB_COMMAND_MISSING = (
    "docker: Error response from daemon: failed to create task for container: failed to create "
    "shim task: OCI runtime create failed: runc create failed: unable to start container "
    'process: exec: "/workspace/train.sh": stat /workspace/train.sh: no such file or '
    "directory: unknown.\n"
)


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        (RUNTIME_TOOL_MISSING, 'exec: "/usr/bin/nvidia-container-cli"'),
        (HOOK_BINARY_MISSING, 'exec: "nvidia-container-runtime-hook"'),
    ],
)
def test_a_gpu_runtime_tool_the_engine_cannot_run_is_the_host(text: str, cited: str) -> None:
    diagnosis = diagnose_text("launch/console.log", text)
    assert_reads(diagnosis, "driver_env", first_error=cited, beside=("config",))


def test_the_jobs_own_missing_command_stays_config() -> None:
    diagnosis = diagnose_text("launch/console.log", JOB_COMMAND_MISSING)
    assert diagnosis.category == "config"


# docs/labelling.md#a-container-engine-that-words-its-refusal-another-way: Kubernetes nodes
# word the same refusals in their own components' words.

# containerd's CRI has no handler for the runtime class the pod names.
CRI_NO_HANDLER = """\
Events:
  Type     Reason                  Age                From     Message
  ----     ------                  ----               ----     -------
  Warning  FailedCreatePodSandBox  40s (x9 over 6m)   kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "nvidia-cdi" is configured
"""

# A Kata sandbox cannot cold-plug the node's GPU into the pod's VM.
KATA_COLD_PLUG = """\
Events:
  Warning  FailedCreatePodSandBox  12s (x7 over 50s)  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to start sandbox "5f0c": failed to create containerd task: failed to create shim task: device cold plug failed: cold plug: GetPodResources failed for pod(llm-train-0) in namespace(research): rpc error: code = Unknown desc = PodResources API Get method disabled
"""

# CRI-O's monitor, or podman, reporting a container it could not create.
MONITOR_CREATE_FAILED = """\
$ podman run --rm --device nvidia.com/gpu=all --userns=auto trainer:2.3 nvidia-smi
Error: container create failed: read status from sync socket: No such process
"""

# The GPU Operator's toolkit runs the CLI as `nvidia-container-cli.real`; kubelet wraps the
# runc headline onto the next line.
WRAPPED_CLI_REAL = """\
    Last State:     Terminated
      Reason:       StartError
      Message:      failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running
 hook #0: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli.real: initialization error: nvml error: driver not loaded: unknown
"""


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        (CRI_NO_HANDLER, 'no runtime for "nvidia-cdi" is configured'),
        (KATA_COLD_PLUG, "device cold plug failed"),
        (MONITOR_CREATE_FAILED, "container create failed: read status from sync socket"),
        (WRAPPED_CLI_REAL, "nvidia-container-cli.real: initialization error"),
    ],
)
def test_a_nodes_other_components_refusing_a_container_are_the_host(text: str, cited: str) -> None:
    diagnosis = diagnose_text("pod/describe.txt", text)
    assert_reads(diagnosis, "driver_env", first_error=cited)


def test_a_runtime_handler_the_cri_reports_is_no_refusal() -> None:
    rules = load_knowledge().signatures
    rule = next(s for s in rules if s.id == "env.container_gpu_request_refused")
    assert rule.search('failed to get sandbox runtime: no runtime for "kata-qemu" is configured')
    assert not rule.search('level=info msg="runtime handler nvidia is configured"')
    assert not rule.search("kata: device cold plug succeeded for pod(llm-train-0)")


# NVIDIA's runtime hook in csv mode, called from docker's --gpus with no NVIDIA runtime.
HOOK_REFUSES_GPUS_FLAG = """\
$ docker run --rm --gpus all l4t-trainer:r36 python3 train.py
docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'csv'
invoking the NVIDIA Container Runtime Hook directly (e.g. specifying the docker --gpus flag) is not supported. Please use the NVIDIA Container Runtime (e.g. specify the --runtime=nvidia flag) instead.: unknown.
"""


def test_the_hook_refusing_the_gpus_flag_is_the_launch() -> None:
    diagnosis = diagnose_text("launch/console.log", HOOK_REFUSES_GPUS_FLAG)
    assert_reads(
        diagnosis,
        "config",
        first_error="invoking the NVIDIA Container Runtime Hook directly",
        rule="cfg.container_gpu_flag_without_runtime",
        beside=("driver_env",),
    )


# A wrapper script may not run docker itself (the host's SELinux policy); the shell names the
# wrapper's path and line. Counterexample: the job's own script without its execute bit.
ENGINE_NOT_EXECUTABLE = """\
$ sudo nvidia-docker run --gpus=all --rm trainer:2.3 torchrun --nproc_per_node 8 train.py
/usr/local/bin/nvidia-docker: line 34: /usr/bin/docker: Permission denied
/usr/local/bin/nvidia-docker: line 34: /usr/bin/docker: Success
"""

JOB_SCRIPT_NOT_EXECUTABLE = """\
$ bash launch.sh
launch.sh: line 7: ./train_8gpu.sh: Permission denied
"""


def test_a_shell_refusing_the_container_engine_is_the_host() -> None:
    diagnosis = diagnose_text("launch/console.log", ENGINE_NOT_EXECUTABLE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="/usr/bin/docker: Permission denied",
        rule="env.container_engine_not_executable",
        beside=("config",),
    )


def test_a_shell_refusing_the_jobs_own_script_is_not_the_engine() -> None:
    diagnosis = diagnose_text("launch/console.log", JOB_SCRIPT_NOT_EXECUTABLE)
    assert "env.container_engine_not_executable" not in rules_of(diagnosis)
    assert diagnosis.category != "driver_env"
