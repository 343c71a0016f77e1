"""However a log was pasted or relayed, the same failure reads the same.

Every corpus case and torch bundle is read again with every line of every file rewritten one
way (`tests.analyzers.paste_artifacts`): quoted in Markdown, entity-escaped or copied from a
page's source, with CRLF line ends or colour codes, behind srun's, Open MPI's, docker
compose's, kubectl's or a Ray actor's prefix, tab-indented, or stamped by a log shipper or a
CI console, or copied off a terminal that pads its rows and keeps their colour codes, or behind
pdsh's host label. The category, the first error's file, line and text (the artifact taken
off), its rank and the culprits are those of the plain copy. Open MPI's tag is the one
artifact that may add something: it names the rank of a paste that named none, unless a
worker's own tag behind it (a process mpirun's process spawned) says whose line it is; and
pdsh's label places every rank that wrote a line on the host it names.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from analyzers.labelled_sets import Sample, as_bundle, is_corpus, samples
from tests.analyzers.paste_artifacts import (
    ARTIFACTS,
    MPIRUN,
    PDSH,
    pdsh_host,
    plain_and_wrapped,
    reading,
    task_of,
)
from tests.corpus_path import CORPUS

SAMPLES = samples(CORPUS) if is_corpus(CORPUS) else []
BY_NAME = {sample.name: sample for sample in SAMPLES}


@cache
def _plain(name: str) -> dict[str, Any]:
    with as_bundle(BY_NAME[name]) as bundle:
        return reading(bundle)


@pytest.mark.parametrize("artifact", ARTIFACTS, ids=lambda artifact: artifact.name)
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda sample: sample.name)
def test_a_paste_or_launcher_artifact_changes_no_reading(sample: Sample, artifact):
    plain = _plain(sample.name)
    with plain_and_wrapped(sample, artifact) as (_, wrapped):
        now = reading(wrapped, artifact)
    assert (now["category"], now["first_error"]) == (plain["category"], plain["first_error"])
    if artifact is MPIRUN and plain["ranks"]["rank"] is None and plain["first_error"]:
        # a worker's own tag behind it leaves the rank to the worker's index
        assert now["ranks"]["rank"] in (None, task_of(plain["first_error"][0]))
    else:
        assert now["ranks"] == plain["ranks"]
    if artifact is PDSH:
        assert now["hosts"] == _labelled_hosts(now["files"])
    else:
        assert now["hosts"] == plain["hosts"] == {}


def _labelled_hosts(files: dict[str, list[str]]) -> dict[str, str]:
    """Rank -> the host pdsh's label names on its files, where they name one."""
    hosts = {rank: {pdsh_host(task_of(path)) for path in paths} for rank, paths in files.items()}
    return {rank: named.pop() for rank, named in hosts.items() if len(named) == 1}
