"""Tell a bundle member's kind and rank from its path alone.

Real collections name things many ways: `log_3.log`, `rank_3/...`, `rank-0.txt`,
`...-proc-rank-2-device-2.txt`, torchrun's `attempt_0/3/stderr.log`, CANN's
`plog/plog-12337_20250805194601414.log` and `device-11/device-1382_....log`,
`environment_check/.../npu_info_after.txt`, a scheduler's `slurm-12345_3.out` or
`job.o12345.3`. The rules are data in `knowledge/layout.yaml`: the first kind pattern that
matches the path wins; the rank comes from the most specific rank pattern found anywhere in
the path, except for a job's binary artefacts (`rank3.pt`, `profile_rank0.nsys-rep`), which
no rank wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from analyzers.core import regex_programs
from analyzers.core.limits import plausible_rank
from analyzers.core.types import FileKind
from analyzers.core.yamlcheck import parse_yaml_file

LAYOUT_FILE = Path(__file__).parents[1] / "knowledge" / "layout.yaml"


@dataclass(frozen=True, slots=True)
class KindRule:
    kind: FileKind
    pattern: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class Layout:
    kinds: tuple[KindRule, ...]
    ranks: tuple[re.Pattern[str], ...]
    default_log_suffixes: tuple[str, ...]
    local_rank_dirs: tuple[re.Pattern[str], ...] = ()
    node_rank_files: tuple[re.Pattern[str], ...] = ()
    host_folders: tuple[re.Pattern[str], ...] = ()
    rotations: tuple[re.Pattern[str], ...] = ()
    artifacts: re.Pattern[str] | None = None  # files no rank wrote, whatever their names say


@dataclass(frozen=True, slots=True)
class Rotation:
    """A rotated segment's place in its log: `live` is the path of the file it was cut from,
    and segments sorted by `age` run oldest first, every one of them before the live file."""

    live: str
    age: tuple[int, int]


LIVE_AGE = (1, 0)  # the live file is newer than any of its rotated segments
STAMP_DIGITS = 14  # YYYYMMDDHHMMSS: a stamp without its time sorts at the start of its day


@lru_cache(maxsize=1)
def load_layout() -> Layout:
    data = parse_yaml_file(LAYOUT_FILE)
    kinds = tuple(KindRule(FileKind(rule["kind"]), _folded(rule["path"])) for rule in data["kinds"])
    ranks = tuple(_folded(p) for p in data["ranks"])
    local = tuple(_folded(p) for p in data.get("local_rank_dirs") or ())
    node_files = tuple(_folded(p) for p in data.get("node_rank_files") or ())
    hosts = tuple(_folded(p) for p in data.get("host_folders") or ())
    rotations = tuple(_rotation_pattern(p) for p in data.get("rotations") or ())
    artifacts = data.get("artifacts") or ()
    artifact = _folded("|".join(f"(?:{p})" for p in artifacts)) if artifacts else None
    suffixes = tuple(data["default_log_suffixes"])
    return Layout(kinds, ranks, suffixes, local, node_files, hosts, rotations, artifact)


def _folded(source: str) -> re.Pattern[str]:
    """A layout pattern: it matches a path whatever the path's case."""
    return regex_programs.compile(source, re.IGNORECASE)


def _rotation_pattern(source: str) -> re.Pattern[str]:
    """A rotation rule must say which file was rotated and how its segments are ordered:
    checked at load, so a bad edit fails at start instead of joining segments at random."""
    pattern = _folded(source)
    groups = set(pattern.groupindex)
    if "live" not in groups or len(groups & {"number", "stamp"}) != 1:
        raise ValueError(
            f"{LAYOUT_FILE.name}: rotation {source!r} needs a `live` group and one of "
            "`number` or `stamp`"
        )
    return pattern


def classify_path(path: str) -> tuple[FileKind, int | None]:
    """Kind and rank of a member path (rank None when the path does not say)."""
    layout = load_layout()
    path = _unrotated(logical_path(path))
    if _artifact(path, layout):
        return _kind(path, layout), None  # a checkpoint, a profile, a core dump: no writer
    return _kind(path, layout), _rank(path, layout)


def _unrotated(path: str) -> str:
    """A rotated segment is named and ranked like the live file it was cut from: a segment in
    the middle of a run often names no rank in its lines, so only its path can (the timeline
    joins the segments in order, `analyzers/timeline/rank_merge.py`)."""
    found = rotation_of(path)
    return found.live if found else path


def rotation_of(path: str) -> Rotation | None:
    """The rotated segment a (logical) path names, by the first rule of `layout.yaml` that
    matches it; None for a file that is not a rotated segment, the live file included."""
    for pattern in load_layout().rotations:
        found = pattern.match(path)
        if found:
            return Rotation(found["live"], _age(found))
    return None


def _age(found: re.Match[str]) -> tuple[int, int]:
    """Older segments sort first: a rotation number counts back from the live file, a stamp's
    digits count forward in time (`2026-12-05_10-00` and `20261205` read alike)."""
    number = found.groupdict().get("number")
    if number is not None:
        return (0, -int(number))
    digits = re.sub(r"\D", "", found["stamp"])
    return (0, int(digits.ljust(STAMP_DIGITS, "0")))


# appended to a member path the bundle holds more than once (`ingest.bundle`), and looked
# through when the copy is named and ranked
COPY_MARK = " (copy {})"
_COPY_MARK = re.compile(r"(?: \(copy \d+\))+$")


def logical_path(path: str) -> str:
    """The path of the file a member holds: `log_3.log.gz` is read as `log_3.log` (the
    bundle reader inflates single gzipped members), so it is named and ranked like it, and
    so is a second copy of a path the bundle holds twice (`log_3.log (copy 2)`)."""
    path = _COPY_MARK.sub("", path)
    return (
        path[:-3] if path.lower().endswith(".gz") and not path.lower().endswith(".tar.gz") else path
    )


def agent_local_rank(path: str) -> tuple[str, int] | None:
    """The launcher agent's log tree and the local rank when the path numbers ranks per
    agent (torchrun's `attempt_0/<local rank>/`): on a second node that number is not the
    global rank, and only the bundle as a whole can tell the offset."""
    return _numbered_within(path, load_layout().local_rank_dirs)


def node_local_rank(path: str) -> tuple[str, int] | None:
    """The node's folder and the number a file in it is named by, when a per-host launch
    script may have numbered its files per node (`node1/log_0.log`): only the file's own
    statement of its rank can say whether that number is global."""
    return _numbered_within(path, load_layout().node_rank_files)


def _numbered_within(path: str, patterns: tuple[re.Pattern[str], ...]) -> tuple[str, int] | None:
    """The folder (`agent` group) and the number (`local` group) of the first pattern the path
    fits: a rank that may count only within that folder."""
    for pattern in patterns:
        found = pattern.search(logical_path(path))
        if found:
            local = plausible_rank(found.group("local"))
            return (found.group("agent"), local) if local is not None else None
    return None


def host_folder(path: str) -> str | None:
    """The host whose folder holds the member (`node-3/log_0.log`, `host10.20.0.5/rank_3.log`),
    from the innermost folder a `host_folders` rule names; None when no folder names one."""
    for folder in reversed(PurePosixPath(logical_path(path)).parts[:-1]):
        for pattern in load_layout().host_folders:
            found = pattern.fullmatch(folder)
            if found:
                return found.groupdict().get("host") or folder
    return None


def agent_attempt(path: str) -> tuple[str, int] | None:
    """The launcher agent's log tree and the attempt number when the path keeps one folder
    per restart of the worker group (torchrun's `attempt_<n>/`)."""
    for pattern in load_layout().local_rank_dirs:
        found = pattern.search(logical_path(path))
        if found and "attempt" in pattern.groupindex:
            number = plausible_rank(found.group("attempt"))  # small enough to be a count
            return (found.group("agent"), number) if number is not None else None
    return None


def folder_prefix(path: str) -> str:
    """The member's folder with its trailing slash ("" at the bundle's top), to test which
    trees lie under it with `startswith`."""
    folder = str(PurePosixPath(path).parent)
    return "" if folder == "." else folder + "/"


def _artifact(path: str, layout: Layout) -> bool:
    """A file no rank wrote: a log suffix never names one (checked first, it is most files)."""
    if layout.artifacts is None or path.lower().endswith(layout.default_log_suffixes):
        return False
    return layout.artifacts.search(path) is not None


def _kind(path: str, layout: Layout) -> FileKind:
    for rule in layout.kinds:
        if rule.pattern.search(path):
            return rule.kind
    if path.lower().endswith(layout.default_log_suffixes):
        return FileKind.RANK_LOG
    return FileKind.OTHER


def _rank(path: str, layout: Layout) -> int | None:
    for pattern in layout.ranks:
        found = pattern.findall(path)
        if found:
            return plausible_rank(found[-1])  # the innermost mention wins: node dirs first
    return None
