"""Ranks that build their process groups in another order than the others.

Guide: docs/labelling.md#groups-built-in-another-order. torch names a group by how many groups
the rank made before it, so a rank that calls `new_group` for its own pair first ends up in a
group of another name than its partners: some ranks hang inside `new_group` and say nothing,
others time out in the next collective. The silent ranks are not at fault; the rank whose
`creating group [...]` lines come in another order is.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher, group_members
from tests.analyzers.job_bundles import pack

TIMEOUT = (
    "[rank{rank}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "unbound_buffer.cc:78] Timed out waiting 8000ms for recv operation to complete"
)
STORE_GONE = (
    "[rank{rank}]: torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection "
    "was likely closed. Did the remote server shutdown or crash?"
)


def _rank(rank: int, groups: list[str], end: str | None) -> str:
    lines = [f"init process group: backend=gloo rank={rank} world_size=4 timeout=8s"]
    lines += [f"creating group {g}" for g in groups]
    if end is not None:
        lines += [f"[rank{rank}]: Traceback (most recent call last):", end.format(rank=rank)]
    return "\n".join(lines) + "\n"


def _blamed(tmp_path: Path, files: dict[str, str]) -> list[int]:
    path = tmp_path / "job.tar.gz"
    pack(path, files)
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    assert report["diagnosis"]["category"] == "hccl"
    return report["diagnosis"]["culprit_ranks"]


def test_a_group_line_names_its_ranks_and_is_no_checkpoint():
    matcher = CheckpointMatcher()
    text = matcher.match("2026-03-02 10:11:12,345 [rank2] INFO creating group [2, 3]")
    assert text is not None
    assert group_members(text) == (2, 3)
    assert matcher.match("rank 2 is part of the group [2, 3]") is None


def test_the_rank_that_built_its_pair_first_is_blamed_not_the_silent_one(tmp_path: Path):
    pairs = ["[0, 1]", "[2, 3]"]
    files = {
        "job-3/log_0.log": _rank(0, pairs, TIMEOUT),
        "job-3/log_1.log": _rank(1, pairs[:1], None),  # hangs in its first new_group
        "job-3/log_2.log": _rank(2, pairs, STORE_GONE),
        "job-3/log_3.log": _rank(3, pairs[::-1], TIMEOUT),
    }
    assert _blamed(tmp_path, files) == [3]


def test_ranks_that_agree_on_the_order_leave_the_blame_to_the_rank_comparison(tmp_path: Path):
    """Counterexample: every rank built the same groups in the same order; the group lines say
    nothing and the silent rank stays the one the others waited for."""
    pairs = ["[0, 1]", "[2, 3]"]
    files = {
        "job-3/log_0.log": _rank(0, pairs, TIMEOUT),
        "job-3/log_1.log": _rank(1, pairs, None),
        "job-3/log_2.log": _rank(2, pairs, TIMEOUT),
        "job-3/log_3.log": _rank(3, pairs, TIMEOUT),
    }
    assert _blamed(tmp_path, files) == [1]


def test_an_even_split_of_orders_names_no_one_by_it(tmp_path: Path):
    """Counterexample: two ranks one way, two the other: no majority order to leave."""
    pairs = ["[0, 1]", "[2, 3]"]
    files = {
        "job-3/log_0.log": _rank(0, pairs, TIMEOUT),
        "job-3/log_1.log": _rank(1, pairs, TIMEOUT),
        "job-3/log_2.log": _rank(2, pairs[::-1], TIMEOUT),
        "job-3/log_3.log": _rank(3, pairs[::-1], TIMEOUT),
    }
    assert _blamed(tmp_path, files) != [2, 3]
