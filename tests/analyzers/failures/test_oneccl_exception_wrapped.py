"""A oneCCL exception whose reason was printed on the line below its `EXCEPTION:`.

docs/labelling.md#operator-installation-or-platform-limit: oneCCL raises its failures as
`oneCCL: <file>.cpp:<line> <function>: EXCEPTION: <what>`. Quoted from a log or a note, the
text after `EXCEPTION:` is sometimes on the next line, indented under it. The two lines are one
message and are read together: a reduction the path does not offer is still `config` with the
collective layer beside it. Fixtures follow oneCCL's format with line numbers and paths of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

AVERAGE_REFUSED_WRAPPED = """\
[2026-03-11 10:02:41] step 0: backward
oneCCL: coll_param.cpp:452 validate: EXCEPTION:
   average operation is not supported for the scheduler path
"""

# Counterexample: the exception's text on its own line; a Level Zero call it names keeps the
# collective library's reading.
LEVEL_ZERO_WRAPPED = """\
oneCCL: ze_call.cpp:29 do_call: EXCEPTION:
   ze error at zeMemOpenIpcHandle, code: ZE_RESULT_ERROR_INVALID_ARGUMENT
"""


def test_the_reason_below_the_exception_is_read_with_it() -> None:
    diagnosis = diagnose_text("logs/trainer.log", AVERAGE_REFUSED_WRAPPED)
    assert_reads(
        diagnosis, "config", first_error="average operation is not supported", beside=("hccl",)
    )


def test_a_wrapped_level_zero_call_stays_the_collective_library() -> None:
    diagnosis = diagnose_text("logs/trainer.log", LEVEL_ZERO_WRAPPED)
    assert_reads(diagnosis, "hccl", first_error="zeMemOpenIpcHandle")
