"""Reports of Ascend C's sanitizer (msSanitizer) on an operator's kernel.

docs/labelling.md#a-kernel-access-a-memory-checker-reports: the memory check's report of an
access outside a tensor's buffer is the fault the core would raise without the tool
(`aicore_timeout`, with `operator` beside it); the race check's report of pipes that touch one
address unordered is the kernel's own code (`operator`). Values of our own in the real format.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

INVALID_WRITE = """\
====== ERROR: illegal write of size 512
======    at 0x200 on UB in softmax_custom
======    in block aiv(0-15) on device 1
"""


def test_an_access_outside_a_buffer_is_the_cores_fault_with_the_op_beside_it() -> None:
    diagnosis = diagnose_text("mssanitizer_stdout.txt", INVALID_WRITE)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="illegal write of size 512", beside=("operator",)
    )


PIPE_RACE = """\
====== ERROR: Potential WAR hazard detected at UB in matmul_custom on device 1:
======    PIPE_V Read at WAR()+0x200 in block 3 (aiv) on device 1 at pc current 0x88 (serialNo:12)
======    PIPE_MTE2 Write at WAR()+0x200 in block 3 (aiv) on device 1 at pc current 0x140 (serialNo:15)
"""


def test_pipes_that_touch_one_address_unordered_are_the_kernels_code() -> None:
    diagnosis = diagnose_text("mssanitizer_stdout.txt", PIPE_RACE)
    assert_reads(diagnosis, "operator", first_error="Potential WAR hazard detected")


LEAK = """\
====== ERROR: LeakCheck: detected memory leaks
======    Direct leak of 128 byte(s)
======      at 0x12c0c0020000 on GM
"""


def test_a_leak_report_is_no_invalid_access() -> None:
    diagnosis = diagnose_text("mssanitizer_stdout.txt", LEAK)
    assert "aicore.sanitizer_invalid_access" not in rules_of(diagnosis)
    assert diagnosis.category != "aicore_timeout"
