"""A data shard whose bytes are not text, met by a DataLoader worker.

A rank's loader worker reads its text shard (`.jsonl`, `.txt`) in the data set's
`__getitem__`; when the file holds bytes that are no text in the codec it is read with (a shard
copied compressed under its plain name, a binary file in place of a text one, a copy that broke
off inside a character), Python stops with `UnicodeDecodeError: 'utf-8' codec can't decode byte
0x8b in position 1: invalid start byte` and the rank re-raises it under `Caught
UnicodeDecodeError in DataLoader worker process N.`. As for a record that does not parse, the
file is the job's input data: `other`, with `config` beside it
(docs/labelling.md#a-data-record-that-does-not-parse). The excerpt is cut from a real gloo run
(torch 2.13 CPU, paths of our own).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "other.data_file_undecodable"

WORKER_BYTES = (
    "2026-12-07 09:32:38,093 [rank1] INFO optimizer passed\n"
    "2026-12-07 09:32:38,093 [rank1] INFO train step 5 passed\n"
    + "".join(
        f"[rank1]: {line}\n"
        for line in """\
Traceback (most recent call last):
  File "/home/user/lm-train/train.py", line 241, in job_loader
    for it, (x, y) in enumerate(dl, start=1):
                      ^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1567, in _process_data
    data.reraise()
  File "/opt/venv/lib/python3.11/site-packages/torch/_utils.py", line 793, in reraise
    raise RuntimeError(msg) from None
RuntimeError: Caught UnicodeDecodeError in DataLoader worker process 1.
Original Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/worker.py", line 374, in _worker_loop
    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]
           ^^^^^^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", line 54, in fetch
    data = [self.dataset[idx] for idx in possibly_batched_index]
            ~~~~~~~~~~~~^^^^^
  File "/home/user/lm-train/train.py", line 209, in __getitem__
    rec = json.loads(f.readline())
          ^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/json/__init__.py", line 341, in loads
    s = s.decode(detect_encoding(s), 'surrogatepass')
        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
UnicodeDecodeError: 'utf-8' codec can't decode byte 0x8b in position 1: invalid start byte""".splitlines()
    )
)

# the same decoder error from a file the job's own code reads at start-up: no loader frame
OWN_FILE = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/home/user/lm-train/train.py", line 58, in <module>
[rank0]:     prompt = Path(args.prompt_file).read_text()
[rank0]:   File "/usr/lib/python3.11/pathlib.py", line 1059, in read_text
[rank0]:     return f.read()
[rank0]: UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte
"""


def test_a_data_shard_a_loader_worker_could_not_decode_is_the_input_data() -> None:
    diagnosis = diagnose_text("log_1.log", WORKER_BYTES)
    assert_reads(
        diagnosis,
        "other",
        first_error="codec can't decode byte 0x8b in position 1",
        rule=RULE,
        beside=["config"],
    )


def test_a_shard_cut_inside_a_character_reads_the_same() -> None:
    text = WORKER_BYTES.replace(
        "can't decode byte 0x8b in position 1: invalid start byte",
        "can't decode bytes in position 4094-4095: unexpected end of data",
    )
    assert_reads(
        diagnose_text("log_1.log", text), "other", first_error="unexpected end of data", rule=RULE
    )


def test_the_same_error_outside_a_loader_worker_is_not_the_data() -> None:
    assert RULE not in rules_of(diagnose_text("log_0.log", OWN_FILE))
