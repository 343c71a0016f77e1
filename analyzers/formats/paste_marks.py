"""What pasting a log into an issue, or a terminal's redraws, leave in front of its lines.

`formats.wrappers` peels these so the line reads as the process wrote it: colour codes that
lost their ESC byte, a Markdown quote or code span, pytest's failure marker, and the progress
bars and dots a process drew without a newline before its next line. Seen in real reports:

- colour codes whose ESC byte was lost on the way into an issue: `[0;36m(Worker pid=9)[0;0m ...`,
  or shown in caret notation: `^[[1;36m(VllmWorker TP4 pid=9)^[[0;0m ...`
- a Markdown quote around a pasted log: `> [E306 00:03:07.842961975 socket.cpp:1011] ...` (a bare
  `>` is one of its blank lines)
- a Markdown code span over a whole pasted line, as an issue writer formats a line or two of a
  terminal: `` `Killed` ``, ``` ``Killed`` ``` - the backticks go; a span inside a line (a name
  quoted in a sentence), two spans on one line and a code fence stay as written
- a progress bar (tqdm) that redraws itself with a carriage return and no newline, so the next
  line a process writes is glued to its last frame once the log is read as lines:
  ` 50%|#####     | 1/2 [00:01<00:01,  1.21s/it]F0000 00:00:1716973077.46 ...` - the bar is
  dropped; only a bar followed directly by more text is one (a bar alone stays a line), and a
  bar whose postfix shows a non-finite loss or gradient norm (`step_loss=nan`) is kept whole
- the progress dots CANN's compilers print while they build ops or a model (ATC, the graph
  engine's online op build), one dot at a time with no newline, so the next line a process
  writes is glued to them: `.....EZ3003: [PID: 653] ... No supported Ops kernel ...` - the dots
  are dropped; only three or more dots followed directly by text are (a row of dots alone, an
  ellipsis before a space, and `..` in a path stay as written)
- pytest's failure report, which prints the text of the exception a test raised (and what the
  code under test wrote to it) behind a capital `E` and padding to the traceback's indent:
  `E       RuntimeError: ...`, `E   loc("kernel.mlir":12:3): error: ...` - only an `E` that
  stands alone before at least three spaces, so glog's `E0917 11:20:04` keeps its level letter
"""

from __future__ import annotations

import re

from analyzers.core import regex_programs
from analyzers.formats.base import ParsedLine, peel_writer
from analyzers.formats.launcher_tags import TORCHRUN

_ORPHAN_SGR = regex_programs.compile(r"(?:\^\[)?\[\d{1,3}(?:[;:]\d{1,3})*m\s?")
# keeps the quoted line's own indent; a bare `>` is a blank line of the quote
_QUOTE = regex_programs.compile(r">[ \t]?(?=[ \t]*\S)|>[ \t]*$")

# a tqdm frame: optional description, percent, bar, counts, [elapsed<left, rate, postfix];
# a loop that redraws its bar more than once before its next line (an update, then
# `set_postfix`) leaves several frames, their carriage returns read as blanks, all dropped.
# Each frame is read once, from its description to its closing bracket, and never taken apart
# again (an atomic group): a description may hold any text, so without it a line of frames
# that no text follows (a process killed mid-bar, a bar `tqdm.write` cleared and redrew) is
# tried split every way and the match backtracks for minutes.
_FRAME = r"(?>[^|\n]{0,120}?\d{1,3}%\|[^|\n]{0,120}\|[^\[\]\n]{0,40}\[[^\[\]\n]{0,300}\])"
_PROGRESS = regex_programs.compile(rf"(?:{_FRAME}\s++){{0,8}}{_FRAME}(?=\S)")
# a frame whose postfix shows a loss or gradient norm that went non-finite (`8.4s/it,
# step_loss=nan]`): that frame is the news, so it is not dropped as a wrapper of the next line
_NONFINITE_POSTFIX = regex_programs.compile(
    r"(?:it/s|s/it),[^\]\n]*?(?<![\w.])(?:\w*loss|grad_?norm)=(?:nan|[-+]?inf)\b", re.I
)
_PYTEST_FAILURE = regex_programs.compile(r"E {3,}(?=\S)")
# one code span of one or two backticks that is the whole line, trailing blanks aside
_CODE_SPAN = regex_programs.compile(r"(`{1,2})(?!`)([^`]*[^`\s][^`]*?)\1\s*$")
_PROGRESS_DOTS = regex_programs.compile(r"\.{3,}(?=[^.\s])")


def peel_orphan_colour(line: ParsedLine, text: str) -> bool:
    """A colour code that lost its ESC byte: Ray colours each worker's tag, so the code
    stays with the writer's key."""
    return peel_writer(line, text, _ORPHAN_SGR)


def peel_quote(line: ParsedLine, text: str) -> bool:
    """A Markdown quote's mark: the line quoted keeps its own indent."""
    return peel_writer(line, text, _QUOTE)


def peel_code_span(line: ParsedLine, text: str) -> bool:
    """A Markdown code span around the whole line: the words inside are the line pasted."""
    found = _CODE_SPAN.match(text)
    if found:
        line.message = found.group(2).strip()
    return found is not None


def peel_pytest_failure(line: ParsedLine, text: str) -> bool:
    """pytest's marker of a failure's text: the test process is still the writer, so it
    stays out of the stream key."""
    found = _PYTEST_FAILURE.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def peel_progress(line: ParsedLine, text: str) -> bool:
    """A progress bar's last frame in front of the line a process wrote after it: the bar
    says how far a loop got, the text after it is what the process logged next."""
    if "%|" not in text[:160]:
        return False  # no bar near the line's start: the common case, decided cheaply
    if TORCHRUN.match(text):
        # a launcher's tag in front of the bar (`[default0]:Epoch 1:  17%|...`): the tag is
        # peeled first, else the bar's description would swallow it and the rank with it
        return False
    found = _PROGRESS.match(text)
    if found is None or _NONFINITE_POSTFIX.search(found.group(0)):
        return False
    line.message = text[found.end() :]
    return True


def peel_progress_dots(line: ParsedLine, text: str) -> bool:
    """A compiler's progress dots in front of the line a process wrote after them: the dots
    only say work went on, the text after them is the record."""
    found = _PROGRESS_DOTS.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None
