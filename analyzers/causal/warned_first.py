"""A failure a process warned about before it raised it.

Some programs check a condition at two thresholds: past the first they log a warning and go
on, past the second they raise (a trainer that warns when its fp16 grad scale gets small and
stops when it gets smaller). The exception outranks the warning, since warnings weigh less,
but both are the same rule's reading of one failure and the warning is its earliest record.
The first error is then that warning, as long as nothing of another rule stands between them.
Only rules that say their program checks this way (`Signature.warns_first`) are read so: a
library's warning and its later error can be two different failures that one rule matches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from analyzers.causal.chain import CLOCK_TOLERANCE_S, epoch
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_SYMPTOM, TIER_WRAPPER
from analyzers.core import regex_programs
from analyzers.core.types import EventKind

# The type a Python exception line starts with (`RuntimeError: `, `torch.distributed.DistError: `).
_EXCEPTION_TYPE = regex_programs.compile(r"^(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception): ")


def warned_before(first: Classified, ordered: Sequence[Classified]) -> Classified | None:
    """The earliest warning, before `first` in causal order, matched by the same rule."""
    if first.best is None or first.event.kind != EventKind.ERROR:
        return None
    if not first.best.signature.warns_first:
        return None
    rule = first.best.signature.id
    earliest = None
    for item in ordered:
        if item is first:
            break
        if item.best is None or item.best.signature.id != rule:
            if item.event.kind == EventKind.ERROR and item.tier >= first.tier:
                earliest = None  # another failure of at least that weight came in between
            continue
        if item.event.kind == EventKind.WARNING and earliest is None:
            earliest = item
    return earliest


def restated_from(first: Classified, ordered: Sequence[Classified]) -> Classified | None:
    """The earlier warning, of the same rule, that `first` repeats word for word. NCCL logs a
    refusal as a `NCCL WARN` line where it happens; torch's exception then quotes that warning
    again under `Last error:`, and that copy is an error line of its own. Both are one record of
    one failure, so the warning, which came first, leads. Any rule: the test is the text, the
    whole exception line found inside the warning, not the rule's word for it. A Python
    exception that re-raises the reason a C++ layer warned about (torch's RPC agent logs
    `... to ps1: ECONNREFUSED: connection refused`, then `rpc_sync` raises `RuntimeError:
    ECONNREFUSED: connection refused`) is compared without its exception type, and a copy cut
    short still counts when what is left of it begins that reason."""
    if first.best is None or first.event.kind != EventKind.ERROR:
        return None
    said = first.event.message.strip()
    bare = _EXCEPTION_TYPE.sub("", said, count=1)
    if len(bare) < 12:
        return None
    rule = first.best.signature.id
    for item in ordered:
        if item is first:
            return None
        if item.best is None or item.best.signature.id != rule:
            continue
        if item.event.kind != EventKind.WARNING:
            continue
        warned = item.event.message.rstrip()
        if warned.endswith(said) or (bare != said and _quotes_reason(warned, bare)):
            return item
    return None


def _quotes_reason(warned: str, bare: str) -> bool:
    """The exception's message, without its type, is the reason the warning ended on, or the
    start of it: a traceback pasted into a report is often cut mid-line (`RuntimeError:
    ETIMEDOUT: conne`), and what is left of the message still restates the warning."""
    if warned.endswith(": " + bare):
        return True
    at = warned.rfind(": " + bare)
    return at >= 0 and ": " not in warned[at + 2 + len(bare) :]


# `(host, port)` as c10d prints an endpoint in its socket messages; its per-address connect
# warnings write `[host]:port` (an IPv4 address often in its IPv6-mapped form) or `host:port`
_ENDPOINT = regex_programs.compile(r"\(([^\s,()]+), (\d+)\)")
_BRACKETED_ENDPOINT = regex_programs.compile(r"\[([^\]\s]+)\]:(\d+)\b")
_BARE_ENDPOINT = regex_programs.compile(
    r"(?<![\w.:\[])(\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z][\w.-]*):(\d+)\b"
)
_MAPPED = "::ffff:"


def announced_before(first: Classified, ordered: Sequence[Classified]) -> Classified | None:
    """The earliest warning, before `first` in causal order, of a rule `first`'s rule lists
    under `warned_by` that names the same endpoint: a connect to a host whose name did not
    resolve times out, and the lookup warning printed before it is why. Another endpoint's
    warning is another story (a harmless lookup of a different host). A line that names no
    endpoint (a store call's bare `DistNetworkError: Broken pipe`) is led by such a warning
    of its own process only, the same file and rank: the client logged the socket call that
    broke before the next call raised it."""
    if first.best is None or not first.best.signature.warned_by:
        return None
    wanted = _endpoints(first)
    rules = first.best.signature.warned_by
    for item in ordered:
        if item is first:
            return None
        if item.best is None or item.best.signature.id not in rules:
            continue
        said_why = _endpoints(item) & wanted if wanted else _same_process(item, first)
        if said_why:
            return item
    return None


def _same_process(item: Classified, first: Classified) -> bool:
    return (
        item.event.kind == EventKind.WARNING
        and item.event.file == first.event.file
        and item.rank == first.rank
    )


def reported_before(first: Classified, ordered: Sequence[Classified]) -> Classified | None:
    """The earlier line, in the same file and rank, of a rule `first`'s rule lists under
    `reported_by` that carries the same code. torch_npu raises a failed synchronize as one
    exception line with the runtime's code (`AclrtSynchronizeStreamWithTimeout(copy_stream),
    error code is 507035`); the runtime's own record of a wait that returned that code (`wait
    for compute device to finish failed, runtime result = 507035`) may follow it, from the same
    wait or from the next synchronize on the way out. The record's rule takes its weight from
    the code, the headline's stays a wrapper's, so the record would be cited although the
    headline said the same first. Another code is another failure and keeps its place."""
    if first.best is None or not first.best.signature.reported_by:
        return None
    wanted = {info.code for info in first.best.codes[:1]}
    if not wanted:
        return None
    rules = first.best.signature.reported_by
    for item in ordered:
        if item is first:
            return None
        if item.best is None or item.best.signature.id not in rules or item.demoted:
            continue
        if item.event.file != first.event.file or item.rank != first.rank:
            continue
        if item.event.line < first.event.line and wanted & {i.code for i in item.best.codes[:1]}:
            return item
    return None


def _endpoints(item: Classified) -> set[tuple[str, str]]:
    text = item.event.message or item.event.text
    found = [
        *_ENDPOINT.findall(text),
        *_BRACKETED_ENDPOINT.findall(text),
        *_BARE_ENDPOINT.findall(text),
    ]
    return {(host.removeprefix(_MAPPED), port) for host, port in found}


def skipped_before(
    first: Classified, ordered: Sequence[Classified], offsets: Mapping[int, float]
) -> Classified | None:
    """The earliest notice of a rank that it left out a step its peers ran, when the job's
    first error is only a wait: a loop that finds its rank's loss non-finite and skips that
    step's backward leaves out the gradient collectives the others enter, and they wait for
    it until their timeout. The rank then goes on to the next step (its progress is no
    recovery) and the notice is a warning, so both weigh less than the waits; the notice is
    still the earliest record of the failure. Not when it comes after the first wait."""
    if first.tier not in (TIER_SYMPTOM, TIER_WRAPPER) or first.event.kind != EventKind.ERROR:
        return None
    waited = epoch(first, offsets)
    for item in ordered:
        best = item.best
        if best is None or not best.signature.skips_step:
            continue
        when = epoch(item, offsets)
        if waited is not None and when is not None and when > waited + CLOCK_TOLERANCE_S:
            continue
        return item
    return None
