"""Which signatures read a line and what each match names (its ranks, operator and codes);
a line repeated through the bundle is read once and every copy keeps its place."""

from __future__ import annotations

from analyzers.classify.events import classify_scans
from analyzers.classify.line_matches import match_line
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import classify_event
from tests.analyzers.excerpts import scan_text
from tests.analyzers.one_line import event

KNOWLEDGE = load_knowledge()


def test_specific_text_beats_the_generic_error_manager_line() -> None:
    line = (
        "EZ9999[PID: 57621] 2026-07-10-14:37:28.138.485 (EZ9999):  HCCL_BUFFSIZE is too SMALL, "
        "maxBs = 914, h = 2048, epWorldSize = 2"
    )
    item = classify_event(event(line), 0, KNOWLEDGE)
    ids = [m.id for m in item.matches]
    assert ids[0] == "hccl.buffsize_too_small"
    assert "tail.cann_block_line" in ids


def test_monitored_barrier_line_names_the_ranks_that_did_not_arrive() -> None:
    line = "[Rank 0]: Ranks 1, 3 failed to pass monitoredBarrier in 30000 ms"
    item = classify_event(event(line), 0, KNOWLEDGE)
    assert item.best is not None
    assert item.best.culprits == (1, 3)


def test_operator_comes_from_the_aclnn_call() -> None:
    line = "aclnnQuantMatmulWeightNz failed, error code is 161002"
    item = classify_event(event(line), 0, KNOWLEDGE)
    assert item.operator == "aclnnQuantMatmulWeightNz"
    assert [info.code for info in item.codes] == ["161002"]


def test_a_launcher_line_listing_ranks_with_ranges_names_each_rank() -> None:
    line = "srun: error: gpu-node-4: tasks 8-11,13: Killed"
    (match, *_) = match_line(line, (), KNOWLEDGE)
    assert match.id == "dev.srun_task_sigkill"
    assert match.culprits == (8, 9, 10, 11, 13)


def test_a_range_wider_than_any_job_is_read_as_its_first_number() -> None:
    (match, *_) = match_line("srun: error: n1: tasks 2-999999: Killed", (), KNOWLEDGE)
    assert match.culprits == (2,)


def test_a_line_repeated_through_the_bundle_is_read_once() -> None:
    """A CANN device query printed at every step on every device is one reading: the second
    copy of the line gets the first copy's matches, the very same tuple."""
    from analyzers.classify.line_matches import LineReadings

    read = LineReadings(KNOWLEDGE)
    line = "halGetDeviceInfo: device 7 info type 9 not supported, use default"
    first = read(line, ())
    assert read(line, ()) is first
    assert first == match_line(line, (), KNOWLEDGE)


def test_the_same_words_with_other_codes_are_read_again() -> None:
    """The codes a line carries take part in its reading (a code's own category may decide
    it), so the same words with another code are not the first line's reading."""
    from analyzers.classify.line_matches import LineReadings

    read = LineReadings(KNOWLEDGE)
    line = "RuntimeError: npuSynchronizeDevice: NPU function error: aclrtSynchronizeDevice"
    plain = read(line, ())
    coded = read(line, ("507015",))
    assert plain == match_line(line, (), KNOWLEDGE)
    assert coded == match_line(line, ("507015",), KNOWLEDGE)
    assert read(line, ("507015",)) is coded


def test_the_copies_of_a_repeated_line_keep_their_own_places() -> None:
    """Read once, a line every rank printed still makes one item per copy, each with its own
    line and rank, and the matches it would have had read alone."""
    text = "\n".join(
        f"2026-01-02 10:00:0{rank} WARNING [rank{rank}] NCCL watchdog: Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE) ran for 600000 "
        "milliseconds before timing out."
        for rank in range(4)
    )
    items = classify_scans([scan_text("job/rank_0/train.log", text)], KNOWLEDGE)
    assert [(item.event.line, item.rank) for item in items] == [(1, 0), (2, 1), (3, 2), (4, 3)]
    alone = [classify_event(item.event, 0, KNOWLEDGE).matches for item in items]
    assert [item.matches for item in items] == alone
    assert {match.signature.id for item in items for match in item.matches} == {
        "hccl.watchdog_timeout"
    }
