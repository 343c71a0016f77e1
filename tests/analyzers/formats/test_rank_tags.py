"""Torch's `[rankN]:` tag at a line's start names the rank that wrote the line; a console the
ranks share holds several (`formats.rank_tags`). Example: `[rank1]:W1205 ... Some parameters
are unused`. Counterexamples: a tag inside a line, a logging tag without the colon."""

from __future__ import annotations

import io

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import FileInfo, FileKind
from analyzers.formats.blockfilter import FOLD
from analyzers.formats.hints import HINT_BYTES
from analyzers.formats.rank_tags import LITERAL, RankTags
from analyzers.scan import member as scan_module
from analyzers.scan.member import scan_file

UNSETTLED: tuple[tuple[bytes, ...], set[bytes]] = ((), set())
WARNING = b"W1205 10:40:09.512000 4421 torch/distributed/distributed_c10d.py:2889] Some unused\n"
CHATTER = b"[rank0]:I1205 10:40:10.000000 4420 train.py:41] step 12 loss 1.25\n"

CASES = [
    ("shared console", b"[rank1]:" + WARNING + b"[rank0]: Traceback (most\n", {0, 1}),
    ("tag inside a line", b"[rank0]: waiting for [rank2]: to join\n", {0}),
    ("letters in either case", b"x\n[Rank2]:" + WARNING + b"[RANK3]: bad\n", {2, 3}),
    ("logging tag without a colon", b"2026-12-05 10:40:09,512 [rank3] INFO step 1\n", set()),
    ("tag behind an indent", b"  [rank3]: Traceback (most\n", set()),
    ("leading zeros", b"[rank03]: bad\n[rank3]: bad\n", {3}),
]


def _read(tags: RankTags, block: bytes, settled=UNSETTLED) -> RankTags:
    tags.read(block, block.translate(FOLD), settled)
    return tags


@pytest.mark.parametrize(
    ("block", "ranks"), [case[1:] for case in CASES], ids=[c[0] for c in CASES]
)
def test_the_ranks_tagged_at_a_lines_start(block: bytes, ranks: set[int]) -> None:
    assert _read(RankTags(), block).ranks == ranks


def test_the_ranks_of_every_block_are_gathered() -> None:
    tags = _read(_read(RankTags(), b"[rank1]: a\n"), b"x\n[rank4]: b\n")
    facts: dict[str, object] = {}
    tags.store(facts)
    assert facts["tagged_ranks"] == [1, 4]


def test_one_ranks_tags_are_no_shared_console() -> None:
    facts: dict[str, object] = {}
    _read(RankTags(), b"[rank3]: a\n[rank3]: b\n").store(facts)
    assert "tagged_ranks" not in facts


def test_a_block_the_union_found_lacking_the_tag_is_not_searched() -> None:
    lacking = ((LITERAL,), set())
    assert _read(RankTags(), b"x\n[rank5]: y\n", lacking).ranks == set()


def test_a_block_the_union_found_lacking_is_still_read_at_its_first_line() -> None:
    lacking = ((LITERAL,), set())
    assert _read(RankTags(), b"[rank5]: y\n", lacking).ranks == {5}


def test_the_union_settles_the_tag_only_after_a_block_without_one() -> None:
    tags = RankTags()
    assert tags.signs() == (LITERAL,)
    assert _read(tags, b"[rank1]: a\n").signs() == ()
    assert _read(tags, b"no tag here\n").signs() == (LITERAL,)


def _scan(data: bytes, path: str = "job/console.log", rank: int | None = None):
    info = FileInfo(path, FileKind.RANK_LOG, rank, size_bytes=len(data))
    return scan_file(io.BytesIO(data), info, CheckpointMatcher(()))


def test_a_ranks_only_tagged_line_far_past_the_head_counts() -> None:
    chatter = CHATTER * (4 * HINT_BYTES // len(CHATTER))
    scan = _scan(b"[rank1]:" + WARNING + chatter + b"[rank2]:" + WARNING)
    assert scan.facts["tagged_ranks"] == [0, 1, 2]


def test_a_tag_on_a_blocks_first_line_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    # blocks of four chatter lines: the eleventh block opens with rank 2's line
    monkeypatch.setattr(scan_module._FileScanner, "block_size", 4 * len(CHATTER))
    chatter = CHATTER * 40
    scan = _scan(chatter + b"[rank2]:" + WARNING + chatter + b"[rank3]:" + WARNING)
    assert scan.facts["tagged_ranks"] == [0, 2, 3]


def test_a_tag_inside_a_line_past_the_head_names_no_rank() -> None:
    chatter = CHATTER * (4 * HINT_BYTES // len(CHATTER))
    scan = _scan(b"[rank1]:" + WARNING + chatter + b"[rank0]: waiting for [rank3]: to join\n")
    assert scan.facts["tagged_ranks"] == [0, 1]


def test_a_file_whose_path_names_its_rank_is_not_read_for_tags() -> None:
    scan = _scan(b"[rank1]:" + WARNING + CHATTER, path="job/rank_0.log", rank=0)
    assert "tagged_ranks" not in scan.facts
