"""A plog's call-stack frames are not failures; the line beside them that says what failed is.

HCCL prints the frames of an exception it caught at ERROR level, in the same plog as the
lines that say what went wrong (`server get socket fail` when communicator setup got no
connection from the ranks). A frame names a library and an address, never a failure, so it is
never the first error and its library path says nothing about the machine.
Counterexample: a gdb backtrace's innermost frame of a crash is still read as the crash
(docs/labelling.md#native-only-crashes).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

FRAMES_AROUND_SETUP_FAILURE = """\
[ERROR] HCCL(40512,python3):2026-07-14-09:22:31.410.201 [rank_info_detect_service.cc:88][40733]/lib/aarch64-linux-gnu/libc.so.6(+0x7f2c8) [0xffff9a3cf2c8]
[ERROR] HCCL(40512,python3):2026-07-14-09:22:31.410.203 [rank_info_detect_service.cc:88][40733]/lib/aarch64-linux-gnu/libc.so.6(+0xe5dcc) [0xffff9a435dcc]
[ERROR] HCCL(40512,python3):2026-07-14-09:22:31.410.207 [rank_info_detect_service.cc:88][40733][RankInfoDetectService::GetConnections] server get socket fail
[ERROR] HCCL(40512,python3):2026-07-14-09:22:31.410.219 [rank_info_detect_service.cc:114][40733][RankInfoDetectService::GetConnections] no rank connection success.
[ERROR] HCCL(40512,python3):2026-07-14-09:22:31.410.655 [rank_info_detect.cc:199][40733][SetupRankInfoDetectService]Failed, exception caught:Internal exception: no rank connection success
[ERROR] HCCL(40512,python3):2026-07-14-09:22:31.410.660 [rank_info_detect.cc:199][40733]/opt/cann/lib64/libhcomm.so(_ZN4Hccl9SomeClass3RunEv+0x58) [0xffff71b20a58]
"""

GDB_CRASH = """\
Program terminated with signal SIGSEGV, Segmentation fault.
#0  0x0000ffff8a2c1f40 in rtStreamSynchronize () from /usr/local/Ascend/ascend-toolkit/latest/lib64/libruntime.so
#1  0x0000ffff8b1e0a10 in aclrtSynchronizeStream () from /usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so
"""


def test_frames_around_the_failure_are_not_its_first_error() -> None:
    diagnosis = diagnose_text("plog/plog-40512_20260714092231410.log", FRAMES_AROUND_SETUP_FAILURE)
    assert_reads(diagnosis, "hccl", first_error="server get socket fail")


def test_frames_alone_are_no_failure() -> None:
    frames = "".join(
        line + "\n" for line in FRAMES_AROUND_SETUP_FAILURE.splitlines() if "(+0x" in line
    )
    diagnosis = diagnose_text("plog/plog-40512_20260714092231410.log", frames)
    assert diagnosis.first_error is None


def test_a_crash_frame_from_gdb_is_still_the_crash() -> None:
    diagnosis = diagnose_text("core/gdb_bt.txt", GDB_CRASH)
    assert diagnosis.category == "device_fault"
