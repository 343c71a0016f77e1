"""Lines that only make sense next to their neighbours.

Some lines name a failure kind on their own but, inside a block, merely restate a
neighbour: the runtime's ``reason=[fftsplus timeout]`` after an HCCL block that says its
FFTS+ collective task timed out is that collective, not a kernel; a bare
``The error from device(chipId:..)`` headline whose detail was wrapped onto the next line
is whatever that detail says. A signature lists such neighbours under ``yields_to``; when
one of them is in the same file within a few lines, the line becomes a cascade of it.
A few lines name a consequence of something printed earlier in the file, however far above
(an op namespace left empty because the library that fills it did not load at start, a
supervisor's report that a worker died after the worker's own timeout took it down); their
signatures list that earlier line under ``yields_to_earlier``. A few name a consequence of a
line in any file of the bundle (a cluster's device count that comes up short because another
node never joined); they list it under ``yields_to_bundle``. A few are explained by a line
the same writer printed after them (an agent's report that its worker ended with a plain
status, then its finding that another agent had already ended the job); they list it under
``yields_to_later``. A program's report of NCCL's return code steps aside, too, for
NCCL's reason in a file of NCCL's own lines (``NCCL_DEBUG_FILE``) when its own file holds no
warning of NCCL's. A line that names an earlier event of its writer as its cause by number
(the GPU driver's ``Xid 45 ... caused by previous Xid 149``) steps aside for that event's line
when the file holds it.

The other way round, an operator that rejects a call logs a run of error lines under its
own tag, the failed check first (with its reason), then each caller's "step failed"
(`knowledge/blocks.yaml`). The run's first line that states a reason is its cause, so it
takes the run's best tier and, being first, is read before the lines that restate it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from analyzers.core import regex_programs
from analyzers.core.types import EventKind
from analyzers.core.yamlcheck import Entry, compile_regex, read_yaml

if TYPE_CHECKING:
    from analyzers.classify.matches import Classified

BLOCK_LINES = 12  # a CANN block with its TraceBack lines rarely spans more
RUN_GAP = 1  # lines of one run follow each other


@dataclass(frozen=True, slots=True)
class RunRules:
    tags: tuple[re.Pattern[str], ...]
    reason: tuple[re.Pattern[str], ...]
    examples: tuple[str, ...] = ()
    counterexamples: tuple[str, ...] = ()

    def tag(self, text: str) -> str | None:
        """The writer tag of a line (`[ERROR][OpName]` -> OpName), or None."""
        for pattern in self.tags:
            found = pattern.search(text)
            if found:
                return found.group("tag")
        return None

    def states_reason(self, text: str) -> bool:
        return any(pattern.search(text) for pattern in self.reason)


@cache
def load_run_rules(
    path: Path = Path(__file__).parents[1] / "knowledge" / "blocks.yaml",
) -> RunRules:
    entry = Entry(read_yaml(path), path.name)

    def patterns(key: str, flags: int) -> tuple[re.Pattern[str], ...]:
        return tuple(compile_regex(text, flags, entry, key) for text in entry.strings(key))

    tags = patterns("tags", 0)
    for pattern in tags:
        if "tag" not in pattern.groupindex:
            raise entry.fail(f"tags: {pattern.pattern!r} has no group 'tag'")
    return RunRules(
        tags=tags,
        reason=patterns("reason", re.IGNORECASE),
        examples=entry.strings("examples", required=False),
        counterexamples=entry.strings("counterexamples", required=False),
    )


def yield_to_block_details(items: Sequence[Classified], cascade_tier: float) -> None:
    """Demote, in one file's items, each line whose signature yields to a nearby one."""
    by_id: dict[str, list[int]] = {}
    for item in items:
        if item.best is not None:
            by_id.setdefault(item.best.id, []).append(item.event.line)
    for item in items:
        targets = item.best.signature.yields_to if item.best is not None else ()
        lines = (line for target in targets for line in by_id.get(target, ()))
        if any(abs(line - item.event.line) <= BLOCK_LINES for line in lines):
            item.tier, item.demoted = min(item.tier, cascade_tier), True


def yield_to_earlier_in_file(items: Sequence[Classified], cascade_tier: float) -> None:
    """Demote, in one file's items, each line whose signature yields to a line printed earlier
    in the same file, however far above (`yields_to_earlier`): a supervisor's report that a
    process went away, after that process's own account of why it took itself down; an op
    lookup that fails because the library that registers the op did not load at start. A line
    printed below is not the reason (the process was already gone, the lookup already made).
    It goes no higher than the line it yields to either: a launcher's record of a rank's exit
    under a bare build report, which is only a generic line, ties with it and the earlier wins."""
    first_seen: dict[str, tuple[int, float]] = {}
    for item in items:
        if item.best is not None:
            seen = first_seen.get(item.best.id)
            if seen is None or item.event.line < seen[0]:
                first_seen[item.best.id] = (item.event.line, item.tier)
    for item in items:
        targets = item.best.signature.yields_to_earlier if item.best is not None else ()
        earlier = [
            first_seen[target][1]
            for target in targets
            if target in first_seen and first_seen[target][0] < item.event.line
        ]
        if earlier:
            item.tier, item.demoted = min(item.tier, cascade_tier, max(earlier)), True


def yield_to_named_cause(items: Sequence[Classified], cascade_tier: float) -> None:
    """Demote, in one file's items, each line that names an earlier event of its writer as its
    cause by number, when the file holds that event's own line above it: the GPU driver tears
    down a job's channels with `Xid 45 ... caused by previous Xid 149`, and the Xid 149 line it
    points back to says what failed. The line's regex captures the number it points back to
    (`caused_by`), the earlier line's regex its own number (`xid`). With no such line above, the
    line keeps its reading: it is the only record of the failure."""
    reported: dict[str, int] = {}
    for item in items:
        number = _group_named(item, "xid")
        if number is not None:
            reported[number] = min(item.event.line, reported.get(number, item.event.line))
    for item in items:
        cause = _group_named(item, "caused_by")
        if cause is not None and reported.get(cause, item.event.line) < item.event.line:
            item.tier, item.demoted = min(item.tier, cascade_tier), True


def yield_to_later_in_file(items: Sequence[Classified], below_tier: float) -> None:
    """Demote, in one file's items, each line whose signature yields to a line the same file
    printed below it (`yields_to_later`): torchrun's agent reports that its worker ended with a
    plain exit status, restarts the group and then finds the rendezvous closed, the job ended
    by another node's agent; the worker ended because its peers went. The line goes below the
    one it yields to (`below_tier`), for in file order it would be read first."""
    last_seen: dict[str, int] = {}
    for item in items:
        if item.best is not None:
            last_seen[item.best.id] = max(item.event.line, last_seen.get(item.best.id, 0))
    for item in items:
        targets = item.best.signature.yields_to_later if item.best is not None else ()
        if any(last_seen.get(target, 0) > item.event.line for target in targets):
            item.tier, item.demoted = min(item.tier, below_tier), True


def yield_to_anywhere_in_bundle(items: Sequence[Classified], cascade_tier: float) -> None:
    """Demote, across the whole bundle, each line whose signature yields to a line found in any
    file (`yields_to_bundle`): a head node's count of the cluster's devices coming up short,
    beside another node's record that it never reached the head and so never added its own."""
    present = {item.best.id for item in items if item.best is not None}
    for item in items:
        targets = item.best.signature.yields_to_bundle if item.best is not None else ()
        if any(target in present for target in targets):
            item.tier, item.demoted = min(item.tier, cascade_tier), True


def yield_to_same_process(items: Sequence[Classified], cascade_tier: float) -> None:
    """Demote, across the whole bundle, each line whose signature yields to a line that names
    the same process (both regexes capture a `pid` group with the same value): a launcher's
    report that pid N was killed is the kernel's record of killing pid N, wherever each of the
    two was pasted. Lines that name no pid, or another one, are left alone."""
    pids: dict[str, set[str]] = {}
    for item in items:
        pid = _pid_named(item)
        if pid is not None and item.best is not None:
            pids.setdefault(item.best.id, set()).add(pid)
    for item in items:
        targets = item.best.signature.yields_to if item.best is not None else ()
        pid = _pid_named(item) if targets else None
        if pid is not None and any(pid in pids.get(target, ()) for target in targets):
            item.tier, item.demoted = min(item.tier, cascade_tier), True


# NCCL's and RCCL's own line prefix, `host:pid:tid [dev] `, then NCCL's level word, with the
# source place of a warning between them (`graph/xml.cc:332 NCCL WARN ...`); or, in a paste
# cut down to NCCL's words, that source place at the start of the line before the level word
_NCCL_WRITER = regex_programs.compile(
    r"(?:^|\s)[\w.-]+:\d+:\d+ \[\d+\] (?:\S+:\d+ )?NCCL (?:WARN|INFO|TRACE)\b"
    r"|^\s*[\w./-]+\.(?:cc|cpp|cu|h|hpp):\d+ NCCL (?:WARN|INFO|TRACE)\b"
)


def writes_as_nccl(text: str) -> bool:
    """Whether the line is one of NCCL's (or RCCL's) own, by its prefix or its source place."""
    return _NCCL_WRITER.search(text) is not None


def yield_to_nccl_debug_file(items: Sequence[Classified], cascade_tier: float) -> None:
    """Demote, across the bundle, each line whose signature yields to NCCL's reason
    (`yields_to`) when that reason sits in a file of NCCL's own lines and the line's file holds
    no warning or error of NCCL's. `NCCL_DEBUG_FILE` sends NCCL's output to a file of its own
    per process (`debug.%h.%p`), so the program's console keeps only the return code that
    torch, the NCCL benchmarks or an engine report (`unhandled system error`), and the reason
    NCCL logged for it is in the other file. A file that holds other writers' lines beside NCCL's (a rank's own
    log) is no such file, and a console that holds NCCL's warnings as well keeps its reading.
    A paste that quotes NCCL's warnings apart from the exception, cut down to their source
    place and level word (`graph/topo.h:230 NCCL WARN ...`), is read as such a file too."""
    by_file: dict[int, list[str]] = {}
    for item in items:
        by_file.setdefault(item.order, []).append(item.event.text)
    # NCCL's prefix is a costly search: a file is settled by its first line of another writer
    nccl_only = {order for order, texts in by_file.items() if all(map(writes_as_nccl, texts))}
    found = {item.best.id for item in items if item.best is not None and item.order in nccl_only}
    if not found:
        return
    with_nccl = {order for order, texts in by_file.items() if any(map(writes_as_nccl, texts))}
    for item in items:
        if item.best is None or item.order in with_nccl:
            continue
        if any(target in found for target in item.best.signature.yields_to):
            item.tier, item.demoted = min(item.tier, cascade_tier), True


def _pid_named(item: Classified) -> str | None:
    """The process id the line's best signature captured (`pid` group), if any."""
    return _group_named(item, "pid")


def _group_named(item: Classified, group: str) -> str | None:
    """What the line's best signature captured in the named group, if it has one."""
    if item.best is None or group not in item.best.signature.regex.groupindex:
        return None
    found = item.best.signature.search(item.event.message or item.event.text)
    return found.group(group) if found is not None else None


def lead_restated_runs(items: Sequence[Classified], floor_tier: float) -> None:
    """In one file's items, give each tagged run's first reason-stating line the run's best
    tier (at least `floor_tier`, so that it can be read as an error at all)."""
    rules = load_run_rules()
    for run in _runs(items, rules):
        lead = next((i for i in run if rules.states_reason(_said(i))), None)
        if lead is not None:
            lead.tier = max(lead.tier, floor_tier, *(item.tier for item in run))


def _runs(items: Sequence[Classified], rules: RunRules) -> list[list[Classified]]:
    """Runs of two or more adjacent error lines under one tag; an adjacent line without the
    tag that names the tagged operator (`call aclnnOpName failed`) restates it too."""
    runs: list[list[Classified]] = []
    current: list[Classified] = []
    run_tag: str | None = None
    for item in sorted(items, key=lambda i: i.event.line):
        if item.event.kind != EventKind.ERROR:
            continue
        tag = rules.tag(_said(item))
        adjacent = bool(current) and item.event.line - current[-1].event.line <= RUN_GAP
        if adjacent and run_tag and (tag == run_tag or (tag is None and _names(item, run_tag))):
            current.append(item)
            continue
        if len(current) > 1:
            runs.append(current)
        current, run_tag = ([item] if tag is not None else []), tag
    if len(current) > 1:
        runs.append(current)
    return runs


def _names(item: Classified, operator: str) -> bool:
    """The line names the operator as a word or as its aclnn entry point."""
    return re.search(rf"(?:\b|aclnn){re.escape(operator)}(?!\w)", _said(item)) is not None


def _said(item: Classified) -> str:
    return item.event.message or item.event.text
