"""What a log viewer or grep adds to each line when its text is copied out.

`formats.wrappers` peels these. A line number or an elapsed time changes on every line, so it
stays out of the writer's key: the lines it numbers still belong to one writer. A file name
(grep over several files) and a table row's time cell are kept (the writer's key, the
collector's time). Seen in real reports:

- grep over a plog directory: `/root/ascend/log/debug/plog/plog-7905_2024.log:[ERROR] RUNTIME(...)`
  (with `grep -n` also the line number: `plog-7905_2024.log:118:[ERROR] ...`)
- `grep -n` over one file, or line numbers pasted with a log: `118:[rank3]: Traceback ...`
  (only digits and a colon not followed by another digit, so `12:30:01` stays a time)
- a viewer's line numbers copied with the text (`cat -n`, an editor's gutter):
  `  1145\t[rank3]: RuntimeError: ...` - padded digits and a tab; an unpadded `0\t1\t2`
  is a row of data, not a number in front of a line
- a notebook platform's kernel log (Kaggle's, as a notebook's run exports it): the seconds since
  the session began and the output's line number, each closed by a tab, in front of every
  line the notebook's processes wrote: `704.7s\t1344\t[rank0]: RuntimeError: ...` - both change
  on every line, so like a gutter number they stay out of the writer's key; a time alone
  before a tab (`0.5s\tloss 0.31`) is a line of the process's own
- a log viewer's line numbers in brackets, copied with the text: `[80746] [rank0]:[E321 ...]
  ...` - only in front of torch's own rank tag (`[rankN]:`, `[defaultN]:`), which names the
  writer; a bracketed number before anything else (`[3] NCCL ...`, `[12345] [INFO] ...`)
  may be a rank or a pid and stays as written
- a row of a web log viewer's table copied as text (a cluster console, Grafana, Kibana):
  empty or marker cells, the record's time in a cell of its own, the record, the row's closing
  bar: `  |   | 2026-03-11 16:42:19.492 | [rank1]: RuntimeError: ... |` - the time is kept
  like a collector's (such viewers often list the newest record first, so a row's position
  is not the order in which the records were written)
"""

from __future__ import annotations

from analyzers.core import regex_programs
from analyzers.formats import outer_prefix
from analyzers.formats.base import ParsedLine, peel_writer

_GREP_FILE = regex_programs.compile(r"[^\s:]+\.(?:log|txt):(?:\d+:)?(?=\[)")

_GREP_LINE = regex_programs.compile(r"\d{1,7}:(?!\d)")

_VIEWER_LINE = regex_programs.compile(r" +\d{1,7}\t")
_KERNEL_LOG_LINE = regex_programs.compile(outer_prefix.KERNEL_LOG)

_BRACKETED_LINE = regex_programs.compile(
    r"\[\d{1,7}\] ?(?=\[(?:rank|" + outer_prefix.AGENT_ROLE + r")\d+\]:)"
)

_TABLE_ROW = regex_programs.compile(
    r"\s*(?:\|\s*)*(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)"
    r" +\| (.*?)\s*\|$"
)


def peel_grep_file(line: ParsedLine, text: str) -> bool:
    """grep's file name (and line number) before a CANN log's record: the file is the
    writer, since each plog file is one process's."""
    return peel_writer(line, text, _GREP_FILE)


def peel_line_number(line: ParsedLine, text: str) -> bool:
    """`grep -n`'s line number: like a gutter number it names no writer."""
    found = _GREP_LINE.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def peel_viewer_line_number(line: ParsedLine, text: str) -> bool:
    """A gutter number differs on every line, so unlike a writer's tag it stays out of the
    stream key: the lines it numbers still belong to one writer."""
    found = _VIEWER_LINE.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def peel_kernel_log_line(line: ParsedLine, text: str) -> bool:
    """A notebook platform's elapsed time and line number: both change on every line, so
    they stay out of the stream key, like a gutter number."""
    found = _KERNEL_LOG_LINE.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def peel_bracketed_line_number(line: ParsedLine, text: str) -> bool:
    """A viewer's bracketed line number before torch's rank tag: like a gutter number it
    changes on every line, so it stays out of the stream key; the tag after it names the
    writer."""
    found = _BRACKETED_LINE.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def peel_table_row(line: ParsedLine, text: str) -> bool:
    """A viewer's table row: only a row whose time cell comes before the record and whose bar
    closes it, so a loguru line (`<time> | ERROR | ...`, no closing bar) and tables of other
    data (npu-smi, launcher summaries: no time cell first) keep their own readings."""
    if text[-1:] != "|":
        return False  # no closing bar: the common case, decided cheaply
    found = _TABLE_ROW.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(1))
        line.message = found.group(2)
    return found is not None
