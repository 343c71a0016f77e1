"""formats.native_frames: a log that ends on native frames written at ERROR level, with no
line saying what failed, is read at the first frame printed.

docs/labelling.md#a-communicator-that-could-not-be-created
"""

from __future__ import annotations

from analyzers.formats.lines import parse_line
from analyzers.formats.native_frames import cut_native_frames
from analyzers.formats.severity import load_prefilter
from tests.analyzers.excerpts import assert_reads, diagnose_text

PREFILTER = load_prefilter()
HEAD = "[ERROR] HCCL(30211,):2026-03-04-05:06:07.080.{n:03d} [op_base_v2.cc:1600][30211]"
FRAMES = [
    "/opt/cann/lib64/libhccl_v2.so(_ZN4Hccl20RankInfoDetectClient5SetupERNS_13RankTableInfoE+0x88) [0x7f2a10c0a3b0]",
    "/opt/cann/lib64/libhccl_v2.so(HcclCommInitRootInfoConfigV2+0x21d) [0x7f2a10c3f8dd]",
    "/opt/cann/lib64/libhcomm.so(HcclCommInitRootInfoConfig+0x1a4) [0x7f2a18b49784]",
]


def _plog(frames: list[str], tail: str = "") -> str:
    lines = [HEAD.format(n=n) + frame for n, frame in enumerate(frames, 100)]
    return "\n".join(lines) + ("\n" + tail if tail else "\n")


def _tail(text: str) -> list[tuple[int, object]]:
    return [(n, parse_line(line)) for n, line in enumerate(text.split("\n"), 1) if line]


def test_the_innermost_frame_is_read_and_a_cut_prefix_is_left_out() -> None:
    cut = cut_native_frames(_tail(_plog(FRAMES, "[ERROR] HCCL(30211,):2026-03-04-05:0")), PREFILTER)
    assert cut is not None
    assert cut[0] == 1
    assert "RankInfoDetectClient" in cut[2]


def test_frames_under_a_line_that_says_what_failed_are_not_read_alone() -> None:
    text = "[ERROR] HCCL(30211,):2026-03-04-05:06:07.080.099 [op_base.cc:974][30211] init failed\n"
    assert cut_native_frames(_tail(text + _plog(FRAMES)), PREFILTER) is None


def test_a_single_frame_is_too_little() -> None:
    assert cut_native_frames(_tail(_plog(FRAMES[:1])), PREFILTER) is None


def test_a_plog_of_communicator_creation_frames_is_an_hccl_failure() -> None:
    diagnosis = diagnose_text("plog/plog-30211_20260304050601.log", _plog(FRAMES, "[ERROR"))
    assert_reads(diagnosis, "hccl", first_error="RankInfoDetectClient")
    assert diagnosis.confidence < 0.8


def test_frames_of_a_collective_that_ran_name_no_creation() -> None:
    frames = [
        "/opt/cann/lib64/libhccl_v2.so(_ZN4Hccl17AllReduceOperator8RunAsyncEv+0x120) [0x7f2a10d11200]",
        "/opt/cann/lib64/libhcomm.so(HcclAllReduce+0x2b0) [0x7f2a18b50000]",
    ]
    diagnosis = diagnose_text("plog/plog-30211_20260304050601.log", _plog(frames))
    assert diagnosis.category != "hccl"


class _CountingTail(list):
    """A tail that notes which of its lines a reader asked for."""

    def __init__(self, items: list) -> None:
        super().__init__(items)
        self.asked: set[int] = set()

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        self.asked.add(range(len(self))[index])
        return super().__getitem__(index)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return (self[i] for i in range(len(self)))

    def __reversed__(self):  # type: ignore[no-untyped-def]
        return (self[i] for i in reversed(range(len(self))))


def test_a_tail_ending_on_info_chatter_is_read_no_further_than_its_end() -> None:
    info = "[INFO] RUNTIME(30211,python):2026-03-04-05:06:07.080.{n:03d} [stream.cc:723] launch"
    tail = _CountingTail(_tail(_plog(FRAMES) + "\n".join(info.format(n=n) for n in range(40))))
    assert cut_native_frames(tail, PREFILTER) is None
    assert tail.asked == {len(tail) - 1, len(tail) - 2}


def test_frames_cut_by_the_paste_are_read_from_the_end_alike() -> None:
    tail = _CountingTail(_tail(_plog(FRAMES, "[ERROR] HCCL(30211,):2026-03-04-05:0")))
    cut = cut_native_frames(tail, PREFILTER)
    assert cut is not None
    assert cut[0] == 1
