"""An ACL runtime code written after the word ACL alone, and HCCL's notice that it runs a
collective another way.

docs/labelling.md#an-acl-code-named-after-the-word-acl: notes and pasted summaries name the
runtime's answer by the interface and the number alone (`ACL 507018`, `ACL error 507033`),
without the call or the `error code is` that torch_npu prints. The number is the same runtime
code and is read from the code table like the full line; the short line is the first error when
no fuller line says the same.

docs/labelling.md#a-notice-that-hccl-runs-a-collective-another-way: torch_npu warns once that
HCCL has no gather (or scatter) of its own and that the call is run with another collective
(`HCCL doesn't support gather at the moment. Implemented with allgather instead.`). Every
distributed checkpoint save prints it, healthy runs too: it is no failure and never the first
error.

The fixtures are written in the shape of a training run's console, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SAVE_ABORTED = """\
iteration 50/50 | consumed samples: 400 | loss: 1.502210E+00
/opt/venv/lib/python3.11/site-packages/torch_npu/distributed/distributed_c10d.py:212: UserWarning: HCCL doesn't support gather at the moment. Implemented with allgather instead.
ACL 507018
SIGABRT
ChildFailedError
"""


def test_the_short_code_is_read_from_the_table() -> None:
    diagnosis = diagnose_text("train.log", SAVE_ABORTED)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="ACL 507018", rule="rt.acl_code_named_short"
    )


def test_the_word_error_between_reads_the_same() -> None:
    diagnosis = diagnose_text("notes.log", "ACL error 207001\n")
    assert_reads(diagnosis, "oom", first_error="ACL error 207001")


def test_a_number_that_is_no_acl_code_is_not_read() -> None:
    diagnosis = diagnose_text("notes.log", "ACL 5070189 entries cached\n")
    assert "rt.acl_code_named_short" not in {e.rule for e in diagnosis.evidence}


def test_the_gather_notice_is_no_failure() -> None:
    text = (
        "UserWarning: HCCL doesn't support gather at the moment. Implemented with allgather instead.\n"
        "iteration 3/3 | loss: 1.80\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None


def test_a_refusal_of_gather_that_stops_the_job_is_still_read() -> None:
    text = "RuntimeError: HCCL does not support gather with tensors on different devices\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is not None
