"""A record of the input data that lacks a field the data set reads, met by a DataLoader worker.

A data set reads each record's fields in its `__getitem__` (`rec["input_ids"]`); a record
written by another export names the field otherwise, and the worker stops with a bare
`KeyError: 'input_ids'` that the rank re-raises under `Caught KeyError in DataLoader worker
process N.`. The record is the job's input data: `other`, with `config` beside it
(docs/labelling.md#a-data-record-that-does-not-parse). The excerpt is cut from a real four-rank
gloo run under torch.multiprocessing.spawn (torch 2.13 CPU; paths of our own).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "other.data_record_missing_field"

HEAD = (
    "2026-12-07 17:43:11,189 - train.rank1 - INFO - step 3 done, loss=5.7204\n"
    "2026-12-07 17:43:11,190 - train.rank1 - INFO - train step 4 start\n"
    "2026-12-07 17:43:11,192 - train.rank1 - ERROR - training failed: Caught KeyError in"
    " DataLoader worker process 1.\n"
)

WORKER = (
    HEAD
    + """\
Traceback (most recent call last):
  File "/home/user/moe/train.py", line 262, in main
    x, y = next(it)
           ^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1567, in _process_data
    data.reraise()
  File "/opt/venv/lib/python3.11/site-packages/torch/_utils.py", line 794, in reraise
    raise exception
KeyError: Caught KeyError in DataLoader worker process 1.
Original Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/worker.py", line 374, in _worker_loop
    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]
           ^^^^^^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", line 54, in fetch
    data = [self.dataset[idx] for idx in possibly_batched_index]
            ~~~~~~~~~~~~^^^^^
  File "/home/user/moe/train.py", line 209, in __getitem__
    ids = torch.tensor(rec["input_ids"], dtype=torch.long)
                       ~~~^^^^^^^^^^^^^
KeyError: 'input_ids'
"""
)

# the same key read from the job's own settings at start-up: no loader frame
OWN_CODE = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/home/user/moe/train.py", line 88, in main
[rank1]:     vocab = cfg["vocab_size"]
[rank1]: KeyError: 'vocab_size'
"""


def test_a_record_without_the_field_in_a_loader_worker_is_the_input_data() -> None:
    diagnosis = diagnose_text("log_1.log", WORKER)
    assert_reads(
        diagnosis, "other", first_error="KeyError: 'input_ids'", rule=RULE, beside=["config"]
    )
    assert diagnosis.confidence > 0.2  # a known reading, above an unrecognised error's


def test_the_same_error_outside_a_loader_worker_is_not_this_rule() -> None:
    assert RULE not in rules_of(diagnose_text("log_1.log", OWN_CODE))
