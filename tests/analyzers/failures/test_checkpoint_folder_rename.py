"""A checkpoint save that cannot rename its staging folder onto, or remove, a folder that is not
empty: several processes doing the same housekeeping on one shared file system, or a folder left
by an earlier run. docs/labelling.md#config-driver_env-or-weight_load. Values are ours.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

STAGED_SAVE_RENAMED_TWICE = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/opt/conda/lib/python3.11/site-packages/transformers/trainer.py", line 3201, in _save_checkpoint
[rank3]:     os.renames(output_dir, checkpoint_dir)
[rank3]:   File "/opt/conda/lib/python3.11/os.py", line 272, in renames
[rank3]:     rename(old, new)
[rank3]: OSError: [Errno 39] Directory not empty: '/shared/out/tmp-checkpoint-q7w2e9' -> '/shared/out/checkpoint-300'

[rank3]: During handling of the above exception, another exception occurred:

[rank3]: Traceback (most recent call last):
[rank3]:   File "/work/train_sft.py", line 77, in <module>
[rank3]:     trainer.train()
"""

ROTATION_REMOVED_A_SAVE_IN_USE = """\
Traceback (most recent call last):
  File "/work/train.py", line 140, in rotate
    shutil.rmtree(oldest)
  File "/usr/lib/python3.10/shutil.py", line 731, in rmtree
    onerror(os.rmdir, path, sys.exc_info())
OSError: [Errno 39] Directory not empty: '/shared/out/checkpoint-100'
"""


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (STAGED_SAVE_RENAMED_TWICE, "-> '/shared/out/checkpoint-300'"),
        (ROTATION_REMOVED_A_SAVE_IN_USE, "Directory not empty: '/shared/out/checkpoint-100'"),
    ],
)
def test_a_folder_that_is_not_empty_is_the_jobs_save_setting(text: str, first: str) -> None:
    diagnosis = diagnose_text("log_3.log", text)
    assert_reads(diagnosis, "config", first_error=first)
    assert {"other", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence >= 0.5


def test_a_shells_rmdir_refusal_is_not_a_save_failure() -> None:
    """Counterexample: a clean-up script's rmdir names no errno; the real failure decides."""
    text = (
        "rmdir: failed to remove 'build': Directory not empty\n"
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB\n"
    )
    diagnosis = diagnose_text("log_0.log", text)
    assert diagnosis.category == "oom"
