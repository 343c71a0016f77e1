"""An exception's message that goes on over the lines below its own, read as one message.

    Error(s) in loading state_dict for Model:
            Missing key(s) in state_dict: "head.weight".

A line below the exception continues its message when the same writer printed it deeper
indented, or the exception's own line stops at `Type:` or at a headline's colon (torch's
pipelining prints `RuntimeError:` and its reason on the lines below): the citation then carries
those lines too, since the line alone names no failure. A native check that throws the
runtime's message with the source place of the failed call appended on a line of its own
(`RuntimeError: invalid argument` over `/sgl-kernel/csrc/allreduce/custom_all_reduce.cuh:350`)
prints that place unindented; a bare `path.cuh:N` line right under the exception is joined to
its message too, since the place is what says whose call failed. Under rich's boxed traceback
the console cut the message at its width onto lines at the exception's own indentation, and
those lines are the rest of it (`87960930222080 bytes. Error code 12 ...` names no allocator
alone).

A line that ends in the CANN error manager's `[FUNC:..][FILE:..][LINE:..]` tag is not part of
the message even when indented (a pasted excerpt can put a device block line right under a
torch_npu `RuntimeError`), so it stays its own line and is read, and cited, for what it says.
A line cut at a blank (a paste that wrapped a long message at its spaces) goes on at the same
depth; torch prints NCCL's error detail with a blank at its end (`ncclSystemError: ... device
error. `) and NCCL's `Last error:` header on the next line: that blank is torch's, not a paste
that cut the text, so the header is not joined to the line above and stays NCCL's own (see
formats.indented).
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzers.core import regex_programs
from analyzers.core.types import Event
from analyzers.formats.base import ParsedLine
from analyzers.formats.traceback_frames import FRAME
from analyzers.formats.traceback_lines import CHAIN, HEADER, ends_traceback, lead

MAX_MORE = 12  # continuation lines joined into one exception message
# the CANN error manager's trace line (`... [FUNC:X][FILE:y.cc][LINE:12]`): its own writer's
# line, never the text of a Python exception printed above it
_CANN_TRACE = regex_programs.compile(r"\[FUNC:[^\]]*\]\[FILE:[^\]]*\]\[LINE:\d+\]\s*$")
# a C/C++ compiler's own diagnostic (`<file>:24:10: fatal error: 'cstdint' file not found`)
# that a compile step's exception quotes inside its message, under the include chain
_COMPILER_DIAGNOSTIC = regex_programs.compile(
    r"\s*/?(?:[\w.+-]+/)*[\w.+-]+:\d+:\d+: (?:fatal error|error):"
)
# the source place a native check appends under the message it throws (`.../x.cuh:350`)
_NATIVE_PLACE = regex_programs.compile(
    r"\s*/?(?:[\w.+-]+/)*[\w.+-]+\.(?:cuh|cu|cc|cpp|cxx|c|hpp|h):\d+\s*$"
)
# NCCL's header for the reason it repeats below an exception: a structure of its own
# (formats.indented reads the next line as the reason), never the rest of a cut line
_NCCL_REASON_HEADER = "Last error:"
# a line that is a message of its own, whatever ended the line above: the C++ runtime's
# `terminate called ...`, Python's `Exception ignored in ...` and a shell's report of the
# process's end. Some messages end in a blank as printed (torch's report of a data loader
# worker killed by a signal leaves one after its full stop, and its internal assertions one
# after `please report a bug to PyTorch.`), so a blank end alone does not make the next line
# the rest of the message. A line that opens with a date and a time (`[2024-08-13 10:17:44,208]
# torch.distributed...`, a launcher's record in a format no header rule reads) is a record of
# its own too
_OWN_MESSAGE = regex_programs.compile(
    r"\s*(?:terminate called (?:after|without|recursively)\b|Exception ignored (?:in|on|while)\b"
    r"|(?:Aborted|Segmentation fault|Bus error|Killed)(?: \(core dumped\))?\s*$"
    r"|\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}\b)"
)


@dataclass(slots=True)
class ExceptionMessage:
    """An exception whose text goes on over the next lines (`Error(s) in loading state_dict
    for Model:` / `\tMissing key(s) in state_dict: ...`)."""

    event: Event
    line: ParsedLine
    count: int = 0
    indent: int = 0  # leading blanks of the exception line; continuations are deeper
    bare: bool = False  # the exception's own line ends at `Type:`; its text is all below
    wrapped: bool = False  # printed under a rich box: the console cut it at the same indent
    soft: bool = False  # the last line read ended in a blank: the text was cut at a space


def continues(state: ExceptionMessage, line: ParsedLine) -> bool:
    """Append a continuation line to the exception's message; False ends the message."""
    message = line.message
    same_writer = (line.source, line.level) == (state.line.source, state.line.level)
    taken = (
        same_writer
        and _opened(state, message)
        and message.strip()
        and _ordinary(message)
        and state.count < MAX_MORE
    )
    if not taken:
        return False
    # a headline that ends at its colon (`Error(s) in loading state_dict for Model:`)
    # says only that something failed: its first line below says what, so the cited
    # line carries it too
    headline_only = state.count == 0 and state.event.message.endswith(":")
    state.event.message += " " + message.strip()
    if state.bare or headline_only or state.wrapped or state.soft:
        # the cited line alone would say only `RuntimeError:`, or what fitted the
        # console's width; what failed is below
        cited = state.event.text.strip() if state.wrapped else state.event.text.rstrip()
        state.event.text = f"{cited} {message.strip()}"
    elif _COMPILER_DIAGNOSTIC.match(message):
        # a compile step's exception quoting the compiler's log: the include chain
        # above says where, this line says why, so the cited line carries it
        state.event.text = f"{state.event.text.rstrip()} {message.strip()}"
    state.count += 1
    state.soft = cut_at_blank(line)
    return True


def _opened(state: ExceptionMessage, message: str) -> bool:
    """Whether the exception's message is still open for `message`: its line stopped at a
    colon, the line is deeper, a console cut it at its width, a native check's place follows,
    or the last line was cut at a blank and this one is no message of its own."""
    depth = lead(message)
    return (
        state.event.message.endswith(":")
        or depth > state.indent
        or (state.wrapped and depth == state.indent)
        or (state.count == 0 and _NATIVE_PLACE.match(message) is not None)
        or (
            state.soft
            and depth == state.indent
            and not ends_traceback(message.strip())
            and message.strip() != _NCCL_REASON_HEADER
            and _OWN_MESSAGE.match(message) is None
        )
    )


def _ordinary(message: str) -> bool:
    """A line that starts no structure of its own (a traceback, a chain, a frame, a CANN
    error manager's trace line)."""
    return not (
        HEADER.match(message)
        or CHAIN.match(message)
        or FRAME.match(message)
        or _CANN_TRACE.search(message)
    )


def cut_at_blank(line: ParsedLine) -> bool:
    """The line ends in a blank, as no message a program prints does: a paste broke the text
    there (an editor or a markdown span wrapping a long message at its spaces), so the line
    below at the same depth carries the rest of it (`Fail to open library: ` / `<path> ` /
    `with error: <lib>: ` / `undefined symbol: <name>`). A run of blanks is a terminal's
    padding of a short row up to its width, whatever the row held: the row is whole."""
    return line.text.endswith((" ", "\t")) and not _padded(line.text) and bool(line.message.strip())


def _padded(text: str) -> bool:
    return text.endswith(("  ", "\t\t", " \t", "\t "))
