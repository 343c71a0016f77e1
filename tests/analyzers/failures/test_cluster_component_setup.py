"""Logs of the cluster's own components when one of them is not set up for the job.

docs/labelling.md#a-cluster-component-that-is-not-set-up: an operator or controller watching a
resource type the API server does not serve (its custom resource definition was never
installed), a pod the kubelet cannot start because a host path it mounts is missing, a
scheduler told to load a plugin it does not have, and a controller writing into a namespace
that does not exist. Nothing of the job ran, or its recovery could not be arranged: the
deployment has to change, `config`, with `driver_env` beside it, and the component's line is
the first error. Values are our own, in the components' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

WATCHED_TYPE_NOT_SERVED = """\
I0312 08:10:09.004511       7 main.go:88] operator starting, version v7.1.0
E0312 08:10:11.120334       7 reflector.go:138] k8s.io/client-go@v0.25.3/tools/cache/reflector.go:169: Failed to watch *v1beta1.PodGroup: failed to list *v1beta1.PodGroup: the server could not find the requested resource (get podgroups.scheduling.volcano.sh)
E0312 08:10:12.318770       7 reflector.go:138] k8s.io/client-go@v0.25.3/tools/cache/reflector.go:169: Failed to watch *v1beta1.PodGroup: the server could not find the requested resource (get podgroups.scheduling.volcano.sh)
"""

# Counterexample: the API server could not be reached at all; the resource type is not in
# question, so the missing-definition reading does not apply.
WATCH_API_SERVER_UNREACHABLE = """\
E0312 08:10:11.120334       7 reflector.go:138] k8s.io/client-go@v0.25.3/tools/cache/reflector.go:169: Failed to watch *v1.Pod: failed to list *v1.Pod: Get "https://10.96.0.1:443/api/v1/pods?limit=500": dial tcp 10.96.0.1:443: connect: connection refused
"""

HOST_PATH_MISSING = """\
Events:
  Type     Reason       Age               From               Message
  ----     ------       ----              ----               -------
  Normal   Scheduled    20s               default-scheduler  Successfully assigned mindx-dl/noded-x7k2p to node-12
  Warning  FailedMount  9s (x6 over 20s)  kubelet            MountVolume.SetUp failed for volume "log-noded" : hostPath type check failed: /var/log/mindx-dl/noded is not a directory
"""

CONFIGMAP_MISSING = """\
  Warning  FailedMount  30s (x8 over 94s)  kubelet  MountVolume.SetUp failed for volume "fault-config" : configmap "mindx-dl-fault-config" not found
"""

# Counterexample: the kubelet only reports that it is still waiting for the mounts; the
# reason, if any, is elsewhere.
MOUNT_WAIT_ONLY = """\
  Warning  FailedMount  2m  kubelet  Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data kube-api-access-8f2k]: timed out waiting for the condition
"""

PLUGIN_NOT_LOADED = """\
I0402 11:20:31.004218       1 scheduler.go:93] Starting Volcano scheduler
E0402 11:20:31.220841       1 framework.go:38] Failed to get plugin volcano-npu_v7.1.0_linux-x86_64
"""

# Counterexample: the scheduler reporting, at INFO level, a plugin it did load.
PLUGIN_LOADED = """\
I0402 11:20:31.004218       1 plugins.go:52] load custom plugin volcano-npu_v7.1.0_linux-x86_64 success
"""

NAMESPACE_MISSING_UNDER_RECOVERY = {
    "clusterd.log": 'create configmap job-fault-report err:namespaces "cluster-system" not found\n',
    "ttp.log": (
        "2026-05-02 10:11:40.120331 2201 error [2201][TTP controller.cpp:2237] rebuild HCCL comm group failed\n"
        "2026-05-02 10:11:40.120340 2201 error [2201][TTP controller.cpp:1243] do repair failed, ret: 1\n"
    ),
    "plog.log": (
        "[ERROR] RUNTIME(3310,python):2026-05-02-10:11:02.056.709 [npu_driver.cc:760]3320 "
        "DestroyIpcNotify:[drv api] halShrIdDestroy failed: name=00a1, device_id=3, tsId=0, "
        "notifyId=12, drvRetCode=17!\n"
    ),
}

# Counterexample: a pod that is not there is no namespace that is missing.
POD_NOT_FOUND = """\
Error from server (NotFound): pods "train-worker-3" not found
"""


def test_a_watched_type_the_api_server_does_not_serve_is_the_deployment() -> None:
    diagnosis = diagnose_text("operator.log", WATCHED_TYPE_NOT_SERVED)
    assert_reads(
        diagnosis,
        "config",
        first_error="could not find the requested resource",
        rule="cfg.k8s_watched_type_not_served",
        beside=("driver_env",),
    )


def test_an_unreachable_api_server_is_not_a_missing_definition() -> None:
    diagnosis = diagnose_text("operator.log", WATCH_API_SERVER_UNREACHABLE)
    assert "cfg.k8s_watched_type_not_served" not in rules_of(diagnosis)


def test_a_host_path_the_pod_mounts_missing_is_the_deployment() -> None:
    diagnosis = diagnose_text("describe-pod.txt", HOST_PATH_MISSING)
    assert_reads(
        diagnosis,
        "config",
        first_error="hostPath type check failed",
        rule="cfg.k8s_volume_source_missing",
    )


def test_a_config_map_the_pod_mounts_missing_reads_the_same() -> None:
    diagnosis = diagnose_text("describe-pod.txt", CONFIGMAP_MISSING)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert 'configmap "mindx-dl-fault-config" not found' in diagnosis.first_error.text


def test_a_mount_wait_alone_is_not_a_missing_source() -> None:
    diagnosis = diagnose_text("describe-pod.txt", MOUNT_WAIT_ONLY)
    assert "cfg.k8s_volume_source_missing" not in rules_of(diagnosis)


def test_a_scheduler_plugin_it_cannot_get_is_its_configuration() -> None:
    diagnosis = diagnose_text("volcano-scheduler.log", PLUGIN_NOT_LOADED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Failed to get plugin",
        rule="cfg.scheduler_plugin_not_loaded",
    )


def test_a_loaded_plugin_is_no_error() -> None:
    diagnosis = diagnose_text("volcano-scheduler.log", PLUGIN_LOADED)
    assert "cfg.scheduler_plugin_not_loaded" not in rules_of(diagnosis)
    assert diagnosis.first_error is None


def test_a_missing_namespace_explains_the_recovery_that_failed_after_it() -> None:
    diagnosis = diagnose_files(NAMESPACE_MISSING_UNDER_RECOVERY)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert 'namespaces "cluster-system" not found' in diagnosis.first_error.text
    assert "cfg.k8s_namespace_missing" in rules_of(diagnosis)


def test_a_pod_not_found_is_not_a_missing_namespace() -> None:
    diagnosis = diagnose_text("kubectl.txt", POD_NOT_FOUND)
    assert "cfg.k8s_namespace_missing" not in rules_of(diagnosis)
