"""A hang read behind a stop from outside: the stop stands only when the ranks were still
advancing, or when nothing singles out who stalled."""

from __future__ import annotations

from analyzers.causal.chain import CausalChain
from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.types import Correlation
from analyzers.report.outside_stops import only_outside_stops, stall_before_stop
from tests.analyzers.classified import line, signature

TIME_LIMIT = signature("slurm.time_limit", "hang", outside_stop=True)
OOM = signature("npu.oom", "oom")


def test_a_chain_of_scheduler_stops_alone_is_a_stop_from_outside():
    stop, other = line(TIME_LIMIT, rank=0), line(TIME_LIMIT, rank=1)
    assert only_outside_stops(CausalChain(first=stop, top=[stop, other]))


def test_a_stop_beside_a_ranks_own_failure_is_not_only_a_stop():
    stop, oom = line(TIME_LIMIT, rank=0), line(OOM, rank=1)
    assert not only_outside_stops(CausalChain(first=stop, top=[stop, oom]))


def test_a_ranks_own_failure_reads_as_no_stall_behind_a_stop():
    oom = line(OOM, rank=0)
    correlation = Correlation(ranks=[], timeline=Timeline(), world_size=None)

    assert stall_before_stop(CausalChain(first=oom, top=[oom]), correlation, []) is None
