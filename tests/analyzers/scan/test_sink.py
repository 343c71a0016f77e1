"""`ScanSink.lookback`: the lines above one line of the current block, and across the
boundary with the block before it, whatever order the parsers ask in."""

from __future__ import annotations

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.formats.hints import HeadHints
from analyzers.formats.lines import parse_line
from analyzers.scan.sink import ScanSink


def _sink_on(block: bytes, first_line: int) -> ScanSink:
    sink = ScanSink(FileInfo("job/log_0.log", FileKind.RANK_LOG, 0), HeadHints(None))
    sink.block, sink.block_first_line = block, first_line
    return sink


BLOCK = b"".join(f"line {n}\n".encode() for n in range(10, 20))  # lines 10..19


def test_lookback_gives_the_lines_just_above_in_file_order() -> None:
    sink = _sink_on(BLOCK, 10)
    assert sink.lookback(14, 3) == [(11, "line 11"), (12, "line 12"), (13, "line 13")]


def test_lookback_answers_the_same_when_asked_out_of_order() -> None:
    sink = _sink_on(BLOCK, 10)
    later, earlier, again = sink.lookback(18, 2), sink.lookback(12, 2), sink.lookback(18, 2)
    assert later == again == [(16, "line 16"), (17, "line 17")]
    assert earlier == [(10, "line 10"), (11, "line 11")]


def test_a_new_block_is_read_from_its_own_start() -> None:
    sink = _sink_on(BLOCK, 10)
    sink.lookback(19, 1)
    sink.keep_tail(BLOCK, 19)
    sink.block, sink.block_first_line = b"line 20\nline 21\nline 22\n", 20
    assert sink.lookback(22, 4) == [
        (18, "line 18"),
        (19, "line 19"),
        (20, "line 20"),
        (21, "line 21"),
    ]


def test_the_pieces_read_before_come_first_on_a_line_cut_into_pieces() -> None:
    sink = _sink_on(BLOCK, 10)
    sink.pieces_line, sink.pieces_read = 14, [b"piece a", b"piece b"]
    assert sink.lookback(14, 3) == [(13, "line 13"), (14, "piece a"), (14, "piece b")]
    assert sink.lookback(14, 1) == [(14, "piece b")]
    # another line of the block is read from the file alone
    assert sink.lookback(12, 2) == [(10, "line 10"), (11, "line 11")]


class _CuttingSink(ScanSink):
    """A sink whose lines holding `|` were several lines that a paste joined."""

    def split_pieces(self, raw: bytes) -> list[bytes]:
        return [piece.strip() for piece in raw.split(b"|")]


def test_a_line_above_that_holds_several_gives_its_pieces_nearest_last() -> None:
    sink = _CuttingSink(FileInfo("job/log_0.log", FileKind.RANK_LOG, 0), HeadHints(None))
    sink.block, sink.block_first_line = b"line 10\nframe a | frame b | assert x\nline 12\n", 10
    assert sink.lookback(12, 2) == [(11, "frame b"), (11, "assert x")]
    assert sink.lookback(12, 4) == [
        (10, "line 10"),
        (11, "frame a"),
        (11, "frame b"),
        (11, "assert x"),
    ]
    # the plain sink reads each physical line whole
    plain = _sink_on(sink.block, 10)
    assert plain.lookback(12, 1) == [(11, "frame a | frame b | assert x")]


def test_a_last_line_without_a_line_end_keeps_the_lines_above_it_in_the_tail() -> None:
    # iter_blocks hands a file's unterminated last line over as a block of its own; the lines
    # before it must stay in the tail the end-of-file readers look at
    sink = _sink_on(BLOCK, 10)
    sink.keep_tail(BLOCK, 19)
    sink.keep_tail(b"line 20 cut mid\n", 20)
    assert [n for n, _ in sink.previous_tail] == list(range(13, 21))
    assert sink.previous_tail[-1] == (20, b"line 20 cut mid")


def test_a_block_that_does_not_follow_the_tail_replaces_it() -> None:
    sink = _sink_on(BLOCK, 10)
    sink.keep_tail(BLOCK, 19)
    sink.keep_tail(b"line 40\n", 40)
    assert sink.previous_tail == [(40, b"line 40")]


def test_a_made_event_is_neither_kept_nor_counted() -> None:
    """The scan makes events of a quiet file's last lines to keep aside (`scan.quiet_tail`):
    they must not count against the file's caps nor join its events."""
    sink = _sink_on(BLOCK, 10)
    made = sink.make_event(19, parse_line("npu is busy, check again"), EventKind.ERROR, "tail")
    assert (made.line, made.message, made.source, made.rank) == (
        19,
        "npu is busy, check again",
        "tail",
        0,
    )
    assert sink.events == []
    assert sink.kept[EventKind.ERROR] == 0
