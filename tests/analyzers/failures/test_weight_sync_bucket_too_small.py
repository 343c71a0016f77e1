"""A weight-sync bucket that is smaller than one of the model's tensors.

docs/labelling.md#a-zero-bucket-smaller-than-one-parameter: an RL trainer that hands updated
weights to its rollout engine packs them into buckets of a size its options set, and refuses a
tensor that alone is larger than one bucket (a wide vocabulary's embedding in fp32). Nothing
failed on a device or a link: the option and the model do not fit, so the label is `config`
and the refusal is the first error, also when a document wraps the sentence over indented
lines. A line that only states the bucket size in use is no failure.

The fixtures are written in the shape of a trainer's stderr, with our own names and sizes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

ONE_LINE = (
    "ValueError: Weight lm_head.weight(128256, 4096) fp32 = 2.10GB is too large for the 1024 MB"
    " bucket. Please increase rollout.update_weights_bucket_megabytes\n"
)

WRAPPED = """\
Weight model.embed_tokens.weight(102400, 7168) fp32 = 2.94GB
  is too large for the 512 MB bucket.
  Please increase rollout.update_weights_bucket_megabytes
"""


def test_a_tensor_larger_than_the_bucket_is_the_setting() -> None:
    diagnosis = diagnose_text("train.log", ONE_LINE)
    assert_reads(diagnosis, "config", first_error="is too large for the 1024 MB bucket")


def test_the_sentence_wrapped_over_indented_lines_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("train.log", WRAPPED)
    assert_reads(diagnosis, "config", first_error="is too large for the 512 MB bucket")


def test_a_line_that_states_the_bucket_size_is_no_failure() -> None:
    text = (
        "INFO rollout.checkpoint_engine.update_weights_bucket_megabytes=4096 (bucket of 4096 MB)\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None
