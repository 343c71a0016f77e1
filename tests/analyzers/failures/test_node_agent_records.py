"""Records a Kubernetes node keeps about a pod's devices, disk and downloads.

docs/labelling.md#a-gpu-the-driver-no-longer-reaches: the GPU device plugin's `XidCriticalError`
for a card it withdraws is the driver's own event seen by the node agent, `device_fault` with
`driver_env` beside it; the plugin's note that it skipped another event type is no Xid.
docs/labelling.md#config-driver_env-or-weight_load: a pod evicted because the node's disk ran
low is a full disk (`driver_env`, with `config` and `other` beside it), not a memory shortage;
a process refused a path it was pointed at (errno 13) is the deployment's setting (`config`,
with `driver_env` beside it), a device node keeps its own reading; a shell or a file utility
refusing a path in its own words (no errno, no exception class) is read the same way.
docs/labelling.md#a-download-host-that-refuses-or-does-not-answer: a hub refusing a gated model
to a job that has no granted token is `config`, with `other` beside it.
Values are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

# An older plugin's log: the event, then the card it withdrew.
PLUGIN_XID_OLD = """\
2026/03/02 08:14:05 Registered device plugin for 'nvidia.com/gpu' with Kubelet
2026/03/02 08:14:09 XidCriticalError: Xid=48 on Device=GPU-3c1f9a2e-77d0-4b8e-9a51-0c2d6e4f8b13, the device will go unhealthy.
2026/03/02 08:14:09 'nvidia.com/gpu' device marked unhealthy: GPU-3c1f9a2e-77d0-4b8e-9a51-0c2d6e4f8b13
"""

# A newer plugin writes the same at klog INFO.
PLUGIN_XID_KLOG = """\
I0302 08:14:05.100012       1 server.go:165] Registered device plugin for 'nvidia.com/gpu' with Kubelet
I0302 08:14:09.301442       1 health.go:159] XidCriticalError: Xid=79 on Device=GPU-3c1f9a2e-77d0-4b8e-9a51-0c2d6e4f8b13; marking device as unhealthy.
I0302 08:14:09.301501       1 server.go:290] 'nvidia.com/gpu' device marked unhealthy: GPU-3c1f9a2e-77d0-4b8e-9a51-0c2d6e4f8b13
"""

# Counterexample: the plugin noting an event it does not act on.
PLUGIN_SKIPPED_EVENT = """\
I0302 08:14:09.301442       1 health.go:131] Skipping non-nvmlEventTypeXidCriticalError event: {Device:{Handle:0xc0001a2b40} EventType:2 EventData:0 GpuInstanceId:4294967295 ComputeInstanceId:4294967295}
"""

EVICTED_FOR_DISK = """\
Status:         Failed
Reason:         Evicted
Message:        The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 8012Mi. Container trainer was using 48Gi, request is 0, has larger consumption of ephemeral-storage.
"""

# A storage container running under a user with no writable home.
CACHE_NOT_WRITABLE = """\
2026-03-02 08:20:11.004 1 kserve INFO [storage.py:download():64] Copying contents of hf://org/small-lm to local
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/huggingface_hub/file_download.py", line 627, in xet_get
    download_files(
RuntimeError: Data processing error: I/O error: Permission denied (os error 13)
"""

CACHE_NOT_WRITABLE_PY = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/usr/lib/python3.11/os.py", line 225, in makedirs
[rank0]:     mkdir(name, mode)
[rank0]: PermissionError: [Errno 13] Permission denied: '/.triton'
"""

# Counterexample: a device node the user may not open is the machine's device set-up.
DEVICE_NODE_DENIED = """\
PermissionError: [Errno 13] Permission denied: '/dev/davinci_manager'
"""

# The errno sentence pasted without its exception class and with the space after the bracket lost.
ERRNO_SQUASHED = """\
[Errno 13]Permission denied: '/mnt/efs/train/data.tfrecord'
"""

# A boot script's shell and the file utilities it runs, refusing paths in their own words.
SHELL_REFUSALS = (
    "bash:/home/work/.pip/pip.conf: Permission Denied\n",
    "tee: /output/logs/train.log: Permission denied\n",
    "/bin/sh: 1: /job/code/run_train.sh: Permission denied\n",
    "mkdir: cannot create directory '/cache/ckpt': Permission denied\n",
    "cp: cannot create regular file '/model/config.json': Permission denied\n",
)

# Counterexamples: a device node refused to the shell, ssh's refused login, and a command the
# container engine ran under Slurm's pyxis prefix (the plugin's own rule).
SHELL_NOT_A_PATH = (
    "bash: /dev/davinci0: Permission denied\n",
    "ops@node-7: Permission denied (publickey,password).\n",
    "pyxis:     mkdir: cannot create directory '/run/enroot/x': Permission denied\n",
)

GATED_MODEL = """\
2026-03-02 08:20:11.004 1 kserve INFO [storage.py:download():64] Copying contents of hf://org/chat-70b-instruct to local
Access to model org/chat-70b-instruct is restricted. You must have access to it and be authenticated to access it. Please log in.
"""

# Counterexample: a model card's note about access, nothing refused.
GATED_NOTE = """\
This repository is gated: you have to accept the conditions on the model page to access its files.
INFO 03-02 08:20:15 model_runner.py:1014] Loading model weights took 14.9 GiB
"""


def test_a_card_the_device_plugin_withdrew_after_an_xid_is_a_device_fault() -> None:
    for name, text in (("plugin.log", PLUGIN_XID_OLD), ("plugin-klog.log", PLUGIN_XID_KLOG)):
        diagnosis = diagnose_text(name, text)
        assert diagnosis.category == "device_fault", (name, diagnosis.root_cause)
        assert diagnosis.first_error is not None, name
        assert "XidCriticalError: Xid=" in diagnosis.first_error.text, name
        assert "dev.device_plugin_xid_unhealthy" in rules_of(diagnosis), name
        assert "driver_env" in alternative_labels(diagnosis), name


def test_a_skipped_event_of_another_type_is_no_xid() -> None:
    diagnosis = diagnose_text("plugin-klog.log", PLUGIN_SKIPPED_EVENT)
    assert "dev.device_plugin_xid_unhealthy" not in rules_of(diagnosis)
    assert diagnosis.category != "device_fault"


def test_an_eviction_for_node_disk_is_a_full_disk() -> None:
    diagnosis = diagnose_text("describe-pod.txt", EVICTED_FOR_DISK)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="low on resource: ephemeral-storage",
        rule="env.node_disk_pressure_eviction",
    )
    assert {"config", "other"} <= set(alternative_labels(diagnosis))


def test_a_path_the_process_may_not_write_is_the_deployments_setting() -> None:
    for name, text, words in (
        ("storage-initializer.log", CACHE_NOT_WRITABLE, "Permission denied (os error 13)"),
        ("rank0.log", CACHE_NOT_WRITABLE_PY, "Permission denied: '/.triton'"),
    ):
        diagnosis = diagnose_text(name, text)
        assert diagnosis.category == "config", (name, diagnosis.root_cause)
        assert diagnosis.first_error is not None, name
        assert words in diagnosis.first_error.text, name
        assert "cfg.path_permission_denied" in rules_of(diagnosis), name
        assert "driver_env" in alternative_labels(diagnosis), name
        assert diagnosis.confidence < 0.8, name


def test_a_device_node_the_user_may_not_open_keeps_the_device_reading() -> None:
    diagnosis = diagnose_text("rank0.log", DEVICE_NODE_DENIED)
    assert "cfg.path_permission_denied" not in rules_of(diagnosis)
    assert diagnosis.category == "driver_env", diagnosis.root_cause


def test_the_errno_sentence_with_its_space_lost_is_still_the_refused_path() -> None:
    diagnosis = diagnose_text("stdout.log", ERRNO_SQUASHED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Permission denied: '/mnt/efs/train/data.tfrecord'",
        rule="cfg.path_permission_denied",
        beside=["driver_env"],
    )


def test_a_shell_or_file_utility_refusing_a_path_is_the_deployments_setting() -> None:
    for text in SHELL_REFUSALS:
        diagnosis = diagnose_text("stdout.log", text)
        assert_reads(
            diagnosis,
            "config",
            first_error=text.strip(),
            rule="cfg.shell_path_permission_denied",
            beside=["driver_env"],
        )
        assert diagnosis.confidence < 0.8, text


def test_a_device_node_a_login_or_a_pyxis_command_is_no_shell_path_refusal() -> None:
    for text in SHELL_NOT_A_PATH:
        diagnosis = diagnose_text("stdout.log", text)
        assert "cfg.shell_path_permission_denied" not in rules_of(diagnosis), text


def test_a_gated_model_refused_for_want_of_a_granted_token_is_config() -> None:
    diagnosis = diagnose_text("storage-initializer.log", GATED_MODEL)
    assert_reads(
        diagnosis, "config", first_error="is restricted", rule="cfg.hub_gated_model_refused"
    )
    assert "other" in alternative_labels(diagnosis)


def test_a_note_that_a_model_is_gated_refuses_nothing() -> None:
    diagnosis = diagnose_text("serve.log", GATED_NOTE)
    assert "cfg.hub_gated_model_refused" not in rules_of(diagnosis)
