"""Writing a job's log tree line by line, as the timeline tests' bundles are laid out."""

from __future__ import annotations

from pathlib import Path


def write_lines(root: Path, rel: str, lines: list[str]) -> None:
    """`lines` as the file `root/rel`, each ended by a newline (folders made as needed)."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
