"""The tier scale, and the tier one line earns from its best match or, unmatched, from its
form: a root failure outranks a timeout that another rank's failure may explain, which outranks a
line that only wraps a better one, an unknown exception, a consequence, a bare tail.

The scale is what every later stage compares lines by (the first error, the culprits, the
confidence), so it is kept apart from the file- and bundle-wide adjustments
(`analyzers.classify.events`) that move a line along it::

    EZ9999: [PID: 8308179] ... there is an exception of fftsplus aivector error ...  -> cause
    RuntimeError: ... AclrtSynchronizeDeviceWithTimeout, error code is 507015        -> wrapper
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.classify.hints import is_build_report, is_chatter, is_relay_banner, vote
from analyzers.classify.line_matches import LineReadings
from analyzers.classify.matches import Classified, Match
from analyzers.classify.rules import Knowledge
from analyzers.core import regex_programs
from analyzers.core.types import Event, EventKind
from analyzers.formats.cut_traceback import SOURCE as CUT_TRACEBACK_SOURCE
from analyzers.formats.ggml import NAME as GGML_SOURCE
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

# An error-manager record named by its class and code (`Not_Supported_API(EK0004) ...`,
# `Device_Absent/Abnormal(EL0001):`): the record of a failure, whatever its class and whether
# its sentence was kept, not a call in pasted code, which the class name's form resembles.
_NAMED_RECORD = regex_programs.compile(
    r"(?:^|\s)[A-Z][A-Za-z]*(?:_[A-Za-z]+)+(?:/[A-Za-z]+)?\(E[0-9A-Z]\d{4}\)(?=\s*(?:\.{3}|…|:|$))"
)

# A command-line program reports its own failure in the Unix diagnostic form, its name then
# `error:` (`die: error: must run as root`, `gcc: error: ...`, argparse's `train.py: error:
# ...`), or as NVIDIA's compilers word it, the name then `fatal :` (`nvcc fatal   : Unknown
# option`): the program stopped and says why, whatever the wording.
_TOOL_ERROR = regex_programs.compile(
    r"^\s*[A-Za-z_][\w.+-]{0,63}(?:: (?:fatal )?error:| fatal\s*:) \S"
)


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
    return Classified(event, order, matches, line_tier(event, matches, message), rank=event.rank)


def line_tier(event: Event, matches: tuple[Match, ...], message: str) -> float:
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
    if _NAMED_RECORD.search(message):
        return TIER_GENERIC  # an error-manager record no rule reads
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
