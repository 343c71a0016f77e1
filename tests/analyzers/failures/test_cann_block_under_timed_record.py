"""A CANN error-manager block printed under a timed plog record, beside a later timed failure.

docs/labelling.md#first-causal-error: the first causal error is the earliest by
time across files. torch_npu's plog record of an aclnn call that failed (`[PTA]:"Custom hand
error:call aclnnX failed, detail:... AclNN_Runtime_Error(EZ9903) ...`) carries the time; the
error-manager block under it (`Solution:`, `TraceBack (most recent call last):` and the
indented trace naming the device-side vector-core exception) has none of its own. Written at
once with the record, the trace took the record's time and goes before a synchronize that
another plog file reports seconds later. An earlier reading put the untimed trace after every
timed line of the other file and answered the later synchronize; a held-out plog pasted in two
parts showed it. When the record is later than the other file's failure, the other failure
stays first; an untimed trace with no timed record above it keeps its place after timed lines.

Fixtures follow the plog line format; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files

RECORD = (
    "[ERROR] APP(2204117,):2026-04-11-08:15:{s}.310.118 2204190 ExecFunc:OpParamMaker.cpp:359: "
    '"[PTA]:"Custom hand error:call aclnnGroupedMatmulV4 failed, detail:[PID: 2204117] '
    "2026-04-11-08:15:{s}.309.902 AclNN_Runtime_Error(EZ9903): Assert "
    "((NnopbaseExecutorLaunchKernel(executor, stream, numBlocks)) == 0) failed\n"
)
BLOCK = (
    "        Solution: In this scenario, collect the plog when the fault occurs and locate the "
    "fault based on the plog.\n"
    "        TraceBack (most recent call last):\n"
    "        The error from device(chipId:2, dieId:0), serial number is 418, there is an "
    'exception of fftsplus aivector error, core id is 17, error code = 0, dump info: ""\n'
)
QUEUE = (
    "[ERROR] APP(2204117,):2026-04-11-08:15:{s}.311.540 2204117 MakeSureQueueEmpty:NPUQueue.cpp:341: "
    '"[PTA]:"Inner error happened, detail: the current working operator name is '
    'aclnnGroupedMatmulV4""\n'
)
SYNC = (
    "[ERROR] RUNTIME(2204117,):2026-04-11-08:15:{s}.602.775 [api_c_device.cc:245]2204117 "
    "rtDeviceSynchronizeWithTimeout:ErrCode=507015, desc=[aicore exception], "
    "InnerCode=0x7150026\n"
    "[ERROR] ASCENDCL(2204117,):2026-04-11-08:15:{s}.604.013 [device.cpp:198]2204117 "
    "aclrtSynchronizeDeviceWithTimeoutImpl:wait for compute device to finish failed, "
    "runtime result = 507015.\n"
)


def _plog(at: str) -> str:
    return RECORD.format(s=at) + BLOCK + QUEUE.format(s=at)


def test_the_trace_under_a_timed_record_goes_before_a_later_synchronize_elsewhere() -> None:
    diagnosis = diagnose_files(
        {
            "plog/plog-2204117_20260411081500000.log": _plog("21"),
            "plog/plog-2204117_20260411081530000.log": SYNC.format(s="24"),
        }
    )
    assert_reads(diagnosis, "aicore_timeout", first_error="fftsplus aivector error")


def test_a_record_later_than_the_other_files_failure_leaves_that_failure_first() -> None:
    diagnosis = diagnose_files(
        {
            "plog/plog-2204117_20260411081500000.log": _plog("44"),
            "plog/plog-2204117_20260411081530000.log": SYNC.format(s="24"),
        }
    )
    assert diagnosis.first_error is not None
    assert "rtDeviceSynchronizeWithTimeout:ErrCode=507015" in diagnosis.first_error.text


def test_a_trace_with_no_timed_record_above_it_stays_after_timed_lines() -> None:
    diagnosis = diagnose_files(
        {
            "plog/plog-2204117_20260411081500000.log": BLOCK,
            "plog/plog-2204117_20260411081530000.log": SYNC.format(s="24"),
        }
    )
    assert diagnosis.first_error is not None
    assert "rtDeviceSynchronizeWithTimeout:ErrCode=507015" in diagnosis.first_error.text
