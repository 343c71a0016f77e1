"""A tuple unpacked into another number of names than it holds is a plain code bug.

Python refuses the assignment and says how many names it expected (`too many values to
unpack (expected 3)`, `not enough values to unpack (expected 2, got 1)`): a function returns a
tuple of another length than its caller unpacks, most often because the two were written
against different releases of one interface. No taxonomy row names a code bug: `other`, with
`config` beside it, and the line is the first error, ahead of the HTTP status an
OpenAI-compatible server answers with when the exception reaches it
(docs/labelling.md#a-local-variable-read-before-any-branch-set-it). Values of our own in the
real formats.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SERVER_ANSWER = """\
INFO:     127.0.0.1:51230 - "POST /v1/audio/speech HTTP/1.1" 500 Internal Server Error
{"error":{"message":"too many values to unpack (expected 4)","type":"InternalServerError","param":null,"code":500}}
"""


def test_an_error_answer_carrying_an_unpacking_error_reads_the_unpacking_error() -> None:
    diagnosis = diagnose_text("client.log", SERVER_ANSWER)
    assert_reads(
        diagnosis,
        "other",
        first_error="too many values to unpack (expected 4)",
        rule="cfg.python_unpack_count_mismatch",
        beside=("config",),
    )


WORKER_TRACEBACK = """\
[2026-02-11 09:30:12 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/engine/models/talker.py", line 212, in forward
    hidden, codes = self.predictor(inputs)
    ^^^^^^^^^^^^^
ValueError: not enough values to unpack (expected 2, got 1)
"""


def test_a_traceback_ending_in_too_few_values_is_the_same_bug() -> None:
    diagnosis = diagnose_text("server.log", WORKER_TRACEBACK)
    assert_reads(
        diagnosis,
        "other",
        first_error="not enough values to unpack (expected 2, got 1)",
        rule="cfg.python_unpack_count_mismatch",
        beside=("config",),
    )


def test_unpacking_none_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text(
        "server.log", "TypeError: cannot unpack non-iterable NoneType object\n"
    )
    assert "cfg.python_unpack_count_mismatch" not in rules_of(diagnosis)


def test_a_comment_about_unpacking_is_no_failure() -> None:
    text = "# the predictor returns three values to unpack (expected by the talker)\n"
    diagnosis = diagnose_text("server.log", text)
    assert "cfg.python_unpack_count_mismatch" not in rules_of(diagnosis)
