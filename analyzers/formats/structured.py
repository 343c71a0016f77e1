"""Parsers for small structured files, run on their whole (bounded) text at end of file."""

from __future__ import annotations

from typing import Any

from analyzers.core.types import FileKind
from analyzers.formats import env, npu_smi, versions


def parse(kind: FileKind, lines: list[str], path: str = "") -> dict[str, Any]:
    """Facts from every parser that finds something: collections mix their contents
    (an `npu_info_after.txt` holds version.info files and npu-smi output side by side)."""
    facts: dict[str, Any] = {}
    table = npu_smi.parse(lines)
    if table:
        facts["npu_smi"] = table
    found = versions.parse(lines, path)
    if found:
        facts["versions"] = found
    facts.update(env.parse(lines))
    return facts
