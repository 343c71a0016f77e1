"""Samples of one batch that differ in size, met by a DataLoader worker's default collate.

The worker shapes a shared-memory storage as the batch of the first sample's shape; a smaller
sample leaves it too small, and a shared storage cannot grow, so the worker raises `Trying to
resize storage that is not resizable` from collate.py and the rank re-raises it under `Caught
RuntimeError in DataLoader worker process N.`
(docs/labelling.md#samples-of-one-batch-that-differ-in-size). The excerpts follow the real shapes
with paths, ranks and numbers of our own.
"""

from __future__ import annotations

import json

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "shape.collate_shared_storage_resize"


WORKER_COLLATE = """\
2026-11-30 14:02:11,508 [rank1] INFO train step 3 start
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/asr/train.py", line 164, in <module>
[rank1]:     feats, labels = next(batches)
[rank1]:   File "/srv/asr/.venv/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 733, in __next__
[rank1]:     data = self._next_data()
[rank1]:   File "/srv/asr/.venv/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1515, in _process_data
[rank1]:     data.reraise()
[rank1]:   File "/srv/asr/.venv/lib/python3.10/site-packages/torch/_utils.py", line 733, in reraise
[rank1]:     raise exception
[rank1]: RuntimeError: Caught RuntimeError in DataLoader worker process 3.
[rank1]: Original Traceback (most recent call last):
[rank1]:   File "/srv/asr/.venv/lib/python3.10/site-packages/torch/utils/data/_utils/worker.py", line 349, in _worker_loop
[rank1]:     data = fetcher.fetch(index)  # type: ignore[possibly-undefined]
[rank1]:   File "/srv/asr/.venv/lib/python3.10/site-packages/torch/utils/data/_utils/fetch.py", line 55, in fetch
[rank1]:     return self.collate_fn(data)
[rank1]:   File "/srv/asr/.venv/lib/python3.10/site-packages/torch/utils/data/_utils/collate.py", line 398, in default_collate
[rank1]:     return collate(batch, collate_fn_map=default_collate_fn_map)
[rank1]:   File "/srv/asr/.venv/lib/python3.10/site-packages/torch/utils/data/_utils/collate.py", line 171, in collate
[rank1]:     return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]  # Backwards compatibility.
[rank1]:   File "/srv/asr/.venv/lib/python3.10/site-packages/torch/utils/data/_utils/collate.py", line 272, in collate_tensor_fn
[rank1]:     out = elem.new(storage).resize_(len(batch), *list(elem.size()))
[rank1]: RuntimeError: Trying to resize storage that is not resizable
"""

BORROWED_MEMORY = """\
Traceback (most recent call last):
  File "/home/dev/audio/prep.py", line 51, in <module>
    frames = torch.from_numpy(pcm).resize_(n_frames, hop)
RuntimeError: Trying to resize storage that is not resizable
"""


def test_a_worker_collate_that_cannot_grow_its_batch_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("rank1.log", WORKER_COLLATE)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="Trying to resize storage that is not resizable",
        rule=RULE,
    )


def test_the_same_words_outside_a_collate_are_not_a_batch() -> None:
    diagnosis = diagnose_text("prep.log", BORROWED_MEMORY)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category != "shape_mismatch"


_ORIGINAL = """\
Caught RuntimeError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File "/srv/asr/.venv/lib/python3.10/site-packages/torch/utils/data/_utils/worker.py", line 349, in _worker_loop
    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]
  File "/srv/asr/.venv/lib/python3.10/site-packages/torch/utils/data/_utils/collate.py", line 272, in collate_tensor_fn
    out = elem.new(storage).resize_(len(batch), *list(elem.size()))
RuntimeError: Trying to resize storage that is not resizable
"""

_RERAISED = (
    """\
Traceback (most recent call last):
  File "/srv/asr/train.py", line 164, in <module>
    feats, labels = next(batches)
  File "/srv/asr/.venv/lib/python3.10/site-packages/torch/_utils.py", line 733, in reraise
    raise exception
RuntimeError: """
    + _ORIGINAL
)


def _record(level: str, message: str, exc_info: str | None = None) -> str:
    fields = {"time": "2026-11-30T14:02:11.512", "level": level, "rank": 1, "message": message}
    if exc_info is not None:
        fields["exc_info"] = exc_info
    return json.dumps(fields)


def test_a_json_record_that_carries_the_worker_traceback_reads_the_same() -> None:
    """A JSON formatter writes the logged exception into the record twice, in the message and
    in `exc_info`, with the newlines escaped: one physical line holds both tracebacks, and
    the collate frame of either says where the exception was raised."""
    text = "\n".join(
        [
            _record("INFO", "train step 3 start"),
            _record("ERROR", "model run failed: " + _ORIGINAL, _RERAISED),
            "",
        ]
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert diagnosis.category == "shape_mismatch"
    assert RULE in rules_of(diagnosis)
