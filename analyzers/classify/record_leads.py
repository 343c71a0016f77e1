"""Lines no rule reads that still lead the lines reporting on them, told by form, not words.

CANN reports one failure as a block: torch_npu's exception over it (`NPU function error: ...,
error code is 6`) and its `ERRxxxxx ... call acl api failed` summary, then the error manager's
record with its code, whose words say what went wrong, then the TraceBack lines of the callers
that each say their step failed::

    RuntimeError: InnerRunOpApi:...OpParamMaker.cpp:495 OPS function error: HcclAllreduce, ...
    [ERROR] 2026-02-20-04:04:28 (PID:2531699, Device:1, RankID:1) ERR01100 OPS call acl api failed.
    EI0006: [PID: 2531699] 2026-02-20-04:04:28.999.536 Getting socket times out. Reason: ...
            MoeDistributeDispatchV2 do tiling failed, ret is -1.

The record is the innermost report; the others only carry it. Rules usually read the record
and the wrappers yield to it by name, but a record in wording no rule knows would be left below
the lines that carry it, and the wrapper cited. The record is told by its form: an
error-manager code in record position (`EI0006: `, `Invalid_Argument(EE1001): `, `EZ9999[PID:
5] ... (EZ9999): `, the old TraceBack form: the code and two blanks) with a sentence after it
that says more than that a step failed with some code (a bare `Inner Error!` headline says
nothing). When no rule reads it and no line of its block is read as a root failure of its own,
it takes the best tier of the block's lines that report on it and they go below it. Two more
forms lead the same way: the first line of a CANN log's run of one process's error lines over
the callers' wrappers, and an error line that later lines of its writer quote word for word.
docs/labelling.md#wrappers
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from analyzers.core import regex_programs
from analyzers.core.types import EventKind

if TYPE_CHECKING:
    from analyzers.classify.matches import Classified

BLOCK_GAP = 4  # lines from one line of a block to the next (`Possible Cause:`, `Solution:`)

# the code in record position: opening the message (`EI0006: `, `EH9999  [Init]`, `EZ9999[PID:`),
# or named by its error class (`Invalid_Argument(EE1001): `, `Device_Absent/Abnormal(EL0001): `,
# `(E89999): `); glog's level letter and date (`E1106 03:33:04.959`) has a blank and a time
# after five characters, never these
_RECORD = regex_programs.compile(
    r"(?:^|(?<=[\s:\]]))(?:(?:[A-Za-z_/]+)?\((?P<named>E[0-9A-Z]\d{4})\):"
    r"|(?P<code>E[0-9A-Z]\d{4})(?::|(?=\[PID:)|\s{2,}(?=\S)))"
)
# what a record says after its code, its PID and its time
_PREAMBLE = regex_programs.compile(r"^[\s:]*(?:\[PID: ?\d+\]\s*)?(?:\d{4}-\d\d-\d\d-[\d:.]+\s*)?")
# headlines that only announce the block (`EZ9999: Inner Error!`) or an argument dump
_EMPTY = regex_programs.compile(r"^(?:Inner Error|Internal [Ee]rror)\b|^\[AIC_INFO\]|^$")
_SENTENCE = regex_programs.compile(r"[A-Za-z]{2,}\W+[A-Za-z]{2,}")
_CODE_WORD = regex_programs.compile(r"\b(?:ret(?:urn)?|result|errno|code|hcclRet)\b", re.IGNORECASE)


def record_states_reason(message: str) -> bool:
    """The line is an error-manager record whose words after the code say what went wrong,
    not only that a step failed with some code."""
    found = None
    for found in _RECORD.finditer(message):  # noqa: B007 - the last code leads the words
        pass
    if found is None:
        return False
    said = _PREAMBLE.sub("", message[found.end() :], count=1).strip()
    # a step's failure with the code it got back (`wait for compute device to finish failed,
    # runtime result = 507035`) is a caller's report; the step alone (`init env failed!`) is not
    reports_code = is_bare_failure(said) and _CODE_WORD.search(said) is not None
    return not _EMPTY.search(said) and _SENTENCE.search(said) is not None and not reports_code


def lead_unread_records(items: Sequence[Classified], below: Sequence[float]) -> None:
    """In one file's items, give each unread error-manager record the tier of the block lines
    that report on it, and make those lines its cascades; likewise the first line of a CANN
    log's run of one process's error lines and a line that later lines quote. `below` are the
    tiers, highest first, the lines they lead go down to."""
    ordered = sorted(items, key=lambda i: i.event.line)
    for index, record in enumerate(ordered):
        if record.best is not None or record.event.kind != EventKind.ERROR:
            continue
        if record_states_reason(record.event.message or record.event.text):
            _lead(record, _block(ordered, index), below)
    for run in _plog_runs(ordered):
        head = run[0]
        if head.best is None and not is_bare_failure(head.event.message or head.event.text):
            _lead(head, run, below, runs=True)
    lead_quoted_lines(ordered, below)


QUOTE_MIN_CHARS = 24  # shorter messages (`RuntimeError`, `Aborted`) are quoted by chance
QUOTE_LOOKAHEAD = 50  # error lines after the quoted one that may carry it


def lead_quoted_lines(ordered: Sequence[Classified], below: Sequence[float]) -> None:
    """An error line no rule reads that later error lines of its writer carry word for word
    (`HCCL watchdog thread terminated with exception: <it>`, `what():  <it>`, `Original reason
    for failure was: <it>`) is what they report: it takes their tier and they become its
    cascades. Whatever the words, the quoting shows which line came first."""
    for index, item in enumerate(ordered):
        if item.best is not None or item.event.kind != EventKind.ERROR:
            continue
        said = (item.event.message or item.event.text).strip()
        if len(said) < QUOTE_MIN_CHARS:
            continue
        quoting = [
            later
            for later in ordered[index + 1 : index + 1 + QUOTE_LOOKAHEAD]
            if later.event.line > item.event.line
            and _same_writer(later, item)
            and said in (later.event.message or later.event.text)
            and (later.event.message or later.event.text).strip() != said
        ]
        if quoting:
            _lead(item, quoting, below)


def _lead(
    head: Classified, block: Sequence[Classified], below: Sequence[float], *, runs: bool = False
) -> None:
    """`head` takes the best tier of the block's lines that report on it, and those lines, with
    any headline that only announces the block, go below it: the head is read first. Nothing
    changes when a line of the block is read as a root failure that says more than that a step
    failed (in a CANN log's run, `runs`, when a line is read as a failure or a wait of its own
    at all): it decides."""
    decides = _decides_in_run if runs else _decides
    if any(decides(i) for i in block if i is not head):
        return
    others = [i for i in block if i is not head and i.best is not None]
    if not others:
        return
    reporters = [i.tier for i in others if i.best is not None and i.best.role != "generic"]
    head.tier = max([head.tier, *reporters])
    lower = next((tier for tier in below if tier < head.tier), None)
    if lower is None:
        return
    for item in others:
        if item.tier >= head.tier:
            item.tier, item.demoted, item.reports_lead = lower, True, True


def _decides(item: Classified) -> bool:
    """A line read as a root failure that says more than that a step failed: a caller's
    `alloc memory failed, runtime result = 207001` is read as a cause for its code, but it
    reports the record above it."""
    return (
        item.best is not None
        and item.best.role == "cause"
        and not item.demoted
        and not is_bare_failure(item.event.message or item.event.text)
    )


def _decides_in_run(item: Classified) -> bool:
    return item.best is not None and item.best.role in OWN_ROLES and not item.demoted


# A CANN log (`[ERROR] HCCL(5120,python):<time> [file.cc:796] ...`) prints a failed call as a
# run of one process's error lines, the innermost first: the line that says what went wrong,
# then each caller's report that its own step failed (`[Wait][LinksEstablishCompleted] is
# failed. ret[9].`, `Kernel Run failed. opType: 31`). The run's first line leads it when it says
# more than that a step failed.
PLOG_SOURCE = "plog"
# a later line of the run that a rule reads as a failure of its own or a wait that timed out
# (`wait socket establish timeout`, `Memory async copy failed, device_id=1, ...`) is no report
# of the first one, however few its words: the first line may be a caller announcing the step
# it started (`Task exception! device_id=1, ...`); only wrappers and cascades report on it
OWN_ROLES = frozenset({"cause", "symptom"})
_TAGS = regex_programs.compile(r"\[[^\]]*\]\s*")
# possessive tokens: a line of many words that never says `failed` is turned down at once
_BARE_FAILURE = regex_programs.compile(
    r"^(?:[\w:.<>()-]++\s+){0,8}?(?:is\s+|was\s+)?(?:failed|fails|failure|error)\b[.,;!:]?\s*"
    r"(?:(?:(?:ret(?:urn)?|result|errno|code|runtime result|hcclRet|opType|error code)\b[^,;]*+"
    # identifiers (`module_name=EE1001`, `device_id=2`), never a reason's own words
    r"|(?!(?:reason|desc|cause|detail|msg|message)\b)\w++\s*[=:]\s*[\w.\-\[\]]++)[.,;]?\s*)*$",
    re.IGNORECASE,
)
BARE_MAX_CHARS = 400  # a step's report of its failure is short


def is_bare_failure(message: str) -> bool:
    """The line only says that a step failed, with at most the code it returned."""
    said = _TAGS.sub("", message[:BARE_MAX_CHARS]).strip()
    return _BARE_FAILURE.match(said) is not None


# the process a CANN log line names in its header (`[ERROR] RUNTIME(3,python3.10):`)
_PLOG_PID = regex_programs.compile(r"\[[A-Z]+\]\s*[A-Za-z][\w-]*\((?P<pid>-?\d+)[,:)]")
RUN_WINDOW_S = 0.01  # one call's chain of reports is printed within milliseconds


def _plog_runs(ordered: Sequence[Classified]) -> list[list[Classified]]:
    """Runs of two or more CANN-log error lines of one process, each within BLOCK_GAP lines
    and RUN_WINDOW_S of the last (the modules of one call chain differ: TBE's check, then the
    graph engine's pass; a helper thread's device probe a tenth of a second later is another
    run)."""
    runs: list[list[Classified]] = []
    open_runs: dict[str, list[Classified]] = {}
    for item in ordered:
        if item.event.source != PLOG_SOURCE or item.event.kind != EventKind.ERROR:
            continue
        writer = _PLOG_PID.search(item.event.text)
        if writer is None:
            continue
        run = open_runs.get(writer["pid"])
        if run and _follows(item, run[-1]):
            run.append(item)
        else:
            open_runs[writer["pid"]] = run = [item]
            runs.append(run)
    return [run for run in runs if len(run) > 1]


def _block(ordered: Sequence[Classified], index: int) -> list[Classified]:
    """The error lines of one writer around `ordered[index]`, each within BLOCK_GAP lines of
    the next."""
    centre = ordered[index]
    block = [centre]
    for step in (-1, 1):
        last, at = centre, index + step
        while 0 <= at < len(ordered):
            item = ordered[at]
            if abs(item.event.line - last.event.line) > BLOCK_GAP:
                break
            if item.event.kind == EventKind.ERROR and _same_writer(item, centre):
                block.append(item)
            last, at = item, at + step
    return block


def _same_writer(item: Classified, other: Classified) -> bool:
    """Lines of another rank, or of another worker process that a serving framework's tag
    names (workers interleave their blocks in one console), are another writer's."""
    if item.rank is not None and other.rank is not None and item.rank != other.rank:
        return False
    tags = (item.event.process or item.event.worker, other.event.process or other.event.worker)
    return None in tags or tags[0] == tags[1]


def _follows(item: Classified, last: Classified) -> bool:
    if item.event.line - last.event.line > BLOCK_GAP:
        return False
    now, before = item.event.timestamp, last.event.timestamp
    if now is None or before is None:
        return True
    try:
        return abs((now - before).total_seconds()) <= RUN_WINDOW_S
    except TypeError:  # one aware, one naive: no safe comparison
        return True
