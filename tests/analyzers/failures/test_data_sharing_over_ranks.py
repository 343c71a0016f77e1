"""A streaming data library that refuses a pipeline not set up for several ranks.

docs/labelling.md#a-data-library-not-told-how-to-share-data-over-the-ranks: webdataset asks
for an explicit node splitter once it sees a multi-rank job, and MosaicML streaming refuses a
second dataset instance that claims a local cache directory another one holds. The data
pipeline does not fit the job's ranks: `config`, with `other` (the library) beside it. The
excerpts follow the real shapes with paths and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NODESPLITTER = """\
Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/2
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/vision/train_clip.py", line 212, in <module>
[rank1]:     for step, batch in enumerate(loader):
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/webdataset/shardlists.py", line 84, in single_node_only
[rank1]:     raise ValueError("you need to add an explicit nodesplitter to your input pipeline for multi-node training")
[rank1]: ValueError: you need to add an explicit nodesplitter to your input pipeline for multi-node training
"""

REUSED_LOCAL = """\
All distributed processes registered. Starting with 2 processes
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/lm/pretrain.py", line 48, in build_loader
[rank0]:     data = StreamingDataset(remote="s3://corpus/tok", local="/scratch/tok", batch_size=16)
[rank0]: ValueError: Reused local directory: ['/scratch/tok'] vs ['/scratch/tok']. Provide a different one.
"""


def test_a_pipeline_with_no_node_splitter_is_the_jobs_set_up() -> None:
    diagnosis = diagnose_text("rank1.log", NODESPLITTER)
    assert_reads(
        diagnosis,
        "config",
        first_error="explicit nodesplitter",
        rule="cfg.data_not_shared_over_ranks",
        beside=("other",),
    )


def test_a_local_cache_directory_claimed_twice_is_the_jobs_set_up() -> None:
    diagnosis = diagnose_text("rank0.log", REUSED_LOCAL)
    assert_reads(diagnosis, "config", first_error="Reused local directory")


def test_a_node_splitter_the_job_named_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "rank0.log",
        "INFO data: webdataset pipeline uses nodesplitter split_by_node over 2 nodes\n",
    )
    assert "cfg.data_not_shared_over_ranks" not in rules_of(diagnosis)
