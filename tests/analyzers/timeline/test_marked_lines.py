"""A file's wait, send, step start and group lines leave a rank's checkpoints for the
timeline's own fields; its progress lines stay."""

from __future__ import annotations

from analyzers.checkpoints.track import CheckpointTrack
from analyzers.core.checkpoint_timeline import Opening, Timeline
from analyzers.timeline.marked_lines import MarkedLines, plain_checkpoints


def _track(*texts: str) -> CheckpointTrack:
    track = CheckpointTrack()
    for line, text in enumerate(texts, 1):
        track.add(track.text_id(text), line, float("nan"), None)
    return track


def _plain(*texts: str) -> tuple[list[str] | None, Timeline]:
    track = _track(*texts)
    timeline = Timeline()
    picked = plain_checkpoints(timeline, 1, range(len(track)), MarkedLines.of(track), 0)
    kept = None if picked is None else [track.texts[track.text[i]] for i in picked]
    return kept, timeline


def test_progress_lines_alone_are_all_kept():
    kept, timeline = _plain("norm passed", "layer 0 passed")
    assert kept == ["norm passed", "layer 0 passed"]
    assert timeline.waits == {}


def test_a_wait_printed_last_is_the_peer_the_rank_still_waits_for():
    kept, timeline = _plain("layer 0 passed", "layer 1 / waiting for rank 0")
    assert kept == ["layer 0 passed"]
    assert timeline.waits == {1: 0}


def test_an_exchange_names_the_peer_it_sends_to_beside_its_wait():
    _, timeline = _plain("layer 0 passed", "recv kv from rank 0, send kv to rank 2")
    assert (timeline.waits, timeline.sends) == ({1: 0}, {1: 2})


def test_a_hand_off_sent_after_the_last_checkpoint_is_the_ranks_last_send():
    kept, timeline = _plain("layer 0 passed", "send hidden to rank 2")
    assert kept == ["layer 0 passed"]
    assert timeline.lone_sends == {1: 2}
    assert timeline.waits == {}


def test_a_step_start_marks_the_checkpoint_after_it_with_its_step():
    kept, timeline = _plain("step 3 start", "norm passed", "layer 0 passed")
    assert kept == ["norm passed", "layer 0 passed"]
    assert timeline.step_opens == {(0, 2): Opening(step=3)}


def test_group_lines_become_the_ranks_groups_and_leave_nothing_else():
    kept, timeline = _plain("creating group [0, 1]", "creating group [2, 3]")
    assert kept is None
    assert timeline.groups == {1: [(0, 1), (2, 3)]}


def test_only_marked_texts_are_dropped_from_the_timelines_texts():
    track = _track("norm passed", "waiting for rank 0", "step 1 start", "send hidden to rank 2")
    marked = MarkedLines.of(track)
    assert [marked.dropped(i) for i in range(len(track.texts))] == [False, True, True, True]
