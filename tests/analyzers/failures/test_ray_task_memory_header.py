"""Ray's header for a remote call that raised a memory error, above the worker's own line.

Ray re-raises a remote task's or actor method's exception in the driver under a header naming
the inner type (`ray.exceptions.RayTaskError(OutOfMemoryError): ray::X.f() (...)`), then the
worker's frames and its own exception line. When the type is a memory error the header echoes
the worker's line below it, which says how much was asked for; the header is cited only when
the paste kept nothing under it (docs/labelling.md#wrappers). The excerpts follow the real
shape (the driver's `ray.get` frames, Ray's caret lines, the actor's frames) with values of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# An RL trainer's driver: the policy actor ran out of device memory computing log-probs.
DRIVER_HEADER_OVER_WORKER_OOM = """\
Traceback (most recent call last):
  File "/srv/rlrun/main_grpo.py", line 61, in <module>
    run(cfg)
  File "/srv/rlrun/main_grpo.py", line 47, in run
    metrics = ray.get(policy_group.update(batch_ref))
  File "/opt/py/lib/python3.11/site-packages/ray/_private/worker.py", line 2771, in get
    values, debugger_breakpoint = worker.get_objects(object_refs, timeout=timeout)
  File "/opt/py/lib/python3.11/site-packages/ray/_private/worker.py", line 919, in get_objects
    raise value.as_instanceof_cause()
ray.exceptions.RayTaskError(OutOfMemoryError): ray::PolicyActor.update() (pid=40211, ip=10.3.0.12, actor_id=5b1f0c9e2a7d4c3b8e6f001a02000000, repr=<rlrun.workers.PolicyActor object at 0x7f11c02b9e50>)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/rlrun/rlrun/workers/policy.py", line 212, in update
    logp = self._token_logprobs(logits, tokens)
  File "/srv/rlrun/rlrun/workers/policy.py", line 168, in _token_logprobs
    return torch.log_softmax(logits.float(), dim=-1).gather(-1, tokens)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 37.50 GiB. GPU 3 has a total capacity of 79.10 GiB of which 21.42 GiB is free.
"""


def test_the_worker_memory_line_under_a_ray_header_is_the_first_error() -> None:
    diagnosis = diagnose_text("driver.log", DRIVER_HEADER_OVER_WORKER_OOM)
    assert_reads(diagnosis, "oom", first_error="Tried to allocate 37.50 GiB")


def test_a_ray_memory_header_kept_alone_is_still_the_first_error() -> None:
    header = next(
        line for line in DRIVER_HEADER_OVER_WORKER_OOM.splitlines() if "RayTaskError(" in line
    )
    diagnosis = diagnose_text("driver.log", header + "\n")
    assert_reads(diagnosis, "oom", first_error="RayTaskError(OutOfMemoryError)")


def test_a_ray_header_of_another_type_over_a_memory_line_is_not_read_as_memory() -> None:
    text = DRIVER_HEADER_OVER_WORKER_OOM.replace(
        "RayTaskError(OutOfMemoryError)", "RayTaskError(ValueError)"
    ).replace(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 37.50 GiB. GPU 3 has a "
        "total capacity of 79.10 GiB of which 21.42 GiB is free.",
        "ValueError: tokens hold ids beyond the vocabulary (151936 >= 151680)",
    )
    diagnosis = diagnose_text("driver.log", text)
    assert diagnosis.category != "oom"
    assert diagnosis.first_error is not None
    assert "tokens hold ids beyond the vocabulary" in diagnosis.first_error.text
