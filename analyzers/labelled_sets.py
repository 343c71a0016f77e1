"""The labelled sets the analyzer is measured on: case folders and torch bundles, each with
the truth a person wrote for it.

A set holds `cases/<name>/` folders of logs with a `truth.json`, and `torch/<name>.tar.gz`
bundles with a `<name>.truth.json` beside them. The evaluation, the rule ablation, the
rewritten-corpus tests and the benchmarks all read a set the same way through this module.
"""

from __future__ import annotations

import json
import os
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@dataclass(frozen=True, slots=True)
class Sample:
    name: str
    bundle: Path  # a directory of logs or an archive
    truth: dict[str, Any]


def corpus_root() -> Path:
    return Path(os.environ.get("RANKLENS_CORPUS", DEFAULT_CORPUS))


def is_corpus(root: Path) -> bool:
    """Whether `root` is laid out as a labelled set (it may still hold no case yet)."""
    return (root / "cases").is_dir() or (root / "torch").is_dir()


def samples(root: Path) -> list[Sample]:
    """Every case folder and torch bundle of the corpus, by name."""
    found = [
        Sample(case.name, case, _read_json(case / "truth.json"))
        for case in sorted((root / "cases").glob("*"))
        if (case / "truth.json").is_file()
    ]
    found += [
        Sample(archive.name.removesuffix(".tar.gz"), archive, _read_json(truth))
        for archive in sorted((root / "torch").glob("*.tar.gz"))
        if (truth := archive.with_name(archive.name.replace(".tar.gz", ".truth.json"))).is_file()
    ]
    return found


def _read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@contextmanager
def as_bundle(sample: Sample) -> Iterator[Path]:
    """An archive of the sample's logs: case folders are packed without their truth file,
    so the analyzer never reads the answer. Logs in subfolders (the held-out layout keeps
    them under `logs/`, a collected job under per-node trees) keep their relative paths."""
    if sample.bundle.is_file():
        yield sample.bundle
        return
    truth = sample.bundle / "truth.json"
    with tempfile.TemporaryDirectory(prefix="ranklens-eval-") as tmp:
        archive = Path(tmp) / f"{sample.name}.tar.gz"
        with tarfile.open(archive, "w:gz") as tar:
            for log in sorted(sample.bundle.rglob("*")):
                if log.is_file() and log != truth:
                    relative = log.relative_to(sample.bundle).as_posix()
                    tar.add(log, arcname=f"{sample.name}/{relative}")
        yield archive
