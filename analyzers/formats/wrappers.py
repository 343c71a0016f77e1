"""Prefixes that launchers and tools put in front of a process's own lines, peeled in rounds.

Seen in real reports, they nest (`2025-07-03T14:20:51.565Z [pod/trainer-0/pytorch]
(Worker pid=9) [rank3]: ...`), so up to six are peeled off a line, outermost first; each
peeler records what its prefix says (the rank, the pid, the host, the collector's time) and
adds the writer it names to `stream_key`. The prefixes, each with the lines it was read from,
are described where they are read:

- `formats/collector_stamps.py`: a collector's, a platform's or a relaying server's time
  (`kubectl logs --timestamps`, CRI log files, the journal, moreutils' `ts`, Jenkins,
  Determined's trial logs, TorchServe's relayed worker lines);
- `formats/launcher_tags.py`: the tags of launchers and multiplexers (torchrun and torch's
  rank tag, Open MPI, `srun --label`, pdsh, `kubectl logs --prefix`, CI runners, docker
  compose, vLLM-Omni's stages);
- `formats/process_tags.py`: Ray's, vLLM's and cloud launchers' process tags;
- `formats/viewer_marks.py`: what a viewer or grep adds (line numbers, file names, table rows);
- `formats/paste_marks.py`: what a paste or a terminal leaves (lost colour codes, Markdown
  quotes and code spans, pytest's marker, progress bars and dots).

The byte patterns readers use to look past these prefixes are `formats/outer_prefix.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from analyzers.formats.base import ParsedLine
from analyzers.formats.collector_stamps import (
    MONTH_INITIALS,
    peel_bracketed_time,
    peel_collector_time,
    peel_journal,
    peel_local_collector_time,
    peel_model_server_relay,
    peel_scheduler_trial,
    peel_ts_local_iso,
)
from analyzers.formats.launcher_tags import (
    peel_ci_bar,
    peel_ci_step,
    peel_compose,
    peel_host,
    peel_kubectl,
    peel_mpi_tag,
    peel_srun_label,
    peel_stage_tag,
    peel_torchrun,
)
from analyzers.formats.paste_marks import (
    peel_code_span,
    peel_orphan_colour,
    peel_progress,
    peel_progress_dots,
    peel_pytest_failure,
    peel_quote,
)
from analyzers.formats.process_tags import (
    drop_repeat_count,
    peel_bare_process_tag,
    peel_node_tag,
    peel_process_tag,
    peel_ray_daemon,
)
from analyzers.formats.viewer_marks import (
    peel_bracketed_line_number,
    peel_grep_file,
    peel_kernel_log_line,
    peel_line_number,
    peel_table_row,
    peel_viewer_line_number,
)

Peeler = Callable[[ParsedLine, str], bool]

_MAX_WRAPPERS = 6
# Prefixes that can only start with one character are tried only there (every parsed line
# goes through this loop); within a character, in the order that tells look-alikes apart
# (a collector's time before a program's own, a line number last).
_DIGIT = "0"  # any digit's key
_BY_FIRST_CHAR: dict[str, tuple[Peeler, ...]] = {
    ".": (peel_progress_dots,),
    _DIGIT: (
        peel_kernel_log_line,
        peel_collector_time,
        peel_ts_local_iso,
        peel_local_collector_time,
        peel_model_server_relay,
        peel_srun_label,
        peel_line_number,
    ),
    " ": (peel_viewer_line_number, peel_local_collector_time, peel_srun_label),
    "[": (
        peel_mpi_tag,
        peel_bracketed_line_number,
        peel_scheduler_trial,
        peel_bracketed_time,
        peel_kubectl,
        peel_ci_step,
        peel_torchrun,
        peel_orphan_colour,
        peel_stage_tag,
    ),
    "|": (peel_ci_bar,),
    "E": (peel_pytest_failure,),
    "`": (peel_code_span,),
    "(": (peel_process_tag, peel_bare_process_tag, peel_node_tag, peel_ray_daemon),
    "^": (peel_orphan_colour,),
    ">": (peel_quote,),
    **{initial: (peel_journal,) for initial in MONTH_INITIALS},
}
# Tried on every line last: their first character can be any of many.
_ANYWHERE_LAST: tuple[Peeler, ...] = (peel_grep_file, peel_compose, peel_host)
# Each first character's whole sequence, built once.
_PEELERS = {key: peelers + _ANYWHERE_LAST for key, peelers in _BY_FIRST_CHAR.items()}


def strip_wrappers(line: ParsedLine) -> None:
    """Peel wrappers off `line.message`, recording rank, pid and the writer's key."""
    for _ in range(_MAX_WRAPPERS):
        if not _peel_one(line):
            break
    drop_repeat_count(line)


def _peel_one(line: ParsedLine) -> bool:
    """Peel the outermost prefix the line starts with; False when it starts with none.
    A table row is told by its closing bar and a progress bar by its `%|`, wherever the line
    starts, so those two are tried first on every line (their cheap tests written here: this
    runs for every parsed line, and most have neither)."""
    text = line.message
    if text[-1:] == "|" and peel_table_row(line, text):
        return True
    if "%|" in text[:160] and peel_progress(line, text):
        return True
    first = text[:1]
    for peel in _PEELERS.get(_DIGIT if first.isdigit() else first, _ANYWHERE_LAST):
        if peel(line, text):
            return True
    return False
