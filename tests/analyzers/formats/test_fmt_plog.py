"""CANN plog headers whose stamp puts a space between the date and the time.

HCCL's own guide prints plog lines with `2025-10-21 07:56:47.198.454` where the log writes
`2025-10-21-07:56:47.198.454`, and such lines are pasted back as logs. The header is the same
otherwise, so the level, module and pid are read, and the time with them; a rule that wants the
ERROR level then reads the line. Every line logged at ERROR is an error line, a row of the
link table HCCL draws after its thread id too. Values are made up.
"""

from __future__ import annotations

from datetime import datetime

from analyzers.core.types import EventKind
from tests.analyzers.excerpts import assert_reads, diagnose_text, scan_text

SPACED = (
    "[ERROR] HCCL(4410,):2026-02-11 08:15:31.204.117 [topoinfo_ranktableConcise.cc:702]"
    "[4471][InitGroupStage][RanktableCheck]errNo[0x0000000005010001] device_ip[] is invalid\n"
)


def test_a_spaced_stamp_keeps_the_level_and_the_time() -> None:
    scan = scan_text("log/plog/plog-4410.log", SPACED)
    line = scan.events[0]
    assert line.level == "ERROR"
    assert line.timestamp == datetime(2026, 2, 11, 8, 15, 31, 204117)


def test_a_rank_table_check_with_a_spaced_stamp_is_the_settings_refusal() -> None:
    diagnosis = diagnose_text("log/plog/plog-4410.log", SPACED)
    assert_reads(
        diagnosis,
        "config",
        first_error="device_ip[] is invalid",
        rule="cfg.hccl_setup_settings_refused",
        beside=("hccl",),
    )


def test_the_dashed_stamp_still_reads() -> None:
    scan = scan_text("log/plog/plog-4410.log", SPACED.replace("2026-02-11 08", "2026-02-11-08"))
    line = scan.events[0]
    assert line.level == "ERROR"
    assert line.timestamp == datetime(2026, 2, 11, 8, 15, 31, 204117)


LINK_TABLE = "".join(
    f"[ERROR] HCCL(59420,python3):2025-01-24-11:24:07.908.{n:03d} [comm_base.cc:{968 + n}]"
    f"[107626]   {row}\n"
    for n, row in enumerate(
        [
            "|  comm error, device[0] num[1] ",
            "|  dest_ip(rank_id)  |  src_ip(rank_id)   |   Role   |   Status   |   ",
            "|--------------------|--------------------|----------|------------|   ",
            "|  124.0.0.11(1)   |   124.0.0.21(0)   |  server  | no connect |   ",
        ]
    )
)


def test_every_row_of_hccls_link_table_is_an_error_line() -> None:
    scan = scan_text("log/plog/plog-59420.log", LINK_TABLE)
    assert [e.line for e in scan.events if e.kind == EventKind.ERROR] == [1, 2, 3, 4]
