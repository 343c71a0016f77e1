"""A memory checker's report read as one event (analyzers/formats/memory_checker.py).

Fixtures are written in compute-sanitizer's shape (every line under its `=========` prefix, the
report's details indented further, host frames after them); kernels, addresses and sizes are
made up.
"""

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file


def scan(text: str):
    return scan_file(io.BytesIO(text.encode()), FileInfo("memcheck.log", FileKind.RANK_LOG, None))


def errors(text: str):
    return [event for event in scan(text).events if event.kind == EventKind.ERROR]


REPORT = """\
========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 8 bytes
=========     at scatter_rows_kernel(float*, long const*, int)+0x3f0
=========     by thread (31,0,0) in block (12,0,0)
=========     Address 0x7f0a3c2001f8 is out of bounds
=========     Saved host backtrace up to driver entry point at kernel launch time
=========     Host Frame: [0x2f1a83]
=========                in /lib/x86_64-linux-gnu/libcuda.so.1
"""

TWO_REPORTS = """\
========= Invalid __global__ read of size 4 bytes
=========     at gather_kernel(float*)+0x80
=========     by thread (0,0,0) in block (0,0,0)
=========
========= Invalid __global__ read of size 4 bytes
=========     at gather_kernel(float*)+0x80
=========     by thread (1,0,0) in block (0,0,0)
"""


def test_the_kernel_and_the_reason_are_read_with_the_report():
    found = errors(REPORT)
    assert len(found) == 1
    assert found[0].line == 2
    assert found[0].text.strip() == "========= Invalid __global__ write of size 8 bytes"
    assert "at scatter_rows_kernel(float*, long const*, int)+0x3f0" in found[0].message
    assert "is out of bounds" in found[0].message
    # the launch's host frames say where it was launched from, not what failed
    assert "Host Frame" not in found[0].message


def test_each_report_is_an_event_of_its_own():
    found = errors(TWO_REPORTS)
    assert [event.line for event in found] == [1, 5]
    assert "by thread (1,0,0)" in found[1].message


def test_the_checker_banner_alone_is_no_report():
    assert not errors("========= COMPUTE-SANITIZER\nstep 10 loss 2.113\n")


def test_a_note_naming_such_a_report_takes_no_details():
    # words about a report, not under the checker's prefix: the line below is not its kernel
    text = (
        "note: an Invalid __global__ read of size 4 bytes would be reported here\n"
        "=========     at unrelated_kernel(int*)+0x10\n"
    )
    assert all("unrelated_kernel" not in event.message for event in errors(text))
