"""A record of the training data that does not parse, met by a DataLoader worker.

A rank's loader worker reads its shard one record at a time (`json.loads` in the data set's
`__getitem__`); a record cut short when the shard was copied stops the parser, and the rank
re-raises it under `Caught JSONDecodeError in DataLoader worker process N.` with the worker's
traceback. The file is the job's input data, not a settings file of its own: `other`, with
`config` beside it (docs/labelling.md#a-data-record-that-does-not-parse). The excerpt is cut
from a real gloo run (torch 2.13 CPU; paths of our own), a tqdm bar redrawn with a carriage
return on the line before the traceback.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "other.data_record_unparsable"

WORKER_RECORD = (
    "optimizer passed\n"
    "train step 2 passed\n"
    "\rtrain:  50%|█████     | 2/4 [00:01<00:01,  1.33it/s, loss=6.752]train step 3 start\n"
    + "".join(
        f"[rank1]: {line}\n"
        for line in """\
Traceback (most recent call last):
  File "/home/user/lm-train/train.py", line 344, in run
    ids, feat, aux = pre.next(step) if pre else next(it)
                                                ^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1567, in _process_data
    data.reraise()
  File "/opt/venv/lib/python3.11/site-packages/torch/_utils.py", line 793, in reraise
    raise RuntimeError(msg) from None
RuntimeError: Caught JSONDecodeError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/worker.py", line 374, in _worker_loop
    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]
           ^^^^^^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", line 54, in fetch
    data = [self.dataset[idx] for idx in possibly_batched_index]
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/user/lm-train/train.py", line 193, in __getitem__
    rec = json.loads(self.lines[i])
          ^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/json/decoder.py", line 353, in raw_decode
    obj, end = self.scan_once(s, idx)
               ^^^^^^^^^^^^^^^^^^^^^^
json.decoder.JSONDecodeError: Expecting ',' delimiter: line 1 column 125 (char 124)""".splitlines()
    )
)

# the same parser error from a settings file read in the job's own code: no loader frame
SETTINGS_FILE = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/home/user/lm-train/train.py", line 61, in <module>
[rank1]:     layout = json.loads(Path(args.layout).read_text())
[rank1]: json.decoder.JSONDecodeError: Expecting ',' delimiter: line 4 column 5 (char 58)
"""


def test_a_data_record_a_loader_worker_could_not_parse_is_the_input_data() -> None:
    diagnosis = diagnose_text("log_1.log", WORKER_RECORD)
    assert_reads(
        diagnosis,
        "other",
        first_error="JSONDecodeError: Expecting ',' delimiter: line 1 column 125",
        rule=RULE,
        beside=["config"],
    )


def test_a_record_cut_inside_a_string_reads_the_same() -> None:
    text = WORKER_RECORD.replace(
        "Expecting ',' delimiter: line 1 column 125 (char 124)",
        "Unterminated string starting at: line 1 column 230 (char 229)",
    )
    assert_reads(
        diagnose_text("log_1.log", text), "other", first_error="Unterminated string", rule=RULE
    )


def test_the_same_error_outside_a_loader_worker_stays_a_settings_file() -> None:
    diagnosis = diagnose_text("log_1.log", SETTINGS_FILE)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category == "config"
