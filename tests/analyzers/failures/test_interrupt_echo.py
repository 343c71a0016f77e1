"""A terminal's echo of Ctrl-C, glued to the traceback header of the interrupt.

A paste cut before `KeyboardInterrupt` keeps only `^CTraceback (most recent call last):` and
some frames; the echo is the interrupt's record (`hang`), ahead of the cut frames.
docs/labelling.md#a-job-stopped-from-outside
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of

STUCK_INDEXER = """\
[Mar 02, 11:04:51] [0] 		 #> Saving the indexing plan to /data/exp/indexes/docs.2bits/plan.json ..



^CTraceback (most recent call last):
  File "tools/build_index.py", line 40, in <module>
    run()
  File "/data/src/indexer/core.py", line 91, in index
    self._launch(docs)
"""


def test_an_echoed_interrupt_is_the_record_ahead_of_the_cut_frames() -> None:
    diagnosis = diagnose_text("index.log", STUCK_INDEXER)
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("^CTraceback")
    assert "hang.interrupted" in rules_of(diagnosis)


def test_a_plain_traceback_header_is_no_interrupt() -> None:
    text = STUCK_INDEXER.replace("^CTraceback", "Traceback")
    diagnosis = diagnose_text("index.log", text)
    assert diagnosis.category != "hang"
    assert "hang.interrupted" not in rules_of(diagnosis)
