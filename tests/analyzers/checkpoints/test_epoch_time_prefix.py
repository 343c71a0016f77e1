"""Checkpoint lines stamped with seconds since the epoch (a logging formatter that prints
`record.created` as it is, as some hosts of a job are set up to): the stamp is a prefix like
any wall-clock time, and the rank's timeline is read past it."""

from __future__ import annotations

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import pack


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("1796607942.272666 [rank3] INFO layer 0 passed", "layer 0 passed"),
        ("1796607942.242315 [rank3] INFO   norm passed", "norm passed"),
        ("1796607942.210566 [rank2] INFO load weights passed", "load weights passed"),
        ("[1796607942.330359] INFO layer 1 passed", "layer 1 passed"),
        ("1796607942 INFO model run success", "model run success"),
        # a number that is no time of this century, or a count before the words, stays
        ("42 layer 1 passed", None),
        ("1796607942.241619 [rank3] INFO prefill start: 8 tokens", None),
    ],
)
def test_an_epoch_seconds_stamp_is_cut_before_the_checkpoint(line, expected):
    assert CheckpointMatcher().match(line) == expected


ISO_RANK = """\
2026-12-07T01:45:41.571408 INFO [rank0] init process group: backend=gloo rank=0 world_size=2 master=127.0.0.1:30133
2026-12-07T01:45:42.116621 INFO [rank0] building toy decoder: layers=4 hidden=32 experts=8 tp=2
2026-12-07T01:45:42.158770 INFO [rank0] load weights passed
2026-12-07T01:45:42.158881 INFO [rank0] waiting for all ranks to finish loading weights
2026-12-07T01:45:42.229406 INFO [rank0] prefill start: 8 tokens
2026-12-07T01:45:42.230161 INFO [rank0]   norm passed
2026-12-07T01:45:42.252117 INFO [rank0]   attention passed
2026-12-07T01:45:42.267903 INFO [rank0]   MoE passed
2026-12-07T01:45:42.268113 INFO [rank0] layer 0 passed
2026-12-07T01:45:42.268397 INFO [rank0]   norm passed
2026-12-07T01:45:42.290664 INFO [rank0]   attention passed
2026-12-07T01:45:42.328888 INFO [rank0]   MoE passed
2026-12-07T01:45:42.329000 INFO [rank0] layer 1 passed
2026-12-07T01:45:42.329183 INFO [rank0]   norm passed
2026-12-07T01:45:42.353154 INFO [rank0]   attention passed
2026-12-07T01:45:47.487189 ERROR [rank0] model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:11405. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
"""

EPOCH_RANK = """\
1796607941.424997 [rank1] INFO init process group: backend=gloo rank=1 world_size=2 master=127.0.0.1:30133
1796607942.125339 [rank1] INFO building toy decoder: layers=4 hidden=32 experts=8 tp=2
1796607942.178665 [rank1] INFO load weights passed
1796607942.178771 [rank1] INFO waiting for all ranks to finish loading weights
1796607942.217933 [rank1] INFO prefill start: 8 tokens
1796607942.218823 [rank1] INFO   norm passed
1796607942.260349 [rank1] INFO   attention passed
1796607942.274733 [rank1] INFO   MoE passed
1796607942.274898 [rank1] INFO layer 0 passed
1796607942.275109 [rank1] INFO   norm passed
1796607942.285755 [rank1] INFO   attention passed
1796607942.326372 [rank1] INFO   MoE passed
1796607942.326510 [rank1] INFO layer 1 passed
1796607942.326756 [rank1] INFO   norm passed
1796607942.357086 [rank1] INFO   attention passed
1796607948.357836 [rank1] ERROR model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:39320. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
"""


def test_a_rank_that_logs_epoch_seconds_has_its_timeline(tmp_path):
    bundle = pack(
        tmp_path / "job.tar.gz",
        {"log_0.log": ISO_RANK, "log_1.log": EPOCH_RANK, "env.txt": "WORLD_SIZE=2\n"},
        "job-5e1f",
    )
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    last = {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}
    assert last == {0: "layer 2 / attention passed", 1: "layer 2 / attention passed"}
    common = report["correlation"]["last_common_checkpoint_qualified"]
    assert common == "layer 2 / attention passed"
