"""Kubernetes' records of a container or pod lost for host memory, and an MPI launcher that
names itself by its wrapped binary.

docs/labelling.md#a-rank-killed-for-host-memory: the kubelet keeps `OOMKilled` as a killed
container's reason (pod YAML, kubectl describe, kubectl get pods) and evicts pods from a node
low on memory (`The node was low on resource: memory.`); both are the record of a kill for
host memory, `oom` with `device_fault` beside it, and the first error. Open MPI's launcher
kept as `mpirun.real` in container images reports a SIGKILLed rank like `mpirun`.
Values are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# The last state of a trainer container, read from the pod's YAML.
POD_STATUS_OOMKILLED = """\
$ kubectl get pod llm-train-worker-1 -o yaml | yq '.status.containerStatuses[0].lastState'
terminated:
  containerID: containerd://41c07d2e9a
  exitCode: 137
  finishedAt: "2026-03-02T08:41:27Z"
  reason: OOMKilled
  startedAt: "2026-03-02T08:12:03Z"
"""

# The same, as kubectl describe pod shows it.
DESCRIBE_OOMKILLED = """\
Containers:
  pytorch:
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
    Restart Count:  4
"""

# The STATUS column of kubectl get pods.
GET_PODS_OOMKILLED = """\
NAME                 READY   STATUS      RESTARTS      AGE
llm-train-master-0   1/1     Running     0             14m
llm-train-worker-0   0/1     OOMKilled   2 (30s ago)   14m
"""

# Counterexample: a container that ended with an error of its own.
DESCRIBE_ERROR = """\
    Last State:     Terminated
      Reason:       Error
      Exit Code:    1
"""

# A pod evicted for node memory pressure, as its events show it.
EVICTED_FOR_MEMORY = """\
  Warning  Evicted   2m   kubelet  The node was low on resource: memory. Threshold quantity: 100Mi, available: 71Mi. Container pytorch was using 28810Mi, request is 8Gi, has larger consumption of memory.
  Normal   Killing   2m   kubelet  Stopping container pytorch
"""

# Counterexample: an eviction for disk.
EVICTED_FOR_DISK = """\
  Warning  Evicted   2m   kubelet  The node was low on resource: ephemeral-storage. Container pytorch was using 61Gi, request is 0.
"""

MPIRUN_REAL_SIGKILL = """\
--------------------------------------------------------------------------
mpirun.real noticed that process rank 3 with PID 88 on node train-mpijob-worker-3 exited on signal 9 (Killed).
--------------------------------------------------------------------------
"""


def test_a_container_the_kubelet_recorded_as_oomkilled_ran_out_of_host_memory() -> None:
    for name, text in (
        ("pod-status.txt", POD_STATUS_OOMKILLED),
        ("describe-pod.txt", DESCRIBE_OOMKILLED),
        ("pods.txt", GET_PODS_OOMKILLED),
    ):
        diagnosis = diagnose_text(name, text)
        assert diagnosis.category == "oom", (name, diagnosis.root_cause)
        assert diagnosis.first_error is not None, name
        assert "OOMKilled" in diagnosis.first_error.text, name
        assert "oom.container_memory_limit_kill" in rules_of(diagnosis), name
        assert "device_fault" in {a.category for a in diagnosis.alternatives}, name


def test_a_container_that_ended_with_an_error_is_no_memory_kill() -> None:
    diagnosis = diagnose_text("describe-pod.txt", DESCRIBE_ERROR)
    assert "oom.container_memory_limit_kill" not in rules_of(diagnosis)


def test_an_eviction_for_node_memory_is_a_host_memory_shortage() -> None:
    diagnosis = diagnose_text("events.txt", EVICTED_FOR_MEMORY)
    assert_reads(
        diagnosis,
        "oom",
        first_error="low on resource: memory",
        rule="oom.node_memory_pressure_eviction",
    )


def test_an_eviction_for_disk_is_no_memory_shortage() -> None:
    diagnosis = diagnose_text("events.txt", EVICTED_FOR_DISK)
    assert "oom.node_memory_pressure_eviction" not in rules_of(diagnosis)
    assert diagnosis.category != "oom"


def test_a_wrapped_mpirun_reports_a_killed_rank_like_mpirun() -> None:
    diagnosis = diagnose_text("launcher.log", MPIRUN_REAL_SIGKILL)
    assert diagnosis.category == "device_fault", diagnosis.root_cause
    assert "dev.mpirun_rank_sigkill" in rules_of(diagnosis)
    assert "oom" in {a.category for a in diagnosis.alternatives}


# kubectl get pods across namespaces puts the namespace first, and a row copied into a
# message can stop right after its STATUS column.
GET_PODS_ALL_NAMESPACES_OOMKILLED = """\
NAMESPACE   NAME                                READY   STATUS      RESTARTS   AGE
mlops       trainer-operator-6d9f7c5b8-q2w4x    0/1     OOMKilled   5          9m
"""
GET_PODS_ROW_CUT_AT_STATUS = "mlops   trainer-operator-6d9f7c5b8-q2w4x   0/1     OOMKilled\n"

# A container whose first process the cgroup killed while the runtime was still creating it:
# the runtime says so in the kubelet's event (CRI-O) or docker's refusal (runc directly).
CREATE_FAILED_INIT_OOM_CRIO = """\
  Warning  Failed  40s  kubelet  Error: container create failed: time="2026-04-11T06:02:19Z" level=error msg="runc create failed: unable to start container process: container init was OOM-killed (memory limit too low?)"
"""
CREATE_FAILED_INIT_OOM_DOCKER = (
    "docker: Error response from daemon: failed to create task for container: failed to create"
    " shim task: OCI runtime create failed: runc create failed: unable to start container"
    " process: container init was OOM-killed (memory limit too low?): unknown.\n"
)

# Counterexample: the runtime's hook failing for another reason stays the runtime's failure.
CREATE_FAILED_HOOK = (
    "Error: container create failed: creating container hooks: open"
    " /usr/share/containers/oci/hooks.d: permission denied\n"
)


def test_a_pod_row_with_its_namespace_or_cut_after_the_status_is_still_a_memory_kill() -> None:
    for name, text in (
        ("pods.txt", GET_PODS_ALL_NAMESPACES_OOMKILLED),
        ("pods-row.txt", GET_PODS_ROW_CUT_AT_STATUS),
    ):
        diagnosis = diagnose_text(name, text)
        assert_reads(
            diagnosis, "oom", first_error="OOMKilled", rule="oom.container_memory_limit_kill"
        )


def test_a_container_whose_init_was_oom_killed_at_create_ran_out_of_its_memory_limit() -> None:
    for name, text in (
        ("events.txt", CREATE_FAILED_INIT_OOM_CRIO),
        ("docker-run.log", CREATE_FAILED_INIT_OOM_DOCKER),
    ):
        diagnosis = diagnose_text(name, text)
        assert_reads(
            diagnosis,
            "oom",
            first_error="container init was OOM-killed",
            rule="oom.container_init_killed_at_create",
            beside=["config"],
        )


def test_a_runtime_hook_that_fails_otherwise_is_no_memory_kill() -> None:
    diagnosis = diagnose_text("events.txt", CREATE_FAILED_HOOK)
    assert "oom.container_init_killed_at_create" not in rules_of(diagnosis)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
