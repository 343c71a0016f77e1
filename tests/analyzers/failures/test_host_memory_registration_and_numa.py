"""Host-side refusals before a rank computes anything: pinning or registering host memory for
the device, and a NUMA binding the container does not allow.

docs/labelling.md#memory-shared-with-or-registered-for-another-process: an NPU driver's
`halHostRegister` refusal, a binding's `register ptr failed` and a pinning helper's `Unable to
pin host memory` are `driver_env`, `config` and `oom` beside it.
docs/labelling.md#a-numa-binding-the-container-refuses: numactl's perror (`setting membind:
Invalid argument`) is `driver_env` and the first error ahead of the launcher's death notice.
Fixtures are our own jobs written in the libraries' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A KV-cache connector on an NPU server whose driver cannot register the host buffer.
HAL_REGISTER_REFUSED = """\
(EngineCore_DP0 pid=40112) [2026-02-03 11:02:41,118] LMCache INFO: Initializing LRUCachePolicy (lru.py:22:lmcache.v1.storage_backend.cache_policy.lru)
(EngineCore_DP0 pid=40112) Unable to halHostRegister: 65534
(EngineCore_DP0 pid=40112) ERROR 02-03 11:02:42 [core.py:866] EngineCore failed to start.
(EngineCore_DP0 pid=40112) ERROR 02-03 11:02:42 [core.py:866] Traceback (most recent call last):
(EngineCore_DP0 pid=40112) ERROR 02-03 11:02:42 [core.py:866]   File "/opt/venv/lib/python3.11/site-packages/kvpool/allocator.py", line 212, in __init__
(EngineCore_DP0 pid=40112) ERROR 02-03 11:02:42 [core.py:866]     self.base = ops.alloc_pinned_ptr(nbytes, 0)
(EngineCore_DP0 pid=40112) ERROR 02-03 11:02:42 [core.py:866] RuntimeError: register ptr failed
"""

# The binding's bare error alone, from a tensor-parallel worker.
REGISTER_PTR_ALONE = """\
(Worker_TP2 pid=7731) ERROR 04-17 16:20:05 [multiproc_executor.py:671] WorkerProc failed to start.
(Worker_TP2 pid=7731) ERROR 04-17 16:20:05 [multiproc_executor.py:671] RuntimeError: register ptr failed
"""

MLOCK_LIMIT = """\
RuntimeError: Unable to pin host memory with error code: -1
"""

# Counterexample: a successful registration and a fallback to pageable copies refuse nothing;
# the job's own error decides.
REGISTERED_THEN_OTHER_ERROR = """\
INFO kvpool: registered host buffer 0x7f2c00000000 (64 GB) with the NPU
WARNING kvpool: unable to pin host memory for the staging buffer, falling back to pageable copies
Traceback (most recent call last):
  File "serve.py", line 40, in <module>
    main()
ValueError: max_model_len must be positive, got -1
"""

# An inference server whose scheduler processes numactl could not bind.
NUMACTL_MEMBIND_REFUSED = """\
[2026-07-02 09:10:11] server_args=ServerArgs(model_path='/models/demo-8b', tp_size=2, port=30000)
setting membind: Invalid argument
setting membind: Invalid argument
[2026-07-02 09:10:29] Rank 0 scheduler is dead. Please check if there are relevant logs.
[2026-07-02 09:10:29] Exit code: 1
"""

NUMACTL_CPU_BIND_REFUSED = """\
numa_sched_setaffinity_v2_int() failed: Invalid argument
sched_setaffinity: Invalid argument
E0702 09:12:40.118000 5521 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 5590) of binary: /usr/bin/python3
"""

# Counterexample: the binding reported as applied, then the rank's own error.
NUMA_BINDING_REPORTED = """\
INFO numa_utils: setting membind to node 1 for TP rank 4
Traceback (most recent call last):
  File "serve.py", line 40, in <module>
    main()
ValueError: max_model_len must be positive, got -1
"""


def test_the_hal_refusal_is_the_first_error_and_the_host() -> None:
    diagnosis = diagnose_text("engine.log", HAL_REGISTER_REFUSED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Unable to halHostRegister: 65534",
        rule="env.host_memory_registration_refused",
    )
    assert {"config", "oom"} <= {a.category for a in diagnosis.alternatives}


def test_the_bindings_bare_refusal_alone() -> None:
    diagnosis = diagnose_text("worker.log", REGISTER_PTR_ALONE)
    assert_reads(diagnosis, "driver_env", first_error="register ptr failed")


def test_a_pinning_helper_under_a_memlock_limit() -> None:
    diagnosis = diagnose_text("worker.log", MLOCK_LIMIT)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert "env.host_memory_registration_refused" in rules_of(diagnosis)


def test_a_registration_that_succeeded_refuses_nothing() -> None:
    diagnosis = diagnose_text("serve.log", REGISTERED_THEN_OTHER_ERROR)
    assert "env.host_memory_registration_refused" not in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "max_model_len must be positive" in diagnosis.first_error.text


def test_numactls_membind_refusal_outranks_the_death_notice() -> None:
    diagnosis = diagnose_text("server.log", NUMACTL_MEMBIND_REFUSED)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.strip() == "setting membind: Invalid argument"
    assert "env.numa_binding_refused" in rules_of(diagnosis)
    assert "config" in {a.category for a in diagnosis.alternatives}


def test_numactls_cpu_binding_refusal() -> None:
    diagnosis = diagnose_text("launcher.log", NUMACTL_CPU_BIND_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="numa_sched_setaffinity_v2_int() failed")


def test_a_binding_reported_as_applied_refuses_nothing() -> None:
    diagnosis = diagnose_text("serve.log", NUMA_BINDING_REPORTED)
    assert "env.numa_binding_refused" not in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "max_model_len must be positive" in diagnosis.first_error.text


# THC-era torch words the busy device its own way, from the caching host allocator that a
# pin_memory loader reaches in a spawned rank.
THC_BUSY_DEVICE = """\
Constructing networks...
THCudaCheck FAIL file=/opt/pytorch/aten/src/THC/THCCachingHostAllocator.cpp line=278 error=46 : all CUDA-capable devices are busy or unavailable
Traceback (most recent call last):
  File "/home/u/gan/train.py", line 212, in <module>
    main()
"""


def test_the_thc_wording_of_a_busy_device() -> None:
    diagnosis = diagnose_text("train.log", THC_BUSY_DEVICE)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert "env.cuda_driver_unusable" in rules_of(diagnosis)
