"""What pasting a log or a launcher's relaying does to every line of it, and what survives.

A failure reaches Ranklens pasted into an issue (quoted, entity-escaped, indented, copied off a
terminal that pads its rows and keeps their colour codes), relayed by a launcher (srun's task
label, pdsh's host, Open MPI's tag, a Ray actor's tag, docker compose's service column, `kubectl
logs --prefix`) or stamped by a log shipper or a CI console (Jenkins' Timestamper). Each
`Artifact` rewrites every
line of a bundle's files one way, and knows how to take its own wrapping off a line the
report quotes, so a reading of the wrapped bundle can be compared with the plain one's:

    >>> QUOTE.wrap_line("RuntimeError: boom", 0, 3)
    '> RuntimeError: boom'
    >>> QUOTE.unwrap("> RuntimeError: boom")
    'RuntimeError: boom'

`python -m tests.analyzers.paste_artifacts [CORPUS ...]` prints, for each artifact, how many
of the corpora's samples (the corpus beside the checkout when none is named) change category,
first error, or its rank and the culprits, and names those that change the first two.
"""

from __future__ import annotations

import io
import re
import sys
import tarfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from tempfile import TemporaryDirectory
from typing import Any

from analyzers import AnalyzeOptions, analyze
from analyzers.formats.columns import columns
from analyzers.labelled_sets import Sample, as_bundle, is_corpus, samples

ANSI_CODE = re.compile(r"\x1b\[[0-9;]*m")
LAST_NUMBER = re.compile(r"(\d+)\D*$")


@dataclass(frozen=True)
class Artifact:
    """One way every line of a file was rewritten: `wrap_line(line, number, task)` gives the
    line as the artifact leaves it (`task` is the launcher's number for the file's writer),
    `unwrap` takes the artifact off a quoted line again, `line_end` ends each line."""

    name: str
    wrap_line: Callable[[str, int, int], str]
    unwrap: Callable[[str], str]
    line_end: str = "\n"

    def wrap(self, text: str, task: int) -> str:
        lines = text.split("\n")
        last = [lines.pop()] if lines[-1] == "" else []
        wrapped = [self.wrap_line(line, n, task) for n, line in enumerate(lines)]
        return self.line_end.join(wrapped + last)


@dataclass(frozen=True)
class PaddedRows(Artifact):
    """A terminal's screen copied with its colour codes: every row filled with blanks up to
    the window, a window wider than the file's widest line (so nothing was cut), and each row
    between the code that coloured it and the reset."""

    def wrap(self, text: str, task: int) -> str:
        lines = text.split("\n")
        last = [lines.pop()] if lines[-1] == "" else []
        window = max((_columns(line) for line in lines), default=0) + 8
        rows = [self.wrap_line(_padded(line, window), n, task) for n, line in enumerate(lines)]
        return "\n".join(rows + last)


def _columns(line: str) -> int:
    return columns(line.encode("utf-8", "surrogateescape"))


def _padded(line: str, window: int) -> str:
    return line + " " * (window - _columns(line))


def _prefixed(prefix: Callable[[int, int], str]) -> tuple[Callable[..., str], Callable[..., str]]:
    pattern = re.compile(re.sub(r"\d+", r"\\d+", re.escape(prefix(0, 0))))
    return (lambda line, n, task: prefix(n, task) + line), (lambda text: pattern.sub("", text, 1))


def _entities(line: str) -> str:
    line = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return line.replace('"', "&quot;").replace("'", "&#39;")


def _unentities(line: str) -> str:
    line = line.replace("&gt;", ">").replace("&lt;", "<").replace("&quot;", '"')
    return line.replace("&#39;", "'").replace("&amp;", "&")


# A shipper that reads a finished log file stamps each line with the time it read it: one
# second for all of them. (Stamps made up line by line would order the files' lines
# against each other in a way no real clock did.)
def _shipper_time(n: int, task: int) -> str:  # `kubectl logs --timestamps`, a shipper's export
    return "2026-03-01T10:22:05.120334Z "


def _console_time(n: int, task: int) -> str:  # Jenkins' Timestamper
    return "[2026-03-01T10:22:05.120Z] "


QUOTE = Artifact("quote", lambda line, n, task: "> " + line, lambda text: text.removeprefix("> "))
HTML = Artifact("html_entities", lambda line, n, task: _entities(line), _unentities)
HTML_SOURCE = Artifact(  # a page's source: its entities, and a line break ending each line
    "html_source",
    lambda line, n, task: _entities(line) + "<br>",
    lambda text: _unentities(text).removesuffix("<br>"),
)
CRLF = Artifact("crlf", lambda line, n, task: line, lambda text: text.rstrip("\r"), "\r\n")
ANSI = Artifact(
    "ansi_colour",
    lambda line, n, task: f"\x1b[1;31m{line}\x1b[0m" if line else line,
    lambda text: ANSI_CODE.sub("", text),
)
PADDED_COLOUR = PaddedRows(
    "colour_padded_rows",
    lambda line, n, task: f"\x1b[1;31m{line}\x1b[0m",
    lambda text: ANSI_CODE.sub("", text),
)
SRUN = Artifact("srun_label", *_prefixed(lambda n, task: f"{task}: "))


# pdsh (and clush) name the host each line came from; eight ranks to a node, as on GPU and NPU
# servers, by an address as a hostfile often lists them
def pdsh_host(task: int) -> str:
    return f"10.0.0.{task // 8 + 1}"


PDSH = Artifact("pdsh_host", *_prefixed(lambda n, task: f"{pdsh_host(task)}: "))
MPIRUN = Artifact("mpirun_tag", *_prefixed(lambda n, task: f"[1,{task}]<stderr>:"))
COMPOSE = Artifact("compose", *_prefixed(lambda n, task: f"trainer-{task}  | "))
KUBECTL = Artifact("kubectl", *_prefixed(lambda n, task: f"[pod/trainer-{task}/pytorch] "))
RAY = Artifact(
    "ray_actor", *_prefixed(lambda n, task: f"(RayWorkerWrapper pid={1234 + task}, ip=10.0.0.1) ")
)
TAB = Artifact("tab_indent", lambda line, n, task: "\t" + line, lambda text: text.lstrip("\t"))
SHIPPER = Artifact("shipper_time", *_prefixed(_shipper_time))
CONSOLE = Artifact("ci_console_time", *_prefixed(_console_time))

ARTIFACTS = (
    QUOTE, HTML, HTML_SOURCE, CRLF, ANSI, PADDED_COLOUR, SRUN, PDSH, MPIRUN, COMPOSE, KUBECTL, RAY,
    TAB, SHIPPER, CONSOLE,
)  # fmt: skip


def task_of(path: str) -> int:
    """The launcher's number for a file's writer: the rank its layout names
    (`log_3.log`, `attempt_0/3/stderr.log`), else 0 (one process's pasted log)."""
    name = PurePosixPath(path)
    if name.parent.name.isdigit():
        return int(name.parent.name)
    found = LAST_NUMBER.search(name.name)
    return int(found[1]) if found and len(found[1]) <= 3 else 0


def rewrap(bundle: Path, artifact: Artifact, where: Path) -> Path:
    """A copy of a tar bundle with every file's lines rewritten by `artifact`."""
    wrapped = where / f"{artifact.name}-{bundle.name}"
    with tarfile.open(bundle) as source, tarfile.open(wrapped, "w:gz") as target:
        for member in source.getmembers():
            if member.isfile():
                text = source.extractfile(member).read().decode("utf-8", "surrogateescape")  # type: ignore[union-attr]
                data = artifact.wrap(text, task_of(member.name)).encode("utf-8", "surrogateescape")
                info = tarfile.TarInfo(member.name)
                info.size = len(data)
                target.addfile(info, io.BytesIO(data))
    return wrapped


def reading(bundle: Path, artifact: Artifact | None = None) -> dict[str, Any]:
    """What a comparison holds equal: the category, the first error's place and its text
    with the artifact taken off; and apart, as a launcher's task prefix may tell them, the
    first error's rank and the culprits. Beside them: each rank's files, and the host the
    report places each rank on."""
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    diagnosis = report["diagnosis"]
    first = diagnosis["first_error"]
    place = None
    if first is not None:
        text = artifact.unwrap(first["text"]) if artifact else first["text"]
        place = (first["file"], first["line"], text.strip())
    return {
        "category": diagnosis["category"],
        "first_error": place,
        "ranks": {"rank": first and first["rank"], "culprits": diagnosis["culprit_ranks"]},
        "files": {str(row["rank"]): row["files"] for row in report["ranks"] if row["files"]},
        "hosts": report["environment"].get("rank_hosts", {}),
    }


@contextmanager
def plain_and_wrapped(sample: Sample, artifact: Artifact) -> Iterator[tuple[Path, Path]]:
    with as_bundle(sample) as bundle, TemporaryDirectory(prefix="ranklens-artifact-") as tmp:
        yield bundle, rewrap(bundle, artifact, Path(tmp))


def _table(roots: list[Path]) -> None:
    found = [(root, sample) for root in roots if is_corpus(root) for sample in samples(root)]
    print(f"{'artifact':<16} {'category':>8} {'first':>6} {'rank':>5}   of {len(found)} samples")
    plain = []
    for _, sample in found:
        with as_bundle(sample) as bundle:
            plain.append(reading(bundle))
    for artifact in ARTIFACTS:
        changed: dict[str, list[str]] = {"category": [], "first_error": [], "ranks": []}
        for (root, sample), before in zip(found, plain, strict=True):
            with plain_and_wrapped(sample, artifact) as (_, wrapped):
                now = reading(wrapped, artifact)
            for key, names in changed.items():
                if now[key] != before[key]:
                    names.append(f"{root.name}/{sample.name}")
        counts = " ".join(
            f"{len(names):>{w}}" for names, w in zip(changed.values(), (8, 6, 5), strict=True)
        )
        names = sorted(set(changed["category"] + changed["first_error"]))
        print(f"{artifact.name:<16} {counts}   {' '.join(names)}")


if __name__ == "__main__":
    from tests.corpus_path import CORPUS

    _table([Path(arg) for arg in sys.argv[1:]] or [CORPUS])
