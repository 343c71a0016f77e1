"""A distributed sampler built for fewer ranks than the job runs.

docs/labelling.md#a-sampler-sized-for-another-number-of-ranks: torch's DistributedSampler
refuses a rank at or past the replica count it was given (`Invalid rank N, rank should be in the
interval [0, M]`). The count came from the job's or the framework's settings (nodes times
devices on nodes with unequal GPU counts, a strategy left at one node) rather than the world the
launcher started: `config`, with `other` (the framework's own computation) beside it. The
excerpts follow the real shapes with paths and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

TORCHRUN_RANK = """\
Initializing distributed: GLOBAL_RANK: 5, MEMBER: 6/6
[rank5]: Traceback (most recent call last):
[rank5]:   File "/srv/seg/train.py", line 61, in <module>
[rank5]:     trainer.fit(model, datamodule=dm)
[rank5]:   File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/distributed.py", line 83, in __init__
[rank5]:     raise ValueError(
[rank5]: ValueError: Invalid rank 5, rank should be in the interval [0, 3]
"""

RICH_BOX = """\
│ /opt/venv/lib/python3.10/site-packages/torch/utils/data/distributed.py:74 in __init__          │
╰────────────────────────────────────────────────────────────────────────────────────────────────╯
ValueError: Invalid rank 2, rank should be in the interval [0, 1]
"""

SOURCE_LISTING = """\
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/distributed.py", line 83, in __init__
    f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]"
INFO sampler: rank 3 of 4 replicas, 1250 samples each
"""


def test_a_rank_past_the_samplers_replica_count_is_the_jobs_set_up() -> None:
    diagnosis = diagnose_text("rank5.log", TORCHRUN_RANK)
    assert_reads(
        diagnosis,
        "config",
        first_error="Invalid rank 5, rank should be in the interval [0, 3]",
        rule="cfg.sampler_rank_outside_replicas",
        beside=("other",),
    )


def test_the_refusal_under_a_rich_traceback_reads_the_same() -> None:
    diagnosis = diagnose_text("node1.log", RICH_BOX)
    assert_reads(diagnosis, "config", first_error="Invalid rank 2")


def test_the_message_template_and_a_sampler_report_are_no_failure() -> None:
    diagnosis = diagnose_text("rank3.log", SOURCE_LISTING)
    assert "cfg.sampler_rank_outside_replicas" not in rules_of(diagnosis)
