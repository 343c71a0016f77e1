"""Error lines the traceback reader's records single out: raised while handling another
exception, a failed write in a handler, printed by the unraisable hook, a thread's death, a
wrapper above the exception it carries, and the innermost package frames of each.

The scanner keeps these records as the file's `tracebacks` facts; the classifier turns each
question into a set of line numbers, so a tier rule asks only whether a line is in it::

    Exception ignored in: <function Pool.__del__ at 0x7f...>
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.core import regex_programs
from analyzers.core.types import FileScan


def inner_packages(scan: FileScan) -> dict[int, Sequence[str]]:
    """{exception line: the innermost installed-package frames of its traceback}. A physical
    line can hold several tracebacks (a JSON formatter's record whose escaped newlines fold the
    message's exception and the record's `exc_info` into one line); that line gets the frames
    of all of them, so a later one without frames does not hide where the exception was raised."""
    found: dict[int, list[str]] = {}
    for record in scan.facts.get("tracebacks") or ():
        found.setdefault(record["line"], []).extend(record.get("inner_packages") or ())
    return found


def reraised_lines(scan: FileScan) -> set[int]:
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


def handler_write_lines(scan: FileScan) -> set[int]:
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


def ignored_lines(scan: FileScan) -> set[int]:
    """Lines of exceptions the interpreter could not raise and only printed (`Exception ignored
    in: <function X.__del__ ...>` above the traceback): a destructor's or callback's error,
    usually a cleanup after the real failure, which the process went on past."""
    return {
        record["line"] for record in scan.facts.get("tracebacks") or () if record.get("ignored")
    }


def thread_lines(scan: FileScan) -> set[int]:
    """Lines of exceptions that ended a thread other than the main one (threading's hook
    printed them under `Exception in thread X:`)."""
    return {record["line"] for record in scan.facts.get("tracebacks") or () if record.get("thread")}


def carrier_lines(scan: FileScan) -> set[int]:
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
