"""The prefixes a log collector puts in front of every line a process wrote, as raw bytes.

`formats.wrappers` peels these off each parsed message (its docstring shows each one as real
collectors write it). A reader that looks at raw line bytes from the line's start instead (the
rank a tagged worker states in a file head, the glued lines of ranks sharing one stdout) puts
`OUTER` in front of its own pattern, so the same lines read the same behind any of them:

- a collector's own time (GitHub Actions, `kubectl logs --timestamps`);
- the system journal or syslog (`Dec 04 10:00:05 node7 python3[4121]: `);
- docker compose's service column (`trainer-1  | `);
- `srun --label`'s task number (` 3: `) and pdsh's host (`node7: `);
- Open MPI's `--tag-output` (`[1,3]<stderr>:`);
- a Ray actor's tag (`(RayWorkerWrapper pid=4121, ip=10.0.0.7) `, older releases `(pid=4121) `),
  and a cloud launcher's node tag in the same shape (`(worker1, rank=1, pid=4121, ip=10.0.0.7) `);
- a cluster scheduler's trial log (Determined: `[2025-03-02T08:14:51.120334Z] 3c9d01ab [rank=1] || `).

The sources stay within one line (no `\\s`), so a pattern built on them can run over a whole
block with `(?m)^`. `OUTER` matches nothing as well, so it never stops a plain line.
"""

from __future__ import annotations

from analyzers.formats import syslog

# Each of the next three is followed by one space, or by the end of a blank line of the stream
# (a reader that strips a line's end strips that space with it): `AFTER`.
AFTER = r"(?: |$)"
COLLECTOR_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)"
JOURNAL = syslog.TIME + r" ([A-Za-z0-9][\w.-]*) ([\w.@/-]+)(?:\[(\d+)\])?:"
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
            COLLECTOR_TIME + " ",
            JOURNAL + " ",
            _COMPOSE,
            _SRUN_LABEL,
            PDSH + " ",
            _MPI_TAG,
            _PROCESS_TAG,
            SCHEDULER_TRIAL + AFTER,
        )
    )
    + "))*"
).encode()
