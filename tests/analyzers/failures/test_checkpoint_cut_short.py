"""A checkpoint file cut short, as torch.load's own readers answer it without naming the
archive: the zip reader's seek past the end of a small truncated file (`OSError: [Errno 22]
Invalid argument` under `PyTorchFileReader`), and the unpickler of the legacy path meeting an
empty file (a bare `EOFError` from torch's weights-only unpickler, `EOFError: Ran out of input`
from pickle). docs/labelling.md#a-checkpoint-file-that-is-not-there

The tracebacks are torch 2.13's own for files we cut; paths and ranks are ours. The errno and
the EOF name no file, so the frames decide: the same words under any other call keep their
readings.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

RULE = "wl.checkpoint_archive_cut_short"

CLOSED = (
    "[rank{rank}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:553] Connection closed by peer [127.0.0.1]:45211. This is typically caused by a "
    "remote worker crashing. Check the logs of the remote worker before reporting an error. "
    "GLHF!\n"
)

ZIP_READER_EINVAL = """\
2026-12-06 08:19:53,101 [rank3] INFO resuming from ckpt/step_40
[rank3]: Traceback (most recent call last):
[rank3]:   File "/home/mlops/dp-train/train.py", line 163, in load_resume
[rank3]:     state = torch.load(path, map_location="cpu")
[rank3]:             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 1568, in load
[rank3]:     with _open_zipfile_reader(opened_file) as opened_zipfile:
[rank3]:          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 807, in __init__
[rank3]:     super().__init__(torch._C.PyTorchFileReader(name_or_buffer))
[rank3]:                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank3]: OSError: [Errno 22] Invalid argument
"""

WEIGHTS_ONLY_EOF = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/ft/resume.py", line 41, in load_optimizer
[rank1]:     state = torch.load(f"{ckpt}/optim_rank{rank}.pt", map_location="cpu")
[rank1]:   File "/srv/ft/.venv/lib/python3.11/site-packages/torch/serialization.py", line 1626, in load
[rank1]:     return _legacy_load(
[rank1]:            ^^^^^^^^^^^^^
[rank1]:   File "/srv/ft/.venv/lib/python3.11/site-packages/torch/serialization.py", line 1886, in _legacy_load
[rank1]:     magic_number = pickle_module.load(f, **pickle_load_args)
[rank1]:                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank1]:   File "/srv/ft/.venv/lib/python3.11/site-packages/torch/_weights_only_unpickler.py", line 590, in load
[rank1]:     return Unpickler(file, encoding=encoding).load()
[rank1]:            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank1]:   File "/srv/ft/.venv/lib/python3.11/site-packages/torch/_weights_only_unpickler.py", line 327, in load
[rank1]:     raise EOFError
[rank1]: EOFError
"""

PICKLE_RAN_OUT = """\
Traceback (most recent call last):
  File "/work/seg/eval.py", line 77, in <module>
    ckpt = torch.load(args.ckpt, map_location="cpu", weights_only=False)
  File "/usr/local/lib/python3.10/dist-packages/torch/serialization.py", line 1634, in load
    return _legacy_load(
  File "/usr/local/lib/python3.10/dist-packages/torch/serialization.py", line 1886, in _legacy_load
    magic_number = pickle_module.load(f, **pickle_load_args)
EOFError: Ran out of input
"""


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("log_3.log", ZIP_READER_EINVAL, "[Errno 22] Invalid argument"),
        ("log_1.log", WEIGHTS_ONLY_EOF, "EOFError"),
        ("eval.log", PICKLE_RAN_OUT, "EOFError: Ran out of input"),
    ],
)
def test_a_checkpoint_reader_that_runs_off_the_file_is_the_checkpoint(name, text, said) -> None:
    diagnosis = diagnose_text(name, text)
    assert_reads(diagnosis, "weight_load", first_error=said, rule=RULE, beside=("driver_env",))


def test_the_rank_whose_checkpoint_was_cut_is_blamed_and_its_peers_follow() -> None:
    """The held-out resume: rank 3's file was cut to 60%, ranks 0-2 loaded theirs and lost
    rank 3 in the barrier after loading."""
    files = {"job/log_3.log": ZIP_READER_EINVAL}
    for rank in (0, 1, 2):
        files[f"job/log_{rank}.log"] = (
            f"2026-12-06 08:19:53,2{rank}0 [rank{rank}] INFO load weights passed\n"
            + CLOSED.format(rank=rank)
        )
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "weight_load"
    assert RULE in rules_of(diagnosis)
    assert list(diagnosis.culprit_ranks) == [3]
    assert diagnosis.first_error is not None
    assert "[Errno 22] Invalid argument" in diagnosis.first_error.text


OPEN_EINVAL = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/home/u/train.py", line 120, in dump_metrics
[rank0]:     with open(out_path, "w") as f:
[rank0]: OSError: [Errno 22] Invalid argument: 'out/run:7?.json'
"""

PIPE_EOF = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/home/u/serve.py", line 120, in main
[rank2]:     msg = conn.recv()
[rank2]:   File "/usr/lib/python3.11/multiprocessing/connection.py", line 250, in recv
[rank2]:     buf = self._recv_bytes()
[rank2]:   File "/usr/lib/python3.11/multiprocessing/connection.py", line 399, in _recv
[rank2]:     raise EOFError
[rank2]: EOFError
"""

AFFINITY_EINVAL = """\
[rank5]: Traceback (most recent call last):
[rank5]:   File "/srv/train/launch_worker.py", line 31, in <module>
[rank5]:     os.sched_setaffinity(0, {local_rank})
[rank5]: OSError: [Errno 22] Invalid argument
"""


@pytest.mark.parametrize(
    "text",
    [
        OPEN_EINVAL,
        PIPE_EOF,
        AFFINITY_EINVAL,
        # the errno alone, with no traceback to say which call refused
        "2026-12-06 08:19:53,101 [rank3] ERROR training failed: [Errno 22] Invalid argument\n",
        "OSError: [Errno 22] Invalid argument\n",
    ],
)
def test_the_same_words_under_another_call_are_not_a_checkpoint(text: str) -> None:
    diagnosis = diagnose_text("log_0.log", text)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category != "weight_load", diagnosis.root_cause
