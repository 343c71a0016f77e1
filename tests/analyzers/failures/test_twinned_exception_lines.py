"""An exception two ranks printed at the same moment on one shared console.

docs/labelling.md reads a failure by its exception line; when two ranks of a launch without
separate streams fail alike, their tracebacks interleave and the last line holds the type
twice, `: ` twice and the message twice. The line is read as the exception it is, so the
reading (and the first error) is the one a single rank's line would give.

The fixture follows the shape of a two-GPU fine-tuning console with wording of our own: a
script that asks the DDP wrapper for an attribute of the module it wraps.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

TWO_RANKS_ONE_CONSOLE = """\
Traceback (most recent call last):
  File "/srv/tune/train_style.py", line 88, in <module>
Traceback (most recent call last):
  File "/srv/tune/train_style.py", line 88, in <module>
    trainer.run(cfg)
  File "/srv/tune/trainer.py", line 301, in run
    trainer.run(cfg)
  File "/srv/tune/trainer.py", line 301, in run
    encoder.embeddings.requires_grad_(False)
    encoder.embeddings.requires_grad_(False)

AttributeErrorAttributeError: : 'DistributedDataParallel' object has no attribute 'embeddings''DistributedDataParallel' object has no attribute 'embeddings'
"""


def test_an_exception_two_ranks_printed_at_once_is_read_as_that_exception() -> None:
    diagnosis = diagnose_text("console.log", TWO_RANKS_ONE_CONSOLE)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == (
        "AttributeError: 'DistributedDataParallel' object has no attribute 'embeddings'"
    )
