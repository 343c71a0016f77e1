"""The prefixes a log collector puts in front of every line a process wrote, as raw bytes.

`formats.wrappers` peels these off each parsed message (`formats.collector_stamps`,
`formats.launcher_tags`, `formats.process_tags` and `formats.viewer_marks` show each one as real
collectors write it). A reader that looks at raw line bytes from the line's start instead (the
rank a tagged worker states in a file head, the glued lines of ranks sharing one stdout) puts
`OUTER` in front of its own pattern, so the same lines read the same behind any of them:

- a collector's own time (GitHub Actions, `kubectl logs --timestamps`), also in brackets
  (Jenkins' Timestamper: `[2025-03-02T08:14:51.120Z] `);
- a container runtime's log file (CRI: containerd, CRI-O), the time, the stream and whether the
  record is whole (`F`) or a part of a longer line (`P`):
  `2025-03-02T08:14:51.120334567Z stderr F `;
- `kubectl logs --prefix`, the pod and container a line came from: `[pod/trainer-0/pytorch] `;
- a CI runner's step output (nektos/act, GitHub Actions run locally): the job's name and a bar
  (`[CI/train]   | `), or on a terminal the bar alone in the job's colour (`\x1b[34m|\x1b[0m `);
- moreutils' `ts` in its default format, the time alone (`Dec 04 10:00:05 `), or with an ISO
  format, the local time with or without its zone (`ts '%Y-%m-%dT%H:%M:%.S'`:
  `2026-03-01T10:22:33.120334 `, `ts '%FT%T%z'`: `2026-03-01T10:22:33+0800 `);
- the system journal or syslog (`Dec 04 10:00:05 node7 python3[4121]: `), also with rsyslog's
  high-precision time (`2025-03-02T08:14:51.120334+00:00 node7 python3[4121]: `);
- docker compose's service column (`trainer-1  | `);
- `srun --label`'s task number (` 3: `) and pdsh's host (`node7: `);
- Open MPI's `--tag-output` (`[1,3]<stderr>:`);
- a Ray actor's tag (`(RayWorkerWrapper pid=4121, ip=10.0.0.7) `, older releases `(pid=4121) `),
  and a cloud launcher's node tag in the same shape (`(worker1, rank=1, pid=4121, ip=10.0.0.7) `);
- a cluster scheduler's trial log (Determined: `[2025-03-02T08:14:51.120334Z] 3c9d01ab [rank=1] || `);
- a notebook platform's kernel log, the seconds since the session began and the output's line
  number, each closed by a tab (Kaggle: `704.7s\t1344\t`).

The sources stay within one line (no `\\s`), so a pattern built on them can run over a whole
block with `(?m)^`. `OUTER` matches nothing as well, so it never stops a plain line.
"""

from __future__ import annotations

import re

from analyzers.core import regex_programs
from analyzers.formats import syslog

# The name in torchrun's tag on a line it copies from a local rank, `[<role><local rank>]:`:
# `default` unless the launch named a role (`--role trainer` tags `[trainer3]:`). A role is a
# lowercase name; torch's own `[rankN]:` (a global rank) and the counters a program may print
# in brackets (`[epoch1]:`, `[step20]:`, `[layer3]:`, `[node1]:`) are not roles.
AGENT_ROLE = (
    r"(?:default|(?!(?:rank|epoch|step|iter|iteration|layer|batch|node|host|stage|gpu|npu"
    r"|device)\d)[a-z][a-z0-9_-]{0,31}?)"
)
# The whole tag, and the same over raw bytes for the readers that search a block before it is
# parsed (a file head's hints, glued copies, an error storm's key).
AGENT_TAG = r"\[" + AGENT_ROLE + r"\d{1,6}\]:"
AGENT_ROLE_BYTES = AGENT_ROLE.encode()
AGENT_TAG_BYTES = AGENT_TAG.encode()
# What `match_behind` looks for where a tag may start: a role is any name, so only its bracket.
AGENT_TAG_LITERALS = ("[",)

# Each of the next three is followed by one space, or by the end of a blank line of the stream
# (a reader that strips a line's end strips that space with it): `AFTER`.
AFTER = r"(?: |$)"
# moreutils' `ts` with an ISO format and no zone (`ts '%Y-%m-%dT%H:%M:%.S'`, `ts '%FT%T'`): the
# local time alone, which a program's own logging header can also open with
# (`formats.collector_stamps` tells them apart by what follows)
LOCAL_ISO_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?"
COLLECTOR_TIME = LOCAL_ISO_TIME + r"(?:Z|[+-]\d\d:?\d\d)"
# the program is a name: a number before the colon is a line's own count behind moreutils' `ts`
# (`Mar 02 08:14:51 layer 2: norm done`, `... step 12: loss 0.3`), not a host and program
JOURNAL = syslog.TIME + r" ([A-Za-z0-9][\w.-]*) ((?!\d+[\[:])[\w.@/-]+)(?:\[(\d+)\])?:"
# rsyslog's file format with its high-precision time (RSYSLOG_FileFormat, the default of current
# Debian and Ubuntu): the host, and the program with its pid, which this form always requires
# (a time, a level and a logger name, `...Z INFO root: ...`, is a program's own header)
JOURNAL_PRECISE = r"(" + COLLECTOR_TIME + r") ([A-Za-z0-9][\w.-]*) ([\w.@/-]+)\[(\d+)\]:"
# Jenkins' Timestamper: the time a line reached the console, in brackets. Only with its zone: a
# program's own bracketed time has none (DeepSpeed's `[2025-03-02 08:14:51,120] [ERROR] ...`) or
# shares the brackets with a level (Rust's env_logger: `[2025-03-02T08:14:51Z ERROR trainer] `).
BRACKETED_TIME = r"\[(" + COLLECTOR_TIME + r")\]"
# A container runtime's log file (the CRI format of containerd and CRI-O, what
# `/var/log/pods/.../0.log` holds): the time, the stream, and `F` for a whole line or `P` for
# a part of one the runtime split.
CRI = r"(" + COLLECTOR_TIME + r") (stdout|stderr) [FP]"
# `kubectl logs --prefix`: the pod's and the container's names (DNS labels).
KUBECTL = r"\[pod/([a-z0-9][a-z0-9.-]{0,252})/([a-z0-9][a-z0-9-]{0,62})\]"
# nektos/act's lines of a step's output: `[<workflow>/<job>]   | ` (three spaces), coloured on a
# terminal as the bar alone: ESC[<colour>m|ESC[0m and a space. A bare number in the brackets
# is a writer's thread id (a CANN plog header's `[107626]`, then a table HCCL draws), no job
CI_STEP = r"\[(?!\d+\])([^\[\]\n]{1,200})\]   \|"
_CI_STEP_COLOURED = r"\x1b\[\d{1,3}m\|\x1b\[0m "
# pdsh names the host: a name ending in `-N` (hyphens inside too, as clusters and clouds name
# them: `gpu-node-07`, `ip-172-31-8-5`), an address, `localhost`, or a host stem with its
# number (`node7`, `gpu01.cluster`); any other word with a digit and a colon (`layer3: ok`,
# `step12: loss`) is a line of the process's own, and so is a server's request tag in the same
# shape (`req-3: prefill passed`, `request-12: ...`)
PDSH = (
    r"(?![Rr][Ee][Qq](?:[Uu][Ee][Ss][Tt])?(?:[-_]?[Ii][Dd])?[-_]\d+:)"
    r"([A-Za-z][\w.-]*-\d+|\d{1,3}(?:\.\d{1,3}){3}|localhost"
    r"|(?:node|host|gpu|npu|worker|compute|server|dgx|master|trainer)[-_]?\d+(?:[-.][\w-]+)*):"
)
PDSH_BYTES = PDSH.encode()
_COMPOSE = r"[A-Za-z][\w.-]*[ \t]+\|[ \t]"
_SRUN_LABEL = r" {0,4}\d{1,5}: "
_MPI_TAG = r"\[\d+,\d+\]<(?:stdout|stderr|stddiag)>:"
# A scheduler that stores each container's output with its own time, the container's short id
# and, for a training process, the rank its launcher gave it (Determined's trial logs); the
# launcher's own lines in the same container carry no rank.
SCHEDULER_TRIAL = r"\[(" + COLLECTOR_TIME + r")\] (?:([0-9a-f]{6,64}) )?(?:\[rank=(\d+)\] )?\|\|"
_PROCESS_TAG = (
    r"\((?:[A-Za-z_][\w.:-]*(?: [A-Za-z_][\w.:-]*)?(?: rank=\d+)? |(?:head|worker\d{1,5}), rank=\d+, )?"
    r"pid=\d+(?:, ip=[^)\n]*)?\) ?"
)


# A notebook platform's kernel log (Kaggle's): the seconds since the session began, to the
# tenth, and the output's line number, each closed by a tab (the last tab is the line's end
# when the notebook printed a blank line).
KERNEL_LOG = r"\d{1,7}(?:\.\d{1,3})?s\t\d{1,9}(?:\t|$)"


def _uncaptured(source: str) -> str:
    """`source` with its groups made non-capturing (a lookahead `(?!` stays one)."""
    kept = source.replace("(?!", "\0")
    plain = kept.replace("(?:", "(").replace("(", "(?:").replace(r"\(?:", r"\(")
    return plain.replace("\0", "(?!")


OUTER: bytes = (
    "(?:(?:"
    + "|".join(
        _uncaptured(source)
        for source in (
            CRI + AFTER,
            JOURNAL_PRECISE + " ",
            COLLECTOR_TIME + " ",
            BRACKETED_TIME + AFTER,
            LOCAL_ISO_TIME + " ",
            KUBECTL + " ",
            CI_STEP + AFTER,
            _CI_STEP_COLOURED,
            JOURNAL + " ",
            syslog.TIME + " ",
            _COMPOSE,
            _SRUN_LABEL,
            PDSH + " ",
            _MPI_TAG,
            _PROCESS_TAG,
            SCHEDULER_TRIAL + AFTER,
            KERNEL_LOG,
        )
    )
    + "))*"
).encode()


# The same prefixes over a decoded line (`Event.text`: colour codes dropped), where a CI runner's
# coloured bar is left as a bare `| ` in front of them.
_OUTER_TEXT = regex_programs.compile(r"(?:\| )?" + OUTER.decode())


def match_behind(
    pattern: re.Pattern[str], text: str, literals: tuple[str, ...]
) -> re.Match[str] | None:
    """`pattern` matched at the start of a decoded line, or else right after the collector's
    prefix in front of it. The prefix is only looked for when the line holds one of `literals`
    (what `pattern` starts with), after its first character, at the first few places it occurs,
    so a line that matches as it stands, or holds none of them, costs what `pattern.match`
    costs."""
    found = pattern.match(text)
    if found is None:
        for literal in literals:
            start = text.find(literal, 1)
            for _ in range(_PLACES_TRIED):
                if start <= 0:
                    break
                if _OUTER_TEXT.fullmatch(text, 0, start):
                    return pattern.match(text, start)
                start = text.find(literal, start + 1)
    return found


# How many places of a literal `match_behind` tries: a prefix can itself hold the literal
# (the journal's `python[4121]: ` before a `[trainer0]:` tag), but a few suffice.
_PLACES_TRIED = 4
