"""torch's DataLoader wrapper sentence that names a class a rule reads.

`Caught MemoryError in DataLoader worker process 1.` matches the host-memory rule by the class
name it quotes; the worker's own exception under `Original Traceback` is still what failed and
is the first error (docs/labelling.md#wrappers), whether the rank printed the wrapper as an
exception or logged it in its own record. Without the worker's lines (a cut excerpt), the
wrapper stays the first error. Paths, ranks and sizes are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

WORKER = """\
Original Traceback (most recent call last):
  File "/srv/seg/.venv/lib/python3.10/site-packages/torch/utils/data/_utils/worker.py", line 349, in _worker_loop
    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]
  File "/srv/seg/.venv/lib/python3.10/site-packages/torch/utils/data/_utils/fetch.py", line 52, in <listcomp>
    data = [self.dataset[idx] for idx in possibly_batched_index]
  File "/srv/seg/data.py", line 88, in __getitem__
    volume = np.zeros((6, 4096, 4096), dtype=np.float32)
numpy.core._exceptions._ArrayMemoryError: Unable to allocate 384. MiB for an array with shape (6, 4096, 4096) and data type float32
"""

RAISED = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/seg/train.py", line 141, in <module>
[rank1]:     images, masks = next(batches)
[rank1]:   File "/srv/seg/.venv/lib/python3.10/site-packages/torch/_utils.py", line 722, in reraise
[rank1]:     raise RuntimeError(msg) from None
[rank1]: RuntimeError: Caught MemoryError in DataLoader worker process 2.
""" + "".join(f"[rank1]: {line}\n" for line in WORKER.splitlines())

LOGGED = (
    "2026-11-30 16:40:02,719 [rank1] ERROR model run failed: Caught MemoryError in DataLoader worker process 2.\n"
    + WORKER
)

CUT = "2026-11-30 16:40:02,719 [rank1] ERROR model run failed: Caught MemoryError in DataLoader worker process 2.\n"


def test_the_worker_exception_under_a_raised_wrapper_is_the_first_error() -> None:
    diagnosis = diagnose_text("rank1.log", RAISED)
    assert_reads(diagnosis, "oom", first_error="Unable to allocate 384. MiB")


def test_a_logged_wrapper_record_carries_the_worker_exception_too() -> None:
    diagnosis = diagnose_text("log_1.log", LOGGED)
    assert_reads(diagnosis, "oom", first_error="Unable to allocate 384. MiB")


def test_a_wrapper_cut_before_the_worker_lines_stays_the_first_error() -> None:
    diagnosis = diagnose_text("log_1.log", CUT)
    assert diagnosis.first_error is not None
    assert "Caught MemoryError in DataLoader worker process 2." in diagnosis.first_error.text
