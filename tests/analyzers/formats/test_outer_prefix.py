"""The collectors' prefixes as raw patterns (`formats.outer_prefix`): a reader that searches a
block's bytes from each line's start puts `OUTER` before its own pattern, and a reader of a
decoded line asks `match_behind`, so both find the same line behind any collector."""

from __future__ import annotations

import re

import pytest

from analyzers.formats.outer_prefix import (
    AGENT_TAG,
    AGENT_TAG_BYTES,
    OUTER,
    PDSH,
    match_behind,
)

# the rank a worker states as it starts, as a head-of-file reader looks for it
STATED_RANK = re.compile(rb"(?m)^" + OUTER + rb"rank (\d+) of 16 started$")

BLOCK = b"""\
rank 0 of 16 started
2026-05-11T06:40:02.771210Z stdout F rank 1 of 16 started
[pod/llm-sft-worker-2/pytorch] rank 2 of 16 started
May 11 06:40:02 gpu-node-04 python3[30117]: rank 3 of 16 started
 4: rank 4 of 16 started
gpu-node-05: rank 5 of 16 started
[1,6]<stdout>:rank 6 of 16 started
(RayTrainWorker pid=30188, ip=10.8.0.9) rank 7 of 16 started
[2026-05-11T06:40:02.771Z] 9af3c1d2 [rank=8] || rank 8 of 16 started
2026-05-11T06:40:02.771210 [pod/llm-sft-worker-9/pytorch] rank 9 of 16 started
1214.3s\t88\trank 10 of 16 started
"""


def test_a_line_reads_the_same_behind_any_collector():
    assert [int(found) for found in STATED_RANK.findall(BLOCK)] == list(range(11))


def test_outer_matches_nothing_in_front_of_a_plain_line():
    found = re.match(OUTER, b"rank 0 of 16 started")
    assert found is not None
    assert found.end() == 0


def test_a_programs_own_words_before_the_line_are_no_collector():
    assert STATED_RANK.search(b"worker says: rank 3 of 16 started\n") is None


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("[default3]: loaded shard 3", "3"),
        ("2026-05-11T06:40:02.771210Z stderr F [default3]: loaded shard 3", "3"),
        ("May 11 06:40:02 gpu-node-04 python3[30117]: [default3]: loaded shard 3", "3"),
        ("[pod/llm-sft-worker-0/pytorch] [trainer3]: loaded shard 3", "3"),
    ],
)
def test_match_behind_finds_a_tag_behind_the_collectors_prefix(text, rank):
    tag = re.compile(r"\[[a-z]+(\d+)\]:")
    found = match_behind(tag, text, ("[",))
    assert found is not None
    assert found.group(1) == rank


def test_match_behind_leaves_a_tag_quoted_inside_a_message():
    tag = re.compile(r"\[[a-z]+(\d+)\]:")
    assert match_behind(tag, "worker restarted after [default3]: lost", ("[",)) is None


@pytest.mark.parametrize(
    ("tag", "is_agent_tag"),
    [
        ("[default0]:", True),
        ("[trainer12]:", True),
        ("[rank3]:", False),
        ("[epoch1]:", False),
        ("[layer30]:", False),
    ],
)
def test_torchruns_tag_is_a_role_and_a_local_rank(tag, is_agent_tag):
    assert (re.fullmatch(AGENT_TAG, tag) is not None) == is_agent_tag
    assert (re.fullmatch(AGENT_TAG_BYTES, tag.encode()) is not None) == is_agent_tag


@pytest.mark.parametrize(
    ("label", "is_host"),
    [
        ("gpu-node-07:", True),
        ("10.20.0.5:", True),
        ("node7:", True),
        ("localhost:", True),
        ("layer3:", False),
        ("step12:", False),
        ("req-3:", False),
        ("request-12:", False),
    ],
)
def test_pdsh_names_a_host_not_a_counter(label, is_host):
    assert (re.fullmatch(PDSH, label) is not None) == is_host
