"""One rank's checkpoints from several files: the best file is the base, and another adds
only the occurrences the base lacks, where they belong."""

from __future__ import annotations

from array import array

from analyzers.core.checkpoint_timeline import RankSequence
from analyzers.timeline.rank_merge import RankPart, merged

NAN = float("nan")


def _seq(texts: list[int], file_id: int, times: list[float] | None = None) -> RankSequence:
    return RankSequence(
        text=array("I", texts),
        file=array("I", [file_id] * len(texts)),
        line=array("Q", range(1, len(texts) + 1)),
        time=array("d", times or [NAN] * len(texts)),
    )


def test_a_copy_of_the_same_lines_adds_nothing_and_the_rank_log_is_cited():
    own = RankPart(0, "job/rank1.log", _seq([0, 1, 2], file_id=0))
    launcher = RankPart(2, "job/launcher.log", _seq([0, 1, 2], file_id=1))
    result = merged([launcher, own])
    assert list(result.text) == [0, 1, 2]
    assert list(result.file) == [0, 0, 0]


def test_a_checkpoint_only_the_other_file_has_goes_before_the_next_one_both_share():
    own = RankPart(0, "job/rank1.log", _seq([0, 2], file_id=0))
    launcher = RankPart(2, "job/launcher.log", _seq([0, 1, 2, 3], file_id=1))
    result = merged([own, launcher])
    assert list(result.text) == [0, 1, 2, 3]
    assert list(result.file) == [0, 1, 0, 1]


def test_with_a_time_on_every_line_time_decides_the_order():
    own = RankPart(0, "job/rank1.log", _seq([0, 2], file_id=0, times=[10.0, 30.0]))
    stderr = RankPart(1, "job/rank1.err", _seq([5], file_id=1, times=[20.0]))
    assert list(merged([own, stderr]).text) == [0, 5, 2]


def test_rotated_segments_are_joined_oldest_first():
    older = RankPart(1, "job/log_1.log.1", _seq([0, 1], file_id=0))
    live = RankPart(1, "job/log_1.log", _seq([0, 1], file_id=1))
    result = merged([live, older])
    assert list(result.text) == [0, 1, 0, 1]
    assert list(result.file) == [0, 0, 1, 1]
