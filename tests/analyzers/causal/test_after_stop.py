"""Lines against the job's stop record: what came after it is what the stop did to the ranks,
what came before it is what the stop interrupted (docs/labelling.md, "A job stopped from
outside").

The stop here is an elastic agent's `Received Signals.SIGTERM death signal` record in the
launcher's console (file order 0); each rank's own log is a file of its own.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from analyzers.causal.after_stop import demote_cascades_after_stop, placed_before_stop
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CASCADE
from tests.analyzers.classified import line, signature

STOP_RULE = signature("other.agent_stopped", "other", role="cascade", outside_stop=True)
LOST_PEER = signature("hccl.peer_closed", "hccl", role="cascade")
T0 = datetime(2026, 12, 7, 9, 0, 0)


def placed(item: Classified, *, order: int, at: int, second: float | None = None) -> Classified:
    """`item` as line `at` of the file at `order`, timed `second`s after T0 (None: untimed)."""
    when = None if second is None else T0.replace(second=int(second))
    event = replace(item.event, line=at, timestamp=when)
    return replace(item, event=event, order=order)


def stop(second: float | None = 10) -> Classified:
    record = line(STOP_RULE, TIER_CASCADE - 1, text="Received Signals.SIGTERM death signal")
    return placed(record, order=0, at=40, second=second)


def lost_peer(rank: int, *, second: float | None, order: int | None = None) -> Classified:
    item = line(LOST_PEER, TIER_CASCADE, rank=rank, text="Connection closed by peer")
    return placed(item, order=rank + 1 if order is None else order, at=12, second=second)


def test_a_lost_peer_timed_after_the_stop_is_demoted_below_it() -> None:
    record, late = stop(), lost_peer(1, second=14)

    demote_cascades_after_stop([record, late], {})

    assert late.demoted
    assert late.tier < record.tier


def test_a_lost_peer_timed_before_the_stop_keeps_its_place() -> None:
    record, early = stop(), lost_peer(1, second=3)

    demote_cascades_after_stop([record, early], {})

    assert not early.demoted
    assert early.tier == TIER_CASCADE


def test_a_rank_clock_offset_is_taken_off_before_comparing() -> None:
    # rank 1's clock runs 8 s ahead: its 14 s is the stop's 6 s, so the loss came first
    record, early = stop(), lost_peer(1, second=14)

    demote_cascades_after_stop([record, early], {1: 8.0})

    assert not early.demoted


def test_in_the_stops_own_file_order_decides_for_untimed_lines() -> None:
    record = stop(second=None)
    after = placed(lost_peer(2, second=None), order=0, at=41)
    before = placed(lost_peer(3, second=None), order=0, at=39)

    demote_cascades_after_stop([record, after, before], {})

    assert after.demoted
    assert not before.demoted


def test_without_a_stop_record_nothing_moves() -> None:
    late = lost_peer(1, second=14)

    demote_cascades_after_stop([late], {})

    assert not late.demoted
    assert placed_before_stop([late], {}) == set()


def test_the_lines_placed_before_the_stop_are_named_by_id() -> None:
    record = stop()
    early, late = lost_peer(1, second=3), lost_peer(2, second=20)

    assert placed_before_stop([record, early, late], {}) == {id(early)}


def test_an_untimed_rank_line_is_placed_by_the_launchers_copy_of_it() -> None:
    # torchrun `--tee`: the console holds a `[default1]:` copy of the rank's own line
    record = stop(second=None)
    own = lost_peer(1, second=None)
    copy_before = placed(lost_peer(1, second=None), order=0, at=30)

    assert id(own) in placed_before_stop([record, own, copy_before], {})
    assert id(own) not in placed_before_stop([record, own], {})
