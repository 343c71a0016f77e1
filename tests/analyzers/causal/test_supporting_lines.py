"""The lines cited beside the first error: its block's wrappers and summaries, one
consequence per file, and the rank a block's other lines name when its headline names none."""

from __future__ import annotations

from analyzers.causal.first_error import find_first_error
from tests.analyzers.causal.timed_items import CLOSED, item


def test_wrapper_and_summary_lines_support_the_specific_error_of_their_block() -> None:
    wrapper = item(
        "RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:565 NPU function"
        " error: AclrtSynchronizeDeviceWithTimeout, error code is 507015",
        rank=0,
        order=0,
        line=6,
    )
    summary = item(
        "[ERROR] 2026-10-22-12:47:24 (PID:8308179, Device:0, RankID:-1) ERR00100 PTA call acl api "
        "failed",
        rank=0,
        order=0,
        line=7,
    )
    device = item(
        "EZ9999: [PID: 8308179] 2026-10-22-12:47:24.466.609 The error from device(chipId:7, "
        "dieId:0), serial number is 575, there is an exception of fftsplus aivector error",
        rank=0,
        order=0,
        line=11,
    )
    chain = find_first_error([wrapper, summary, device])
    assert chain.first is device
    assert chain.supporting == [wrapper]
    assert summary in chain.nearby


def test_consequences_are_cited_one_per_file() -> None:
    items = [
        item("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)", rank=3,
             order=3),
        item(CLOSED, rank=0, order=0, line=40),
        item(CLOSED, rank=0, order=0, line=41),
        item(CLOSED, rank=1, order=1, line=40),
    ]  # fmt: skip
    chain = find_first_error(items)
    assert chain.culprit_ranks == [3]
    assert [(c.rank, c.event.line) for c in chain.cascades] == [(0, 40), (1, 40)]


def test_error_block_without_a_rank_takes_the_rank_its_other_lines_name() -> None:
    headline = item(
        "EE1002: 2024-12-11-13:03:41.366.560 Stream synchronize timeout. rtDeviceSynchronize "
        "execute failed, reason=[stream sync timeout]",
        rank=None,
        order=0,
        line=5,
    )
    summary = item(
        "[ERROR] 2024-12-11-13:03:41 (PID:6226122, Device:2, RankID:2) ERR00100 PTA call acl api "
        "failed",
        rank=2,
        order=0,
        line=2,
    )
    chain = find_first_error([summary, headline])
    assert chain.first is headline
    assert headline.rank == 2
    assert chain.consequence_ranks == []
