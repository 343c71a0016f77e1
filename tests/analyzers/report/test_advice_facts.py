"""What the next actions are chosen by, and the values their texts are filled with."""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from analyzers.core.types import ErrorRef, FileInfo, FileKind, FileScan
from analyzers.report.advice_facts import env_of, values_of


def test_culprits_another_rank_waited_for_fill_the_waited_ranks():
    waited = Diagnosis(culprit_ranks=[3], first_error=ErrorRef("rank0.log", 8, "timeout", rank=0))

    values = values_of(waited, "allreduce")

    assert values["waited_ranks"] == "3"
    assert values["op"] == "allreduce"
    assert "first_ranks_suffix" not in values


def test_culprits_that_failed_first_fill_the_first_ranks_suffix():
    failed = Diagnosis(culprit_ranks=[3], first_error=ErrorRef("rank3.log", 8, "OOM", rank=3))

    values = values_of(failed, None)

    assert values["first_ranks_suffix"] == " (rank 3)"
    assert "waited_ranks" not in values


def test_every_files_environment_is_merged_as_text():
    def scan(path: str, env: dict) -> FileScan:
        return FileScan(FileInfo(path, FileKind.ENV, None), facts={"env": env})

    merged = env_of([scan("env0.txt", {"RANK": 0}), scan("env1.txt", {"HCCL_BUFFSIZE": "200"})])

    assert merged == {"RANK": "0", "HCCL_BUFFSIZE": "200"}
