"""An array file of the input data cut short, met by a DataLoader worker.

A rank's loader worker reads its shards with `np.load` as it needs them; a `.npy` file that was
copied or written only in part holds fewer values than its header declares, and numpy says so
(`ValueError: Failed to read all data for array. Expected (16, 33) = 528 elements, could only
read 304 elements. (file seems not fully written?)`); the rank re-raises it under `Caught
ValueError in DataLoader worker process N.`. The file is the job's input data: `other`, with
`config` and `driver_env` beside it (docs/labelling.md#a-data-record-that-does-not-parse). The
excerpt is cut from a real six-rank gloo run (torch 2.13 CPU, numpy 2.4; paths of our own).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "other.data_array_cut_short"

HEAD = (
    "2026-12-07 12:15:07,470 | INFO | trainer | rank 4 | epoch 0 step 2 finished (loss 0.6560)\n"
    "2026-12-07 12:15:07,763 | INFO | trainer | rank 4 | epoch 0 step 3 finished (loss 0.5262)\n"
)
CUT = "ValueError: Failed to read all data for array. Expected (16, 33) = 528 elements, could only read 304 elements. (file seems not fully written?)"

WORKER = HEAD + "".join(
    f"[rank4]: {line}\n"
    for line in f"""\
Traceback (most recent call last):
  File "/home/user/shards/train.py", line 46, in main
    for step, (x, y) in enumerate(dl):
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1567, in _process_data
    data.reraise()
  File "/opt/venv/lib/python3.11/site-packages/torch/_utils.py", line 794, in reraise
    raise exception
ValueError: Caught ValueError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/worker.py", line 374, in _worker_loop
    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]
           ^^^^^^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", line 54, in fetch
    data = [self.dataset[idx] for idx in possibly_batched_index]
            ~~~~~~~~~~~~^^^^^
  File "/home/user/shards/train.py", line 31, in __getitem__
    rec = self._shard(i // PER_SHARD)[i % PER_SHARD]
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/user/shards/train.py", line 27, in _shard
    self._cache[k] = np.load(self.files[k])
                     ^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/numpy/lib/_npyio_impl.py", line 483, in load
    return format.read_array(fid, allow_pickle=allow_pickle,
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/numpy/lib/_format_impl.py", line 874, in read_array
    raise ValueError(
{CUT}""".splitlines()
)

# the same file read by the job's own code at start-up: no loader frame
OWN_CODE = """\
[rank4]: Traceback (most recent call last):
[rank4]:   File "/home/user/shards/train.py", line 61, in <module>
[rank4]:     table = np.load(args.embedding_table)
[rank4]:   File "/opt/venv/lib/python3.11/site-packages/numpy/lib/_format_impl.py", line 874, in read_array
[rank4]:     raise ValueError(
[rank4]: ValueError: Failed to read all data for array. Expected (4096, 64) = 262144 elements, could only read 1000 elements. (file seems not fully written?)
"""


def test_an_array_shard_cut_short_in_a_loader_worker_is_the_input_data() -> None:
    diagnosis = diagnose_text("log_4.log", WORKER)
    assert_reads(
        diagnosis,
        "other",
        first_error="Failed to read all data for array. Expected (16, 33) = 528 elements",
        rule=RULE,
        beside=["config", "driver_env"],
    )
    assert diagnosis.confidence > 0.2  # a known reading, above an unrecognised error's


def test_the_same_words_outside_a_loader_worker_are_not_this_rule() -> None:
    assert RULE not in rules_of(diagnose_text("log_4.log", OWN_CODE))
