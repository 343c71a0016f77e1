"""Match error and warning events against the signatures: what each line says, and how
much it explains.

Every event gets its matches (best first) and a *tier*, the rank of its role in a cascade:
a root failure outranks a timeout that another rank's failure may explain, which outranks
a line that only wraps a better one, an unknown exception, a consequence, a bare tail::

    EZ9999: [PID: 8308179] ... there is an exception of fftsplus aivector error ...  -> cause
    RuntimeError: ... AclrtSynchronizeDeviceWithTimeout, error code is 507015        -> wrapper
    [ERROR] 2026-10-22-12:47:24 (PID:8308179, ...) ERR00100 PTA call acl api failed  -> cascade
"""

from __future__ import annotations

import re
import signal
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from analyzers.checkpoints.patterns import is_success, teardown_signals, termination_signals
from analyzers.checkpoints.restarts import restart_lines
from analyzers.checkpoints.track import NO_RANK, last_line_by_rank, track_of
from analyzers.classify.block_context import (
    lead_restated_runs,
    yield_to_anywhere_in_bundle,
    yield_to_block_details,
    yield_to_earlier_in_file,
    yield_to_later_in_file,
    yield_to_named_cause,
    yield_to_nccl_debug_file,
    yield_to_same_process,
)
from analyzers.classify.errorcodes import CodeInfo, normalise_code
from analyzers.classify.hints import is_build_report, is_chatter, is_relay_banner, vote
from analyzers.classify.late_blocks import demote_late_blocks
from analyzers.classify.matches import Classified, Match
from analyzers.classify.record_leads import lead_unread_records
from analyzers.classify.rules import NO_LEVEL, Knowledge, Signature
from analyzers.core import regex_programs
from analyzers.core.rank_lists import ranks_named
from analyzers.core.types import Event, EventKind, FileKind, FileScan
from analyzers.formats.cut_traceback import SOURCE as CUT_TRACEBACK_SOURCE
from analyzers.formats.elastic import SOURCE as ELASTIC_SOURCE
from analyzers.formats.elastic import signal_name
from analyzers.formats.ggml import NAME as GGML_SOURCE
from analyzers.formats.outer_prefix import AGENT_ROLE, AGENT_TAG_LITERALS, match_behind
from analyzers.formats.severity import JOINED_RAISE, load_prefilter, reads_as_source
from analyzers.formats.ucxlog import NAME as UCX_SOURCE
from analyzers.scan.quiet_tail import TAIL_SOURCE

TIER_CAUSE = 6.0
TIER_WRAPPED_CAUSE = 5.5  # a wrapper whose code is itself a root failure (507014, 561002)
TIER_SYMPTOM = 5.0
TIER_WRAPPER = 4.5
TIER_UNKNOWN = 4.0  # an exception no signature knows: still someone's own failure
TIER_CASCADE = 3.0
TIER_TEARDOWN_KILL = 2.75  # a launcher's SIGKILL of a survivor after another rank failed
TIER_GENERIC = 2.0
# an error line that no rule reads and whose words name no failure kind: cited only when the
# job shows nothing better (`analyzers.report.diagnose`), below any demoted line
TIER_UNMATCHED = 1.25
TIER_NOISE = 1.0
WARNING_PENALTY = 1.5
RECOVERED_PENALTY = 1.5

ROLE_TIERS = {
    "cause": TIER_CAUSE,
    "symptom": TIER_SYMPTOM,
    "wrapper": TIER_WRAPPER,
    "cascade": TIER_CASCADE,
    "generic": TIER_GENERIC,
}
FRAME_SOURCE = "traceback_frame"
TRACEBACK_SOURCE = "traceback"  # the exception line that ends a Python traceback
CANN_LOG_SOURCE = "plog"  # `[ERROR] MODULE(pid,name):time [file:line] ...` host and device logs
# A line of a CANN error-manager block printed under its record: a TraceBack line, a reason
# (`formats.cann_block`); it carries no time of its own
CANN_BLOCK_SOURCE = "cann"
# Bracketed or dashed logger headers with a level field (Python logging, spdlog, the MindIE and
# ATB C++ logs): `[2026-02-11 09:33:14.208715] [error] [513224] [tensor_check.cpp:28] ...`
STRUCTURED_LOG_SOURCE = "logging"
# glog's level letter in front of the time (`E20260821 17:32:26.321024 84730 file.cpp:464] ...`:
# torch c10d, Ray, C++ serving runners) is a level field as well
GLOG_SOURCE = "glog"
# vLLM's own logger puts the level first (`ERROR 03-04 12:00:01 [engine.py:409] ...`, the v0
# form without brackets, either after a worker tag such as `(VllmWorkerProcess pid=9)`)
VLLM_SOURCE = "vllm"
# llama.cpp's logger puts a level letter after the time since start (`0.03.271.580 E srv ...`)
# and UCX writes its level after its name (`[1754892342.417620] [host:281:0] md.c:1100 UCX  ERROR
# ...`): a NIC's refusal there is often a bare errno text (`No such device`)
_LEVELLED_SOURCES = frozenset(
    {STRUCTURED_LOG_SOURCE, GLOG_SOURCE, VLLM_SOURCE, GGML_SOURCE, UCX_SOURCE}
)
_LOUD_LEVELS = frozenset({"ERROR", "CRITICAL"})

# Source lines quoted in a traceback are code, not errors (`raise RuntimeError("...")`).
_CODE_LINE = regex_programs.compile(r"\s*(?:raise\b|return\b|assert\b|except\b)")
# An `assert` statement that the scan still kept as an error (a line of its own, not a
# traceback's indented source) is a report quoting the assertion that failed without the bare
# `AssertionError` under it: it is read as the traceback reader reads that pair.
_ASSERT_STATEMENT = regex_programs.compile(r"\s*(?P<statement>assert\s\S.*?)\s*$")
# A CANN log header names the writer (`[ERROR] HCCL(1,python):`), not what failed.
_WRITER = regex_programs.compile(r"^\s*\[[A-Z]+\]\s*(?:[A-Z_]+\([^)]*\):)?")
# An exception line quoted into prose where it was pasted (a PR text, a chat) opens with the
# quote mark or backtick that starts the quotation: `"RuntimeError: ...` at the line's start.
_EXCEPTION_LINE = regex_programs.compile(
    r"(?:^|[\s:\]>)]|(?:^|\s)[\"'`])"
    r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Exit|Failure)"
    r"(?:_\w+)?(?::\s*\S|:?\s*$)"
)

# A command-line program reports its own failure in the Unix diagnostic form, its name then
# `error:` (`die: error: must run as root`, `gcc: error: ...`, argparse's `train.py: error:
# ...`), or as NVIDIA's compilers word it, the name then `fatal :` (`nvcc fatal   : Unknown
# option`): the program stopped and says why, whatever the wording.
_TOOL_ERROR = regex_programs.compile(
    r"^\s*[A-Za-z_][\w.+-]{0,63}(?:: (?:fatal )?error:| fatal\s*:) \S"
)


def classify_scans(
    scans: Sequence[FileScan], knowledge: Knowledge, stack: str | None = None
) -> list[Classified]:
    """Every error and warning event of the bundle, classified, in bundle order; `stack` is
    the accelerator the bundle shows, on which some probes' failures are expected."""
    items = []
    read = LineReadings(knowledge)
    for order, scan in enumerate(scans):
        progress, reraised = _last_progress(scan), _reraised_lines(scan)
        failed_writes = _handler_write_lines(scan)
        # a thread's death is no recovery of a rank that never finished: the progress after it
        # was the main thread's, which then stopped
        threads = set() if _finished(scan) else _thread_lines(scan)
        restarts = restart_lines(scan)
        by_attempt = _progress_by_attempt(scan, restarts) if restarts else []
        carriers = _carrier_lines(scan)
        ignored = _ignored_lines(scan)
        copied_late = _stdout_copied_late(scan)
        teardown = _teardown_kills(scan)
        first = len(items)
        raised: dict[int, Sequence[str]] | None = None
        seen: set[str] = set()  # the rules this file's lines read so far
        for event in scan.events:
            if event.kind in (EventKind.ERROR, EventKind.WARNING):
                item = classify_event(event, order, knowledge, read)
                if any(
                    match.signature.raised_in or match.signature.unframed for match in item.matches
                ):
                    raised = _inner_packages(scan) if raised is None else raised
                    _keep_rules_raised_here(item, raised.get(event.line, ()))
                if any(match.signature.levels for match in item.matches):
                    _keep_rules_of_its_level(item, event.level)
                if any(match.signature.needs_earlier for match in item.matches):
                    _keep_rules_announced_earlier(item, seen)
                seen.update(match.signature.id for match in item.matches)
                item.rank = event.rank if event.rank is not None else scan.info.rank
                item.kind = scan.info.kind
                if event.line in ignored:
                    # printed by the unraisable hook and passed over: it stopped nothing, so
                    # it is cited only when the file shows nothing better
                    item.tier = min(item.tier, TIER_GENERIC)
                elif item.tier == TIER_UNKNOWN and event.line in carriers:
                    item.tier = TIER_GENERIC  # only carries the exception printed below it
                elif item.tier == TIER_UNKNOWN and event.line in reraised:
                    item.tier = TIER_CASCADE  # raised while handling an earlier exception
                elif event.line in failed_writes and item.tier > TIER_CASCADE:
                    # the handler could not write down the failure it was handling
                    item.tier = TIER_CASCADE
                elif event.line in teardown and item.tier >= TIER_CASCADE:
                    # the launcher's own kill of a survivor: below the status records of the
                    # ranks that failed first, and naming no culprit
                    item.tier, item.demoted = TIER_TEARDOWN_KILL, True
                # a rank the console reports dead did not carry on after its error, nor
                # after the agent's own report of its end (`failed (exitcode: -11)
                # local_rank: 3`): its progress below either was copied there late
                if event.line not in threads and item.rank not in copied_late:
                    _mark_recovered(
                        item,
                        by_attempt[bisect_right(restarts, event.line)] if restarts else progress,
                    )
                items.append(item)
        _pass_over_prompt_slips(items[first:], scan)
        _pass_over_logged_warnings(items[first:], scan)
        _carriers_yield_to_what_they_carry(items[first:], scan)
        yield_to_block_details(items[first:], TIER_CASCADE)
        yield_to_earlier_in_file(items[first:], TIER_CASCADE)
        yield_to_named_cause(items[first:], TIER_CASCADE)
        yield_to_later_in_file(items[first:], TIER_GENERIC)
        lead_restated_runs(items[first:], TIER_GENERIC)
        lead_unread_records(items[first:], (TIER_CASCADE, TIER_GENERIC, TIER_UNMATCHED))
        demote_late_blocks(items[first:], TIER_WRAPPER, knowledge.codes)
    yield_to_same_process(items, TIER_CASCADE)
    yield_to_nccl_debug_file(items, TIER_CASCADE)
    yield_to_anywhere_in_bundle(items, TIER_CASCADE)
    _records_quoting_a_traceback(items)
    _quiet_expected_probes(items, stack)
    return items


RECORD_SOURCES = frozenset({"jsonlines", "keyvalue", "logging"})


def _records_quoting_a_traceback(items: Sequence[Classified]) -> None:
    """A rank's log record that quotes an exception no rule knows (`{"event":
    "model_run_failed", "error": "AttributeError: ..."}`, `ERROR model run failed:
    AttributeError: ...`) carries the exception its own traceback ends with, in the same file
    or in the rank's other stream (torchrun's `--redirects` puts the record in stdout.log and
    the traceback in stderr.log). The traceback's line, whose frames say where it was raised,
    is the one read; the record only carries it, as a wrapper carries a child's exception."""
    raised: dict[int | None, list[str]] = {}
    for item in items:
        if item.event.source == TRACEBACK_SOURCE and item.tier == TIER_UNKNOWN:
            said = (item.event.message or item.event.text).strip()
            if said:
                raised.setdefault(item.rank, []).append(said)
    if not raised:
        return
    for item in items:
        if (
            item.tier == TIER_UNKNOWN
            and item.event.source in RECORD_SOURCES
            and item.rank is not None
            and any(
                said in (item.event.message or item.event.text)
                for said in raised.get(item.rank, ())
            )
        ):
            item.tier = TIER_GENERIC


def _inner_packages(scan: FileScan) -> dict[int, Sequence[str]]:
    """{exception line: the innermost installed-package frames of its traceback}. A physical
    line can hold several tracebacks (a JSON formatter's record whose escaped newlines fold the
    message's exception and the record's `exc_info` into one line); that line gets the frames
    of all of them, so a later one without frames does not hide where the exception was raised."""
    found: dict[int, list[str]] = {}
    for record in scan.facts.get("tracebacks") or ():
        found.setdefault(record["line"], []).extend(record.get("inner_packages") or ())
    return found


def _keep_rules_raised_here(item: Classified, frames: Sequence[str]) -> None:
    """A rule that holds only where the line was raised (`raised_in`: a model hub's client
    above the HTTP library that lost its connection) is dropped from a line whose traceback
    frames do not name that place: `('Connection aborted.', ConnectionResetError(104, ...))`
    from a collective's or a local server's socket is not a download host's. A rule that holds
    only where no frame was kept (`unframed`: the HTTP client's own exception pasted alone) is
    dropped from a line whose traceback names the packages that raised it."""
    _keep_matches(
        item,
        lambda signature: (
            (
                signature.raised_in is None
                or any(signature.raised_in.search(frame) for frame in frames)
            )
            and not (signature.unframed and frames)
        ),
    )


def _keep_rules_of_its_level(item: Classified, level: str | None) -> None:
    """A rule that holds only at some levels (`levels`: a job's own words that it is exiting,
    logged as its error) is dropped from a line its writer logged at another level or with
    none: the same words at INFO are a rank reporting its way out. `NONE` among them keeps the
    rule on a line with no level field (Python's bare print of a `sys.exit` message)."""
    _keep_matches(
        item,
        lambda signature: (
            not signature.levels
            or level in signature.levels
            or (not level and NO_LEVEL in signature.levels)
        ),
    )


def _keep_rules_announced_earlier(item: Classified, seen: set[str]) -> None:
    """A rule that reads a line only after its writer announced what the line ends
    (`needs_earlier`) is dropped from a line with no such announcement above it in the file:
    vLLM's engine raises a bare `TimeoutError` when its wait on the workers reaches its
    deadline, after logging once a minute that it found no free broadcast block; a bare
    `TimeoutError` with no such line before it (a socket helper's, a client's) says nothing of
    that wait and stays an unrecognised exception."""
    _keep_matches(
        item,
        lambda signature: (
            not signature.needs_earlier or bool(seen.intersection(signature.needs_earlier))
        ),
    )


def _keep_matches(item: Classified, holds: Callable[[Signature], bool]) -> None:
    """Drop the matches of rules that do not hold for this line where it stands; the line's
    tier follows from the matches left."""
    kept = tuple(match for match in item.matches if holds(match.signature))
    if len(kept) != len(item.matches):
        message = item.event.message or item.event.text
        item.matches, item.tier = kept, _tier(item.event, kept, message)


# what a mistyped statement raises at the prompt: a name or an attribute that does not exist,
# or a statement Python cannot parse
_PROMPT_SLIPS = frozenset({"NameError", "AttributeError", "SyntaxError", "IndentationError"})


def _pass_over_prompt_slips(items: Sequence[Classified], scan: FileScan) -> None:
    """A pasted interactive session (`>>>` statements and what they printed): the prompt
    prints each exception and waits for the next statement, so an exception there ended
    nothing. A mistyped name or attribute, or a statement that does not parse, also leaves
    nothing behind that a later statement could fail on; when the same session raised again
    later, the slip counts like a warning and the later exception is the failure. An import
    that failed is no slip: the module it left unbound is what later statements miss."""
    records = [r for r in scan.facts.get("tracebacks") or () if r.get("interactive")]
    if len(records) < 2:
        return
    last = max(record["line"] for record in records)
    slips = {
        record["line"]
        for record in records
        if record["line"] < last and record.get("type", "").rsplit(".", 1)[-1] in _PROMPT_SLIPS
    }
    for item in items:
        if item.event.line in slips and item.tier > TIER_NOISE:
            item.tier = max(item.tier - RECOVERED_PENALTY, TIER_NOISE)
            item.recovered = True


def _pass_over_logged_warnings(items: Sequence[Classified], scan: FileScan) -> None:
    """An exception a program caught and logged as a warning (`logger.warning(...,
    exc_info=True)`: a WARNING record, then the traceback right under it) ended nothing when
    the same writer raised again later in the file: the program went on (a loader that
    falls back to another file, then gives up), and the later exception is the failure. The
    caught one counts like a warning. Alone in its file, it keeps its weight: an uncaught
    crash can follow any record. A later traceback that belongs to this exception is no
    new raise: one chained to it (`During handling of the above exception`), or the child's
    traceback a wrapper carries (`-- Process 3 terminated with the following error:`)."""
    records = scan.facts.get("tracebacks") or ()
    carriers = _carrier_lines(scan)
    raised = [
        record
        for record in records
        if not record.get("chained") and record.get("type") != "re-raise"
    ]
    caught = {
        record["line"]
        for record in records
        if record.get("warned")
        and record["line"] not in carriers
        and any(
            later["line"] > record["line"]
            and (record.get("rank") is None or later.get("rank") in (None, record.get("rank")))
            for later in raised
        )
    }
    for item in items:
        if item.event.line in caught and item.tier > TIER_NOISE:
            item.tier = max(item.tier - RECOVERED_PENALTY, TIER_NOISE)
            item.recovered = True


def _quiet_expected_probes(items: Sequence[Classified], stack: str | None) -> None:
    """A failed probe for another vendor's library is noise on a stack that never needed it
    (serving software looks for NCCL on an NPU too and carries on without it)."""
    if stack is None:
        return
    for item in items:
        best = item.best
        if best is not None and stack in best.signature.harmless_on:
            item.tier = TIER_NOISE


def _reraised_lines(scan: FileScan) -> set[int]:
    """Lines of exceptions Python raised during or because of an earlier one (the chain's
    first exception is the original)."""
    return {
        record["line"]
        for record in scan.facts.get("tracebacks") or ()
        if record.get("chained") and record.get("line") != record.get("root_line")
    }


# an OS error: what a failed open, write or mkdir raises
_OS_ERROR = regex_programs.compile(
    r"(?:FileNotFound|Permission|IsADirectory|NotADirectory|FileExists|OS|IO)Error$"
)
# a statement that opens a file for writing (`open(path, "w")`, `path.open("ab")`) or writes
# one whole (`json.dump(state, fh)`, `torch.save(obj, path)`, `Path.write_text(...)`)
_WRITING_STATEMENT = regex_programs.compile(
    r"""\bopen\(.*["'][wax]b?\+?["']|\.(?:write_text|write_bytes|mkdir)\(|"""
    r"""\b(?:json|pickle|yaml|torch|np|numpy)\.(?:dump|save)\w*\("""
)


def _handler_write_lines(scan: FileScan) -> set[int]:
    """Lines of OS errors raised while handling an earlier exception by a statement that
    writes a file: a handler that records the failure (a state dump, a crash report) and
    could not write it. The exception it was handling is what failed; its failed write
    stops nothing the first had not. A handler that reads a file instead (a fallback to
    another copy) needed that file, and its missing file keeps its weight."""
    return {
        record["line"]
        for record in scan.facts.get("tracebacks") or ()
        if record.get("chained")
        and record.get("line") != record.get("root_line")
        and _OS_ERROR.search(str(record.get("type") or "").rsplit(".", 1)[-1])
        and _WRITING_STATEMENT.search(record.get("statement") or "")
    }


def _ignored_lines(scan: FileScan) -> set[int]:
    """Lines of exceptions the interpreter could not raise and only printed (`Exception ignored
    in: <function X.__del__ ...>` above the traceback): a destructor's or callback's error,
    usually a cleanup after the real failure, which the process went on past."""
    return {
        record["line"] for record in scan.facts.get("tracebacks") or () if record.get("ignored")
    }


def _thread_lines(scan: FileScan) -> set[int]:
    """Lines of exceptions that ended a thread other than the main one (threading's hook
    printed them under `Exception in thread X:`)."""
    return {record["line"] for record in scan.facts.get("tracebacks") or () if record.get("thread")}


def _stdout_copied_late(scan: FileScan) -> set[int]:
    """Ranks of an agent's `--tee` console whose progress after an error proves nothing: the
    agent copies each rank's stdout and stderr from two files read in turn, so a traceback
    often lands above the last progress lines the rank printed before it. A rank the same
    console reports failed with an exit status of its own (not the agent's stop signal), and
    that never logged its success line there, did not carry on after its error. Nor did a
    rank stopped by the agent's signal whose uncaught exception torch's distributed hook
    printed there (each traceback line led by `[rankN]: `): that hook prints only when the
    exception has left the program, so the process was ending however the agent stopped it."""
    records = scan.facts.get("elastic_failures") or ()
    # the agent's `failed (exitcode: 1) local_rank: 3` line names a local rank; its summary
    # record of the same child gives the global one
    global_of = {
        r.get("local_rank"): r.get("rank") for r in records if isinstance(r.get("rank"), int)
    }
    failed = {
        record.get("rank")
        if record.get("rank") is not None
        else global_of.get(record.get("local_rank"))
        for record in records
        if own_exit(record)
    }
    if records:
        failed |= _ended_by_uncaught(scan)
    if not failed:
        return set()
    track = track_of(scan)
    finished = set()
    success = {i for i, text in enumerate(track.texts) if is_success(text)} if track else set()
    if track is not None and success:  # the per-line walk only when a success line exists
        for text_id, rank in zip(track.text, track.rank, strict=True):
            if text_id in success:
                finished.add(rank if rank != NO_RANK else scan.info.rank)
    return {rank for rank in failed if isinstance(rank, int) and rank not in finished}


# torch's distributed excepthook leads every line of an uncaught exception with the rank (behind
# a launcher's tag, and a collector's prefix: `formats.outer_prefix`)
_HOOK_PREFIX = regex_programs.compile(r"(?:\[" + AGENT_ROLE + r"\d+\]:)?\[rank(?P<rank>\d+)\]: ")
_HOOK_LITERALS = AGENT_TAG_LITERALS  # the bracket of both tags


def _ended_by_uncaught(scan: FileScan) -> set[int]:
    """Ranks whose uncaught exception torch's distributed hook printed in this file: the
    exception line of a traceback that is not a thread's, a caught one logged as a warning, a
    prompt's or one chained to another, led by the same rank's `[rankN]: `."""
    lines = {
        record["line"]: record.get("rank")
        for record in scan.facts.get("tracebacks") or ()
        if isinstance(record.get("rank"), int)
        and not record.get("chained")
        and not record.get("thread")
        and not record.get("warned")
        and not record.get("interactive")
        and record.get("type") != "re-raise"
    }
    ended = set()
    for event in scan.events:
        rank = lines.get(event.line)
        if rank is None:
            continue
        found = match_behind(_HOOK_PREFIX, event.text, _HOOK_LITERALS)
        if found is not None and int(found.group("rank")) == rank:
            ended.add(rank)
    return ended


def ended_on_error(scans: Sequence[FileScan], rank: int | None) -> bool:
    """The rank's process ended on an error: a launcher's summary records an exit of its own
    for it (an error status or a crash, not the agent's stop), or torch's distributed hook
    printed its uncaught exception (`[rankN]: ` before each line), which it does only once the
    exception has left the program. A rank that printed its success line and then ended this
    way did not finish: what it ran after the success failed."""
    if rank is None:
        return False
    for scan in scans:
        records = scan.facts.get("elastic_failures") or ()
        global_of = {
            r.get("local_rank"): r.get("rank") for r in records if isinstance(r.get("rank"), int)
        }
        for record in records:
            its = record.get("rank")
            its = its if its is not None else global_of.get(record.get("local_rank"))
            if its == rank and own_exit(record):
                return True
        if rank in _ended_by_uncaught(scan):
            return True
    return False


# the exit status in the one-line message `formats.elastic` gives each summary record
_RECORD_EXIT = regex_programs.compile(r"\bexitcode: (?P<code>-?\d+)")


def _teardown_kills(scan: FileScan) -> set[int]:
    """Lines of launcher summary records of ranks the launcher killed itself while it stopped
    the survivors of a failed rank (docs/labelling.md#a-launchers-own-kill-of-the-survivors):
    a record whose signal is one the launcher sends after its grace period (SIGKILL), timed
    after another rank's record of an exit of its own (an error status or a crash). A kill
    recorded first, or with no such failure before it, keeps its reading as a kill from
    outside."""
    records = []
    for event in scan.events:
        found = _RECORD_EXIT.search(event.message or "") if event.source == ELASTIC_SOURCE else None
        if found is not None:
            code = int(found.group("code"))
            records.append((event.line, event.timestamp, {"exitcode": code}, signal_name(code)))
    return teardown_kills(records)


K = TypeVar("K")


def teardown_kills(
    records: Iterable[tuple[K, Any, Mapping[str, object], str | None]],
) -> set[K]:
    """The keys of launcher records (key, time, record, signal name) that the launcher killed
    with the signal it sends survivors after its grace period, timed after another record's
    exit of its own: the kill was the launcher's teardown of a failed job. Untimed records
    take no part, as their order is not known."""
    timed = [(key, at, record, name) for key, at, record, name in records if at is not None]
    kills = teardown_signals()
    owned = [at for _, at, record, name in timed if own_exit(record) and name not in kills]
    if not owned:
        return set()
    first = min(owned)
    return {key for key, at, _, name in timed if name in kills and at > first}


def own_exit(record: Mapping[str, object]) -> bool:
    """A child that ended with an error status or a signal of its own, not the agent's stop."""
    code = record.get("exitcode")
    if not isinstance(code, int) or code == 0:
        return False
    if code > 0:
        return True
    name = record.get("signal")
    if not isinstance(name, str):
        try:
            name = signal.Signals(-code).name
        except ValueError:
            return True
    return name.upper() not in termination_signals()


def _finished(scan: FileScan) -> bool:
    """The file's ranks logged their run's success line."""
    track = track_of(scan)
    return track is not None and any(is_success(text) for text in track.texts)


def _carrier_lines(scan: FileScan) -> set[int]:
    """Lines of wrappers printed above the exception they carry from another process (the
    spawn join's empty `ProcessRaisedException:`, DataLoader's `Caught ... in DataLoader
    worker process 0.`): the carried exception is the error, whatever it is. Were the
    wrapper only a re-raise, a carried exception that is itself a cascade (the child lost a
    peer) would tie with it, and the wrapper, printed first, would be cited."""
    return {
        record["line"]
        for record in scan.facts.get("tracebacks") or ()
        if record.get("type") == "re-raise" and (record.get("root_line") or 0) > record["line"]
    }


def _carriers_yield_to_what_they_carry(items: Sequence[Classified], scan: FileScan) -> None:
    """A wrapper's sentence can match a rule by the name of the exception it caught (`Caught
    MemoryError in DataLoader worker process 1.` reads as a host allocation refused): the
    carried exception under it is still the error, so the wrapper yields to it whenever that
    line was read at least as surely. A wrapper over an exception no rule knows keeps its
    reading."""
    carried = {
        record["line"]: record["root_line"]
        for record in scan.facts.get("tracebacks") or ()
        if record.get("type") == "re-raise" and (record.get("root_line") or 0) > record["line"]
    }
    if not carried:
        return
    tiers = {item.event.line: item.tier for item in items}
    for item in items:
        root = carried.get(item.event.line)
        if root is not None and item.tier > TIER_GENERIC and tiers.get(root, 0.0) >= item.tier:
            item.tier = TIER_GENERIC


def _last_progress(scan: FileScan) -> dict[int | None, int]:
    """Line of the last checkpoint per rank in one file (None: any rank)."""
    last: dict[int | None, int] = {}
    track = track_of(scan)
    if track is not None:
        for rank, line in last_line_by_rank(track).items():
            owner = rank if rank != NO_RANK else scan.info.rank
            last[owner] = max(line, last.get(owner, 0))
    if last:
        last[None] = max(last.values())
    return last


def _progress_by_attempt(scan: FileScan, restarts: list[int]) -> list[dict[int | None, int]]:
    """The last progress line per rank of each attempt, in a file several attempts of a
    restarted job wrote into (`checkpoints.restarts`): a rank that was started again did not
    recover from its error; only its progress in the same attempt says it carried on."""
    found: list[dict[int | None, int]] = [{} for _ in range(len(restarts) + 1)]
    track = track_of(scan)
    for index in range(len(track) if track is not None else 0):
        line, rank = track.line[index], track.rank[index]
        found[bisect_right(restarts, line)][rank if rank != NO_RANK else scan.info.rank] = line
    for last in found:
        if last:
            last[None] = max(last.values())
    return found


def _ranks_in(progress: dict[int | None, int]) -> int:
    return sum(1 for rank in progress if rank is not None)


def _mark_recovered(item: Classified, progress: dict[int | None, int]) -> None:
    """An error after which the same rank kept logging progress did not stop it: it counts
    like a warning. A launcher's file mixes ranks, so there only the same rank counts; so
    does any file whose progress lines come from several ranks (one stdout the ranks share):
    a line no rank is named on may be the writer of a rank that never logged again (the C
    library's `free(): double free detected` before it aborts the process), and the others'
    progress says nothing about it."""
    if item.rank is None and (item.kind == FileKind.LAUNCHER or _ranks_in(progress) > 1):
        return
    if progress.get(item.rank, 0) > item.event.line and item.tier > TIER_NOISE:
        item.tier = max(item.tier - RECOVERED_PENALTY, TIER_NOISE)
        item.recovered = True


def classify_event(
    event: Event, order: int, knowledge: Knowledge, read: LineReadings | None = None
) -> Classified:
    """One line's matches and tier; `read`: the bundle's readings of lines met before."""
    read = read or LineReadings(knowledge)
    message = event.message or event.text
    if _CODE_LINE.match(message):
        statement = _ASSERT_STATEMENT.fullmatch(message)
        quoted = f"AssertionError ({statement['statement']})" if statement else None
        matches = read(quoted, event.codes) if quoted else ()
    else:
        matches = read(message, event.codes)
    return Classified(event, order, matches, _tier(event, matches, message), rank=event.rank)


class LineReadings:
    """`match_line` with each distinct message and codes read once. A bundle repeats its
    warnings by the thousand (a CANN device query on every device at every step), and a
    line's matches depend on its words and codes alone. The matches are frozen and a caller
    that drops some of them rebinds its own item's tuple, so the lines may share them."""

    def __init__(self, knowledge: Knowledge) -> None:
        self._knowledge = knowledge
        self._read: dict[tuple[str, tuple[str, ...]], tuple[Match, ...]] = {}

    def __call__(self, message: str, codes: Iterable[str]) -> tuple[Match, ...]:
        key = (message, tuple(codes))
        found = self._read.get(key)
        if found is None:
            found = self._read[key] = match_line(message, key[1], self._knowledge)
        return found


def match_line(message: str, event_codes: Iterable[str], knowledge: Knowledge) -> tuple[Match, ...]:
    """All signatures that match `message`, the most specific first."""
    codes = tuple(event_codes)
    found = []
    for signature in knowledge.index.candidates(message):
        hit = signature.search(message)
        if hit:
            found.append(_match(signature, hit, codes, knowledge))
    return tuple(sorted(found, key=lambda m: -m.weight))


def _match(
    signature: Signature, hit: re.Match[str], event_codes: tuple[str, ...], knowledge: Knowledge
) -> Match:
    groups = _groups(hit)
    own = _lookup(groups.get("code"), signature.code_table, knowledge)
    others = tuple(info for info in _event_codes(event_codes, knowledge) if info != own)
    decisive = _decisive(own, others)
    category, subsystem = signature.category, signature.subsystem
    if signature.category_from_code and decisive and decisive.category:
        category, subsystem = decisive.category, decisive.subsystem or subsystem
    role = signature.role
    if signature.role_from_code and decisive and decisive.role:
        role = decisive.role
    return Match(
        signature=signature,
        category=category,
        subsystem=subsystem,
        role=role,
        weight=signature.weight,
        codes=((own,) if own else ()) + others,
        culprits=ranks_named(groups.get(signature.culprit or "")),
        operator=groups.get("op"),
        group_rank=_group_rank(groups.get(signature.group_rank or "")),
    )


def _decisive(own: CodeInfo | None, others: tuple[CodeInfo, ...]) -> CodeInfo | None:
    """The code that labels the line. A CANN error-manager code names the layer that
    reported (`AclNN_Runtime_Error(EZ9903): ... failed: 507014`, `EH9999 ... runtime result =
    507014`); a runtime number that is a root failure of its own says what happened."""
    if own is None or own.table == "cann":
        root = next(
            (i for i in others if i.table == "acl" and i.category and i.role == "cause"), None
        )
        if root is not None:
            return root
    return own or next((info for info in others if info.category), None)


def _groups(hit: re.Match[str]) -> dict[str, str]:
    """Named groups with alias suffixes dropped (`code2` -> `code`), first value wins."""
    groups: dict[str, str] = {}
    for name, value in hit.groupdict().items():
        if value is not None:
            groups.setdefault(re.sub(r"\d+$", "", name), value)
    return groups


def _lookup(raw: str | None, table: str | None, knowledge: Knowledge) -> CodeInfo | None:
    if not raw:
        return None
    code = normalise_code(raw)
    return knowledge.codes.lookup(code, table) or knowledge.codes.lookup(code)


def _event_codes(codes: Iterable[str], knowledge: Knowledge) -> tuple[CodeInfo, ...]:
    infos = (knowledge.codes.lookup_label(normalise_code(code)) for code in codes)
    return tuple(dict.fromkeys(info for info in infos if info is not None))


def _group_rank(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() else None


def _tier(event: Event, matches: tuple[Match, ...], message: str) -> float:
    if not matches:
        return _unmatched_tier(event, message)
    best = matches[0]
    tier = ROLE_TIERS[best.role]
    if best.role == "wrapper" and _wraps_cause(matches):
        tier = TIER_WRAPPED_CAUSE
    if event.kind == EventKind.WARNING and event.source != FRAME_SOURCE:
        # a launcher logs the signal that stopped it at warning level; it is still the
        # earliest record of the stop. A library with no error level (NCCL) warns of its
        # failures: the warning is its report of one.
        exempt = best.signature.outside_stop or best.signature.failure_warning
        tier -= 0 if exempt else WARNING_PENALTY
    return tier


def _wraps_cause(matches: Sequence[Match]) -> bool:
    """A wrapper that carries a code which is itself a root failure."""
    return any(info.role == "cause" for match in matches for info in match.codes[:1])


def _unmatched_tier(event: Event, message: str) -> float:
    """An exception no signature knows (the line that ends a traceback, whatever its class is
    called) is someone's own failure; a line its writer marked ERROR in a level field (a CANN
    log, or a C++ service's or Python logger's header) is at least a bare failure, worth citing
    when nothing says more: native services such as MindIE and ATB log their refusals that way
    with no error word a reader of free text would notice. So is an error line in unknown
    wording whose words agree on a failure kind (`analyzers.classify.hints`). A frame pasted on
    one line with its `raise XError("...")`, when the exception line itself was lost, is the
    only record of the exception: a bare failure, which the exception line outranks. So is the
    frame a log that ends inside a traceback stops on (`formats.cut_traceback`), and a program's
    line in the Unix diagnostic form, its name then `error:`. A launcher's banner over a
    child's relayed output (`Shard complete standard error output:`) is a wrapper of the lines
    under it, whatever level it was logged at: below them, cited only when nothing is."""
    if event.kind != EventKind.ERROR or event.source == FRAME_SOURCE:
        return TIER_NOISE
    if is_relay_banner(message):
        return TIER_UNMATCHED
    if event.source == TRACEBACK_SOURCE or _EXCEPTION_LINE.search(message):
        return TIER_GENERIC if is_build_report(message) else TIER_UNKNOWN
    if message.lstrip().startswith('File "') and JOINED_RAISE.search(message):
        return TIER_GENERIC  # below the exception line, when the paste kept it
    if event.source == CUT_TRACEBACK_SOURCE:
        return TIER_GENERIC  # a traceback cut before its exception: where the job raised
    if event.source == CANN_LOG_SOURCE and event.level == "ERROR":
        return TIER_GENERIC
    if event.source in _LEVELLED_SOURCES and event.level in _LOUD_LEVELS:
        return TIER_GENERIC
    if _TOOL_ERROR.match(message):
        return TIER_GENERIC  # a program's own report that it stopped
    if _CODE_LINE.match(message):
        return TIER_NOISE
    if is_chatter(message):
        return TIER_NOISE  # says the job goes on, or only advises: whatever its words name
    if vote(_WRITER.sub("", message)):
        return TIER_GENERIC  # unknown wording, but its words name a failure kind
    if event.source == TAIL_SOURCE:
        return TIER_UNMATCHED  # read from a quiet bundle's tail: the learned words read it
    return _unread_error_tier(_WRITER.sub("", message))


def _unread_error_tier(message: str) -> float:
    """An error line in wording nobody knows (`paddle flags error: ...`, `Failed to launch
    the job`) is still its writer's report that something failed: a job whose log holds
    nothing better is better read from it than from no line at all. Its own words must say
    so (a table row a CANN block prints under its headline does not, nor a line of code), and a line logged as an
    error that only says the job goes on (a retry, a deprecation, a zero error count) is not
    one."""
    prefilter = load_prefilter()
    if reads_as_source(message) or not prefilter.error_words.search(
        prefilter.benign.sub(" ", message)
    ):
        return TIER_NOISE
    return TIER_NOISE if is_chatter(message) else TIER_UNMATCHED
