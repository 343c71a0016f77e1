"""Real-format files are never joined by `formats.wrapped`: the dev corpus logs, the CANN
sample logs under `ascend-fd`, the torch bundles and the examples quoted in FORMATS.md keep
every physical line a logical line of its own (their lines simply vary in length)."""

from __future__ import annotations

import io
import re
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest

from analyzers.formats.wrapped import WrapJoiner
from analyzers.ingest.textio import iter_blocks
from tests.corpus_path import CORPUS as SHARED_CORPUS

CORPUS = SHARED_CORPUS
LOGS = (
    sorted(p for p in CORPUS.glob("cases/*/*") if p.name != "truth.json")
    + sorted(p for p in (CORPUS / "ascend-fd").rglob("*") if p.is_file())
    if CORPUS.exists()
    else []
)
TORCH = sorted((CORPUS / "torch").glob("*.tar.gz")) if CORPUS.exists() else []
_QUOTED = re.compile(r"`([^`\n]{20,})`")


def joins(stream: BinaryIO) -> list[int]:
    """Offsets (per block) of every logical line of more than one piece, visiting every line."""
    found = []
    for block in iter_blocks(stream):
        joiner, pos = WrapJoiner(), 0
        while pos < len(block):
            first, last, pieces, _ = joiner.logical(block, pos, block.find(b"\n", pos))
            if len(pieces) > 1:
                found.append(first)
            pos = last + 1
    return found


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_logs_are_not_joined(path):
    with path.open("rb") as stream:
        assert joins(stream) == []


def members(bundle: Path) -> Iterator[tuple[str, BinaryIO]]:
    with tarfile.open(bundle) as tar:
        for member in tar.getmembers():
            extracted = tar.extractfile(member) if member.isfile() else None
            if extracted is not None:
                yield member.name, extracted


@pytest.mark.parametrize("bundle", TORCH, ids=lambda p: p.name)
def test_torch_bundle_members_are_not_joined(bundle):
    found = {name: joins(stream) for name, stream in members(bundle)}
    assert found
    assert all(offsets == [] for offsets in found.values()), found


@pytest.mark.skipif(not CORPUS.exists(), reason="no shared corpus")
def test_the_examples_quoted_in_formats_md_are_not_joined():
    text = (CORPUS / "FORMATS.md").read_text()
    fenced = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    lines = _QUOTED.findall(text) + [line for block in fenced for line in block.splitlines()]
    assert len(lines) > 100
    assert joins(io.BytesIO("\n".join(lines).encode())) == []
