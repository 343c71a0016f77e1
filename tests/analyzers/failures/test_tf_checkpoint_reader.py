"""TensorFlow's checkpoint reader given a prefix that matches no file.

docs/labelling.md#a-checkpoint-file-that-is-not-there: restoring a checkpoint (or reading one
with `tf.train.load_variable`) builds a TensorSliceReader over every file matching the prefix;
when none matches it stops with `Unsuccessful TensorSliceReader constructor: Failed to find any
matching files for <prefix>`. No shard is missing from a save: the job pointed the reader at a
path where nothing is (a wrong prefix, or an object-store path the local file API cannot see):
`config`, with `weight_load` and `driver_env` beside it. A reader that found the files and
failed on their contents is another failure. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NO_MATCH = """\
Traceback (most recent call last):
  File "/home/work/user-job-dir/code/finetune.py", line 88, in <module>
    saver.restore(sess, args.init_ckpt)
tensorflow.python.framework.errors_impl.NotFoundError: Unsuccessful TensorSliceReader constructor: Failed to find any matching files for /cache/pretrained/bert_model.ckpt
"""


def test_a_checkpoint_prefix_that_matches_nothing_is_the_jobs_path() -> None:
    diagnosis = diagnose_text("worker-0.log", NO_MATCH)
    assert_reads(
        diagnosis,
        "config",
        first_error="Failed to find any matching files",
        rule="cfg.tf_checkpoint_prefix_unmatched",
        beside=("weight_load",),
    )


CORRUPT = """\
tensorflow.python.framework.errors_impl.DataLossError: Unable to open table file /cache/pretrained/bert_model.ckpt.data-00000-of-00001: Data loss: not an sstable (bad magic number): perhaps your file is in a different file format and you need to use a different restore operator?
"""


def test_a_reader_that_found_the_files_is_not_the_unmatched_prefix() -> None:
    diagnosis = diagnose_text("worker-0.log", CORRUPT)
    assert "cfg.tf_checkpoint_prefix_unmatched" not in rules_of(diagnosis)
