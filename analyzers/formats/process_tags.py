"""The tags Ray, vLLM and cloud launchers put in front of the lines of the processes they run.

`formats.wrappers` peels these; the process (its name and pid) is the writer, and a worker's
name can say its rank (`timeline/worker_ranks.py` settles the others for the whole bundle).
Seen in real reports:

- Ray and vLLM process tags: `(Worker_DP0_TP5_EP5 pid=270) ...`, `(WorkerDict pid=7435, ip=1.2.3.4) ...`,
  `(VllmWorker rank=2 pid=15632) ...`, Ray's own `(raylet) ...` / `(raylet, ip=1.2.3.4) ...`; pasted
  logs sometimes split a name (`(EngineCore _DP3 pid=274)`). Ray releases before actors were
  named in the tag print the worker's pid alone (`(pid=40211) ...`, `(pid=4121, ip=10.0.0.7)
  ...`): the process is the writer, but no name says which worker it is
- a cloud job launcher's node tag (SkyPilot), the node's name and its node rank before the pid
  of the command it ran there: `(head, rank=0, pid=5634) ...`, `(worker1, rank=1, pid=4888,
  ip=10.60.0.4) ...` (older releases `(node-0 pid=26831) ...`, the Ray tag's shape). The rank is
  the node's place in the cluster, not a process's rank, so it names no rank of the job
- Ray's log deduplication, which prints a line once with a count for the copies it dropped:
  `... [repeated 7x across cluster]` - the count goes, so the line reads as its copies do
"""

from __future__ import annotations

import re

from analyzers.core import regex_programs
from analyzers.formats.base import ParsedLine, peel_writer
from analyzers.formats.worker_tags import process_tag, rank_of

_PROCESS_TAG = regex_programs.compile(
    r"\(([A-Za-z_][\w.:-]*(?: [A-Za-z_][\w.:-]*)?)(?: rank=(\d+))? pid=(\d+)(?:, ip=[^)]*)?\)\s?"
)
_BARE_PROCESS_TAG = regex_programs.compile(r"\(pid=(\d+)(?:, ip=[^)]*)?\) ?")
# a cloud launcher's node tag: node name, node rank (not a process's rank), pid, optional address
_NODE_TAG = regex_programs.compile(
    r"\((head|worker\d{1,5}), rank=(\d+), pid=(\d+)(?:, ip=[^)]*)?\) ?"
)
_RAY_DAEMON = regex_programs.compile(r"\((raylet|gcs_server|dashboard_agent)(?:, ip=[^)]*)?\)\s?")
_REPEATED = regex_programs.compile(r"\s*\[repeated \d+x across cluster\]$")


def peel_process_tag(line: ParsedLine, text: str) -> bool:
    """A Ray or vLLM worker's tag, named: see `_take_process`."""
    found = _PROCESS_TAG.match(text)
    if found:
        _take_process(line, found)
    return found is not None


def _take_process(line: ParsedLine, found: re.Match[str]) -> None:
    """A Ray/vLLM process tag: its pid, and the rank its worker indices name alone (the
    others are settled for the whole bundle by `analyzers.timeline.worker_ranks`). Behind
    Open MPI's tag the worker's own tag decides: mpirun started the process that spawned the
    worker, so MPI's rank is that process's, not the worker's."""
    name, rank, pid = found.groups()
    line.pid = int(pid)
    line.tags["process"] = name
    line.tags["process_pid"] = pid
    line.stream_key += f"({name} {pid})"
    line.message = line.message[found.end() :]
    tag = process_tag(name, rank, pid)
    if tag is not None:
        line.tags["worker"] = tag
        if line.rank is None or "mpi_rank" in line.tags:
            line.rank = rank_of(tag, None)


def peel_bare_process_tag(line: ParsedLine, text: str) -> bool:
    """An unnamed Ray worker's tag: its pid, and the process as the writer."""
    found = _BARE_PROCESS_TAG.match(text)
    if found:
        line.pid = int(found.group(1))
        line.stream_key += f"(pid {found.group(1)})"
        line.message = text[found.end() :]
    return found is not None


def peel_node_tag(line: ParsedLine, text: str) -> bool:
    """A cloud launcher's node tag: the pid of the command it ran on that node, and the node
    (name and node rank) as the writer; the node rank is no rank of the job's processes."""
    found = _NODE_TAG.match(text)
    if found:
        name, node_rank, pid = found.groups()
        line.pid = int(pid)
        line.tags["process"] = name
        line.tags["node_rank"] = node_rank
        line.stream_key += f"({name} {pid})"
        line.message = text[found.end() :]
    return found is not None


def peel_ray_daemon(line: ParsedLine, text: str) -> bool:
    """One of Ray's own daemons (`(raylet)`): the daemon is the writer."""
    return peel_writer(line, text, _RAY_DAEMON)


def drop_repeat_count(line: ParsedLine) -> None:
    """Ray's count of the copies it folded into this line: the line reads as each copy."""
    if line.message.endswith("cluster]"):
        line.message = _REPEATED.sub("", line.message)
