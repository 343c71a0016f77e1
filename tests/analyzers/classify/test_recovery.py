"""Errors a writer went on past count like warnings: progress after the error in the same
attempt, a slip at the prompt, an exception caught and logged as a warning before another."""

from __future__ import annotations

from analyzers.classify.events import classify_scans
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import TIER_CAUSE
from tests.analyzers.excerpts import scan_text

KNOWLEDGE = load_knowledge()

SHARED_STDOUT = """\
2026-12-04 16:51:47,858 [rank3] INFO  attention passed
2026-12-04 16:51:47,868 [rank1] INFO  MoE passed
2026-12-04 16:51:47,868 [rank1] INFO layer 5 passed
2026-12-04 16:51:47,868 [rank1] INFO prefill start: 8 tokens
free(): double free detected in tcache 2
2026-12-04 16:51:47,872 [rank6] INFO  MoE passed
2026-12-04 16:51:47,873 [rank6] INFO layer 5 passed
"""


def test_an_untagged_error_in_a_stdout_several_ranks_share_is_not_recovered() -> None:
    # the C library writes to the process's stderr with no rank tag; the next ranks' progress
    # lines are other processes', not the aborted one going on
    items = classify_scans([scan_text("job/job.log", SHARED_STDOUT)], KNOWLEDGE)
    free = next(item for item in items if "double free" in item.event.text)
    assert (free.rank, free.recovered, free.tier) == (None, False, TIER_CAUSE)


def test_an_error_one_ranks_own_log_goes_on_after_is_recovered() -> None:
    text = "\n".join(
        line.split("] INFO ", 1)[-1] for line in SHARED_STDOUT.splitlines() if "rank6" not in line
    )
    items = classify_scans([scan_text("job/log_3.log", text + "\n layer 0 passed\n")], KNOWLEDGE)
    free = next(item for item in items if "double free" in item.event.text)
    assert free.recovered


def test_an_error_followed_by_the_ranks_next_attempt_is_not_recovered() -> None:
    """A retry loop appended attempt 1 to the rank's log: the rank was started again, it did
    not carry on after its error (checkpoints.restarts)."""
    run = ["load weights passed\n", "prefill start: 8 tokens\n", "  norm passed\n"]
    error = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 8x8)\n"
    scan = scan_text("job/log_1.log", "".join([*run, error, *run]))
    (item,) = [i for i in classify_scans([scan], KNOWLEDGE) if "mat1" in i.event.text]
    assert (item.recovered, item.tier) == (False, TIER_CAUSE)


# A rank's feeding thread dies; its main thread finishes the prompt it holds and then waits
# forever for the next one (no further line).
THREAD_DIED_THEN_STOPPED = """\
prefill start: prompt 0, 8 tokens
 norm passed
Exception in thread feeder:
Traceback (most recent call last):
  File "/usr/lib/python3.11/threading.py", line 1045, in _bootstrap_inner
    self.run()
  File "/srv/infer/feeder.py", line 31, in run
    batch = rows @ proj
RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x32)
 attention passed
 MoE passed
layer 0 passed
prefill passed
"""


def test_a_thread_that_died_in_a_rank_that_never_finished_is_not_recovered() -> None:
    items = classify_scans([scan_text("job/log_1.log", THREAD_DIED_THEN_STOPPED)], KNOWLEDGE)
    died = next(item for item in items if "mat1 and mat2" in item.event.text)
    assert not died.recovered
    header = next(item for item in items if "Exception in thread" in item.event.text)
    assert header.tier < died.tier


def test_a_thread_that_died_in_a_rank_that_finished_is_recovered() -> None:
    text = THREAD_DIED_THEN_STOPPED + "model run success\n"
    items = classify_scans([scan_text("job/log_1.log", text)], KNOWLEDGE)
    died = next(item for item in items if "mat1 and mat2" in item.event.text)
    assert died.recovered


PROMPT_SLIP_THEN_DEVICE_ERROR = """\
>>> import fastmt
>>> engine = fastmt.Engien("model_dir/", device="npu")
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
AttributeError: module 'fastmt' has no attribute 'Engien'
>>> engine = fastmt.Engine("model_dir/", device="npu")
>>> engine.run([[1, 2, 3]])
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
RuntimeError: CANN failed with error 100024
"""

PROMPT_IMPORT_THEN_MISSING_NAME = """\
>>> import torch, torch_npu
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
ImportError: libhccl.so: cannot open shared object file: No such file or directory
>>> torch.npu.set_device(0)
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
AttributeError: module 'torch' has no attribute 'npu'
"""

SCRIPT_ATTRIBUTE_THEN_DEVICE_ERROR = """\
Traceback (most recent call last):
  File "/srv/app/warmup.py", line 8, in <module>
    engine = fastmt.Engien("model_dir/")
AttributeError: module 'fastmt' has no attribute 'Engien'
Traceback (most recent call last):
  File "/srv/app/serve.py", line 30, in <module>
    engine.run(batch)
RuntimeError: CANN failed with error 100024
"""


def _first_cause(text: str) -> str:
    items = list(classify_scans([scan_text("session.txt", text)], KNOWLEDGE))
    top = max(item.tier for item in items)
    return next(item for item in items if item.tier == top).event.text


def test_a_mistyped_name_at_the_prompt_yields_to_the_sessions_later_exception() -> None:
    """The prompt printed the slip and took the next statement: the later exception is the
    failure (docs/labelling.md, "A slip at the interactive prompt")."""
    assert "CANN failed with error 100024" in _first_cause(PROMPT_SLIP_THEN_DEVICE_ERROR)


def test_an_import_that_failed_at_the_prompt_stays_ahead_of_what_it_left_unbound() -> None:
    assert "ImportError: libhccl.so" in _first_cause(PROMPT_IMPORT_THEN_MISSING_NAME)


def test_a_scripts_attribute_error_is_no_prompt_slip() -> None:
    items = list(
        classify_scans([scan_text("job.log", SCRIPT_ATTRIBUTE_THEN_DEVICE_ERROR)], KNOWLEDGE)
    )
    slip = next(item for item in items if "Engien" in item.event.text)
    assert not slip.recovered


_DCP_FRAMES = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/filesystem.py", line 929, in read_metadata
    with self.fs.create_stream(path, "rb") as metadata_file:
  File "/usr/lib/python3.11/pathlib.py", line 1044, in open
    return io.open(self, mode, buffering, encoding, errors, newline)
"""

LOGGED_FALLBACK_THEN_FAILURE = (
    "2026-12-05 15:41:22,832 [rank0] INFO load weights passed\n"
    "2026-12-05 15:41:31,855 [rank0] INFO loading checkpoint from /ckpt/step_2000\n"
    "2026-12-05 15:41:31,891 [rank0] WARNING Global metadata is not found. Falling back to "
    "rank local metadata.\n"
    + _DCP_FRAMES
    + "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/step_2000/.metadata'\n"
    "[rank0]: Traceback (most recent call last):\n"
    '[rank0]:   File "/srv/infer.py", line 144, in load\n'
    "[rank0]:     dcp.load(sd, checkpoint_id=path)\n"
    "[rank0]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException "
    "ranks:dict_keys([0, 1])\n"
    "[rank0]: Traceback (most recent call last): (RANK 0)\n"
    '[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/'
    'state_dict_loader.py", line 265, in local_step\n'
    '[rank0]:     raise AssertionError("; ".join(error_parts))\n'
    "[rank0]: AssertionError: metadata is None; global metadata read failed: [Errno 2] No such "
    "file or directory: '/ckpt/step_2000/.metadata'\n"
)

WARNING_THEN_UNCAUGHT_CRASH = (
    "2026-12-05 15:41:31,891 [rank0] WARNING tokenizer has no pad token, using eos\n"
    + _DCP_FRAMES
    + "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/step_2000/.metadata'\n"
)


def test_an_exception_logged_under_a_warning_yields_when_the_program_raised_again() -> None:
    """`logger.warning(..., exc_info=True)` logged a caught exception and the loader went on
    (docs/labelling.md, "A checkpoint file that is not there"): the later exception is the
    failure."""
    assert "metadata is None" in _first_cause(LOGGED_FALLBACK_THEN_FAILURE)
    items = list(classify_scans([scan_text("log_0.log", LOGGED_FALLBACK_THEN_FAILURE)], KNOWLEDGE))
    caught = next(item for item in items if item.event.text.startswith("FileNotFoundError"))
    assert caught.recovered


def test_a_traceback_under_a_warning_that_nothing_follows_keeps_its_weight() -> None:
    """An uncaught crash can land right under any record: alone in its file it is the error."""
    items = list(classify_scans([scan_text("log_0.log", WARNING_THEN_UNCAUGHT_CRASH)], KNOWLEDGE))
    crash = next(item for item in items if item.event.text.startswith("FileNotFoundError"))
    assert not crash.recovered


WARNING_THEN_CHAINED_CRASH = (
    WARNING_THEN_UNCAUGHT_CRASH
    + "\nDuring handling of the above exception, another exception occurred:\n\n"
    + "Traceback (most recent call last):\n"
    + '  File "/srv/infer.py", line 150, in load\n'
    + "    raise RuntimeError('no checkpoint to resume from')\n"
    + "RuntimeError: no checkpoint to resume from\n"
)


def test_an_exception_under_a_warning_that_a_chained_one_follows_keeps_its_weight() -> None:
    """The chained exception belongs to the first, printed in one uncaught crash: no sign the
    program went on."""
    items = list(classify_scans([scan_text("log_0.log", WARNING_THEN_CHAINED_CRASH)], KNOWLEDGE))
    crash = next(item for item in items if item.event.text.startswith("FileNotFoundError"))
    assert not crash.recovered
