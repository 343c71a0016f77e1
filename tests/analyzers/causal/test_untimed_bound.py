"""An untimed rank's own failure placed by a peer's timed report of a lost connection."""

from __future__ import annotations

from analyzers.causal.first_error import find_first_error
from analyzers.causal.untimed_bound import untimed_bounds
from tests.analyzers.causal.timed_items import CLOSED, item

CAT = (
    "[rank3] ERROR forward failed: RuntimeError: Sizes of tensors must match except in "
    "dimension 1. Expected size 8 but got size 7 for tensor number 1 in the list."
)
MATMUL = (
    "2026-12-04 18:13:41,458 [rank0] ERROR forward failed: RuntimeError: mat1 and mat2 shapes "
    "cannot be multiplied (8x32 and 8x32)"
)


def test_a_peer_losing_its_connection_before_every_timed_failure_places_the_untimed_one() -> None:
    # rank 3 prints without times; ranks 1 and 2 lose a peer at 0 s and 1 s, rank 0's own
    # error comes 5 s later: only rank 3 can have been gone by then
    untimed = item(CAT, rank=3, order=3)
    timed = item(MATMUL, rank=0, order=0, seconds=5)
    lost = [item(CLOSED, rank=1, order=1, seconds=1), item(CLOSED, rank=2, order=2, seconds=0)]
    chain = find_first_error([timed, *lost, untimed])
    assert chain.first is untimed
    assert untimed_bounds([timed, *lost, untimed], {}) == {3: lost[1].event.timestamp.timestamp()}


def test_a_timed_failure_near_the_loss_keeps_its_place() -> None:
    # counterexample: rank 0's error within the clocks' tolerance of the loss may be the
    # failure the peer lost, so the untimed line stays after it
    untimed = item(CAT, rank=3, order=3)
    timed = item(MATMUL, rank=0, order=0, seconds=0.8)
    lost = item(CLOSED, rank=2, order=2, seconds=0)
    assert find_first_error([timed, lost, untimed]).first is timed


def test_a_loss_the_untimed_rank_itself_reports_bounds_nothing() -> None:
    # counterexample: the untimed rank's own lost peer says nothing about when it failed
    untimed = item(CAT, rank=3, order=3)
    timed = item(MATMUL, rank=0, order=0, seconds=5)
    own_loss = item(CLOSED, rank=3, order=4, seconds=0)
    assert untimed_bounds([timed, own_loss, untimed], {}) == {}
    assert find_first_error([timed, own_loss, untimed]).first is timed


def test_without_a_lost_peer_untimed_lines_still_come_after_timed_ones() -> None:
    untimed = item(CAT, rank=3, order=3)
    timed = item(MATMUL, rank=0, order=0, seconds=5)
    assert find_first_error([untimed, timed]).first is timed


def test_an_untimed_traceback_line_in_a_timed_file_is_not_bounded() -> None:
    # counterexample: torch's `[rank2]: RuntimeError` copy has no time, but its file does
    logged = item(MATMUL, rank=2, order=3, line=10, seconds=5)
    copy = item(
        "[rank2]: RuntimeError: mat1 and mat2 shapes cannot be multiplied", rank=2, order=3, line=30
    )
    lost = item(CLOSED, rank=1, order=1, seconds=0)
    assert untimed_bounds([logged, copy, lost], {}) == {}


ABORT = (
    "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:456] op.preamble.length <= op.nbytes. 32 vs 16. Received data size doesn't match "
    "expected size. Is there a distributed collective mismatch in your code?"
)
LATE_WAIT = (
    "2026-12-04 18:13:51,020 [rank2] ERROR model run failed: [/__w/pytorch/pytorch/third_party/"
    "gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 10000ms for recv operation "
    "to complete"
)


def test_an_untimed_abort_on_a_peers_message_is_placed_by_the_peers_that_lost_it() -> None:
    # rank 6 aborts on gloo's size check (C++ stderr, no time); ranks 5 and 7 lose it at 0 s,
    # rank 2, which entered its receive as the job fell apart, times out 10 s later
    abort = item(ABORT, rank=6, order=6)
    lost = [item(CLOSED, rank=5, order=5, seconds=0), item(CLOSED, rank=7, order=7, seconds=0.01)]
    late = item(LATE_WAIT, rank=2, order=2, seconds=10)
    assert find_first_error([late, *lost, abort]).first is abort


def test_a_wait_that_ran_out_before_any_peer_was_lost_stays_ahead_of_the_abort() -> None:
    # counterexample: the timeout came 5 s before anyone lost a peer: the abort can be later
    abort = item(ABORT, rank=6, order=6)
    lost = item(CLOSED, rank=5, order=5, seconds=15)
    late = item(LATE_WAIT, rank=2, order=2, seconds=10)
    assert find_first_error([late, lost, abort]).first is late
