"""torch_npu's own lines: the PTA summary, the CANN error-manager block, NPU warnings.

    [ERROR] 2025-05-16-20:08:19 (PID:9649388, Device:2, RankID:2) ERR00100 PTA call acl api failed
    EZ9999: Inner Error!
    EZ9999: [PID: 3011590] 2026-06-29-01:37:06.028.225 The error from device(chipId:7, dieId:0), ...
    EE9999[PID: 227098] 2027-02-24-11:22:22.239.370 (EE9999):  rtEventQueryStatus execution failed, ...
    [PID: 5601631] 2026-09-15-07:30:08.505.285 Invalid_Argument(EE1001): The argument is invalid. ...
    EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:605]
    [W NPUStream.cpp:788] Warning: NPU warning, error code is 107020[Error]: .

The error-manager headline is usually nearer the root cause than the RuntimeError that
carries it; a named headline with nothing after its colon continues on the next lines
(`AclNN_Parameter_Error(EZ1001):` / `Tensor scale not implemented for DT_FLOAT16,`), and so
does one whose sentence the writer broke after a comma (`(E89999):  op[Rope],` / `when ...`).
"""

from __future__ import annotations

from analyzers.core import regex_programs
from analyzers.formats.base import header

NAME = "torch_npu"
CANN = "cann"

HEADERS = (
    header(
        NAME,
        r"\[(?P<level>ERROR|WARN|WARNING|INFO)\] (?P<ts>\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d) "
        r"\(PID:(?P<pid>\d+), Device:-?\d+, RankID:(?P<rank>-?\d+)\) ",
    ),
    # error-manager lines keep their code, PID and time in the message (zero-width match)
    header(CANN, r"(?=E[0-9A-Z]\d{4}(?::|\s|\[PID))"),
    # ... also when a paste indented only some of its lines (a reply quoting part of a log, a
    # quote whose mark `formats.paste_marks` peeled but whose own indent stays): the indent goes,
    # the headline is read as at the margin. Only the code written as a headline (a colon or
    # its PID after it) counts: an indented glog record (`E1105 08:01:12 ...`) is not one.
    header(CANN, r"[ \t]+(?=E[0-9A-Z]\d{4}(?::|\[PID)|\[PID: ?\d+\] \d{4}-)"),
    header(CANN, r"(?=\[PID: ?\d+\] \d{4}-)"),
    header(CANN, r"(?=[A-Z][\w/]*\(E[0-9A-Z]\d{4}\):)"),
    header(NAME, r"\[?(?P<level>[IWEF]) [\w.]+:\d+\] "),
)

_PID = regex_programs.compile(r"\[PID: ?(\d+)\]")
_OPEN_ENDED = regex_programs.compile(r"\((?:E[0-9A-Z]\d{4})\):\s*$|^E[0-9A-Z]\d{4}:\s*$")
# a headline the writer broke after a comma: its sentence goes on below (`op[Rope],`)
_CUT_AFTER_COMMA = regex_programs.compile(
    r"(?:\(E[0-9A-Z]\d{4}\):|^E[0-9A-Z]\d{4}(?::|\[PID)).*,\s*$"
)
# where a headline's own text starts: after its code (and the PID and time that follow it)
_AFTER_CODE = regex_programs.compile(
    r"\(E[0-9A-Z]\d{4}\):|^E[0-9A-Z]\d{4}:(?:\s*\[PID: ?\d+\] \S+)?"
)
# two words in a row: a clause, not a tag such as `op[Rope]`
_CLAUSE = regex_programs.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}")


def headline_pid(message: str) -> int | None:
    """The `[PID: 959]` of an error-manager headline."""
    found = _PID.search(message)
    return int(found.group(1)) if found else None


def is_open_headline(message: str) -> bool:
    """`AclNN_Parameter_Error(EZ1001):` with its text on the following lines, or a
    headline whose sentence stops at a comma and goes on below."""
    return bool(_OPEN_ENDED.search(message) or _CUT_AFTER_COMMA.search(message))


def headline_has_text(message: str) -> bool:
    """A headline cut after a comma that already states what is wrong (`(EZ1001): Tensor
    scale not implemented for DT_FLOAT16,`), not only what it is about (`(E89999):
    op[Rope],`) and not nothing at all (`(EZ1001):`): the line a reader quotes."""
    if _OPEN_ENDED.search(message) or not _CUT_AFTER_COMMA.search(message):
        return False
    tail = _AFTER_CODE.split(message)[-1]
    return bool(_CLAUSE.search(tail))
