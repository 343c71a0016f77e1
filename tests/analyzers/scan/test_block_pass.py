"""Which lines of a block the scanner reads: whole-block searches, the shared pass over
a folded block, and line numbers across block edges."""

import io

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan import member as scan_module
from analyzers.scan.member import scan_file

MATCHER = CheckpointMatcher()


def scan_text(text: str | bytes, kind=FileKind.RANK_LOG, rank=None, path="log_0.log"):
    data = text.encode() if isinstance(text, str) else text
    return scan_file(io.BytesIO(data), FileInfo(path, kind, rank), MATCHER)


def problems(result):
    return [e for e in result.events if e.kind != EventKind.CHECKPOINT]


def test_structures_across_a_block_boundary(monkeypatch):
    monkeypatch.setattr(scan_module._FileScanner, "block_size", 64)
    text = (
        "some noise line to push the traceback over a block edge\n"
        "Traceback (most recent call last):\n"
        '  File "/app/train.py", line 10, in <module>\n'
        "    main()\n"
        "KeyboardInterrupt\n"
        "AclNN_Parameter_Error(EZ1001):\n"
        "Tensor scale not implemented for DT_FLOAT16,\n"
    )
    result = scan_text(text)
    assert [(e.line, e.source) for e in result.events] == [
        (3, "traceback_frame"),
        (5, "traceback"),
        (7, "cann"),
    ]


def test_a_notable_info_line_is_a_warning():
    text = (
        "(EngineCore_DP0 pid=1) INFO 10-10 09:14:47 [shm_broadcast.py:466] No available shared "
        "memory broadcast block found in 60 second. This typically happens when some processes "
        "are hanging.\n"
    )
    [event] = problems(scan_text(text))
    assert event.kind == EventKind.WARNING


def test_a_code_led_cann_line_without_keywords_is_an_error():
    text = (
        "EZ1001: topK must be less than or equal to expertNum, but topK is 8 and expertNum is 4\n"
    )
    [event] = problems(scan_text(text))
    assert (event.kind, event.codes) == (EventKind.ERROR, ("EZ1001",))


@pytest.mark.parametrize("tail", ["", "[rank0] INFO iter 9 loss=1.2\n" * 40])
def test_blocks_of_checkpoints_and_other_lines_keep_exact_line_numbers(monkeypatch, tail):
    """The checkpoint pass counts a block's lines up to its last checkpoint and the scanner
    the rest: both ways must add up to the file's physical lines."""
    monkeypatch.setattr(scan_module._FileScanner, "block_size", 2048)
    lines = []
    for step in range(300):
        stamp = f"2026-11-29 07:{step // 60:02d}:{step % 60:02d},125"
        lines.append(f"{stamp} [rank0] INFO layer {step % 4} passed")
        lines += [f"{stamp} [rank0] INFO iter {step} loss=2.{step % 10}"] * (step % 3)
    text = "\n".join(lines) + "\n" + tail
    result = scan_text(text, rank=0)
    track = result.facts["checkpoints"]
    assert result.info.lines == text.count("\n")
    expected = [n for n, line in enumerate(text.splitlines(), 1) if line.endswith("passed")]
    assert list(track.line) == expected


def _rank_log_with_every_search_word(blocks: int) -> str:
    """A rank log whose blocks hold, now and then, what the shared pass looks for: a start
    line, a notable phrase, a checkpoint literal the blocks before lacked."""
    lines = []
    for n in range(blocks * 40):
        stamp = f"[default0]:2026-11-29 07:{n // 600 % 60:02d}:{n // 10 % 60:02d},{n % 1000:03d}"
        lines.append(f"{stamp} [rank0] INFO  attention passed")
        lines.append(f"{stamp} [rank0] INFO step {n} micro_batch 0 loss=2.1")
        if n % 97 == 5:
            lines.append(f"{stamp} [rank0] INFO init process group: rank=0 world_size=8")
        if n % 131 == 7:
            lines.append(f"{stamp} [rank0] INFO waiting for rank 3 (too long with no output)")
        if n % 173 == 9:
            lines.append(f"{stamp} [rank0] INFO layer 2 ok; model run success")
    return "\n".join(lines) + "\n"


def _scan_summary(result) -> tuple:
    track = result.facts["checkpoints"]
    entries = [track.entry(index) for index in range(len(track))]
    return result.info.lines, result.events, entries, result.facts.get("start_lines")


def test_the_shared_pass_over_a_block_changes_no_scan(monkeypatch):
    """Checkpoint literals, start lines and relay signs settled in the notable phrases'
    pass: the scan is the one separate searches make."""
    monkeypatch.setattr(scan_module._FileScanner, "block_size", 2048)
    text = _rank_log_with_every_search_word(blocks=30)
    shared = _scan_summary(scan_text(text, rank=0))
    monkeypatch.setattr(
        scan_module.BlockFilter,
        "notable_and_lacking",
        lambda self, low, lacking: (self.notable_candidates(low), ((), set())),
    )
    assert _scan_summary(scan_text(text, rank=0)) == shared
    assert len(shared[2]) > 1200
    assert shared[3]  # start lines were read
