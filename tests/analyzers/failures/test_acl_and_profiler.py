"""Two formats that print their own error lines instead of a CANN block.

An application on the ACL C/C++ API logs '<what> failed, errorCode = <number>' and the number
decides the label. The torch_npu profiler logs '[<time>] [ERROR] [<pid>] profiler.py: ...'
and torch_npu adds an 'ERR04xxx PROF ...' summary; a rejected profiler setting is a
configuration problem. Fixtures are written here in those shapes with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

APP_REINIT = """\
runtime/backends/om/om_backend.cc(181)::InitResource\tacl init failed, errorCode = 100002
runtime/backends/om/om_backend.cc(60)::Init\texecute InitResource failed, errorCode = 0
[ERROR] runtime/runtime.cc(412)::CreateOMBackend\tFailed to initialize om backend.
"""

PROFILER_BAD_PATH = """\
[2026-03-09 07:15:39] [WARNING] [5120] profiler.py: Invalid parameter export_type: None, reset it to text.
[2026-03-09 07:15:40] [WARNING] [5120] profiler.py: Incorrect schedule: Stop profiler while current state is RECORD.
[2026-03-09 07:15:40] [ERROR] [5120] profiler.py: Call export_chrome_trace failed. Exception: Invalid parameter path, which must be a json file.
[ERROR] 2026-03-09-07:15:40 (PID:5120, Device:1, RankID:1) ERR04003 PROF invalid value
[rank1]: Traceback (most recent call last):
"""


def test_acl_app_error_code_takes_its_label_from_the_code():
    diagnosis = diagnose_text("infer.log", APP_REINIT)
    assert_reads(diagnosis, "config", first_error="acl init failed, errorCode = 100002")


def test_acl_app_error_code_zero_is_not_an_error_code():
    diagnosis = diagnose_text("infer.log", APP_REINIT)
    assert "errorCode = 0" not in diagnosis.first_error.text


def test_profiler_error_line_is_read_before_its_summary():
    diagnosis = diagnose_text("server.log", PROFILER_BAD_PATH)
    assert_reads(diagnosis, "config", first_error="export_chrome_trace failed")
    assert "ERR04003" in diagnosis.error_codes


def test_profiler_warnings_alone_are_not_a_failure():
    warnings_only = "\n".join(PROFILER_BAD_PATH.splitlines()[:2]) + "\n"
    diagnosis = diagnose_text("server.log", warnings_only)
    assert diagnosis.category != "config"
