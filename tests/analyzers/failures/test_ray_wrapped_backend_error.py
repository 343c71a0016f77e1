"""Ray's header for a remote call that raised one of torch.distributed's backend errors.

Ray re-raises a remote task's exception in its caller under `RayTaskError(<inner type>):
ray::...`. When a paste kept only that header (the worker's own exception line was cut off),
the inner type is the only word on what failed. For torch.distributed's own classes
(`DistBackendError`, `DistNetworkError`, `DistStoreError`) the type names the collective layer,
as it would on the worker's line: `hccl` at the fallback's low confidence, not `other`
(docs/labelling.md#wrappers). A type that names no layer keeps the header `other`, and the
worker's line, when kept, is read in its place. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# The driver's traceback over a Ray call, cut by the paste right after the header.
HEADER_ONLY = """\
Traceback (most recent call last):
  File "/srv/rl/train.py", line 91, in <module>
    main(cfg)
  File "/srv/rl/train.py", line 57, in main
    ray.get(trainer.async_step(step))
  File "/usr/lib/python3.11/site-packages/ray/_private/worker.py", line 2701, in get
    values, debugger_breakpoint = worker.get_objects(object_refs, timeout=timeout)
  File "/usr/lib/python3.11/site-packages/ray/_private/worker.py", line 902, in get_objects
    raise value.as_instanceof_cause()
ray.exceptions.RayTaskError(DistBackendError): ray::PolicyTr
"""


def test_a_kept_alone_header_of_a_backend_error_reads_as_the_collective_layer() -> None:
    diagnosis = diagnose_text("driver.log", HEADER_ONLY)
    assert_reads(diagnosis, "hccl", first_error="RayTaskError(DistBackendError)")
    assert diagnosis.confidence < 0.8


# The same header over a type that names nothing: still a first error with no class.
VALUE_ERROR_HEADER_ONLY = HEADER_ONLY.replace("DistBackendError", "ValueError")


def test_a_kept_alone_header_of_a_plain_type_stays_unlabelled() -> None:
    diagnosis = diagnose_text("driver.log", VALUE_ERROR_HEADER_ONLY)
    assert_reads(diagnosis, "other", first_error="RayTaskError(ValueError)")


# With the worker's own exception line kept, that line is the first error, as for any header.
WITH_WORKER_LINE = """\
ray.exceptions.RayTaskError(DistBackendError): ray::PolicyTrainer.update() (pid=2211, ip=10.1.0.4)
  File "/srv/rl/worker.py", line 140, in update
    dist.all_reduce(grad, group=self.dp_group)
torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5
"""


def test_the_workers_line_under_the_header_stays_the_first_error() -> None:
    diagnosis = diagnose_text("driver.log", WITH_WORKER_LINE)
    assert_reads(diagnosis, "hccl", first_error="NCCL error in:")
