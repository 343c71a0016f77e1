"""A failure NCCL's own thread warned of before its proxy restated it.

NCCL has no error level: every failure it reports is a `NCCL WARN` line, and only some of
them carry a word such as "failed". The thread that hits a failure logs its reason first
(`socketFinalizeAccept: wrong type 4 != 3`), then its `-> N` return codes, and the proxy
service running on that thread restates it as an operation that failed (`[Proxy Service 2]
Failed to execute operation Connect from rank 2, retcode 3`). The restatement reads as an
error and the reason as a warning, so the restatement would lead; both come from one thread
(`host:pid:tid`), and the reason, which came first, is the first error::

    gpu-a:16901:16967 [2] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 4 != 3
    gpu-a:16901:16967 [2] proxy.cc:1519 NCCL WARN [Proxy Service 2] Failed to execute ...
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.classify.matches import Classified
from analyzers.core import regex_programs

# NCCL's line prefix: host, pid and thread id, then the device in brackets.
_THREAD = regex_programs.compile(r"^(?:\[\d+\] )?(?P<thread>[\w.-]+:\d+:\d+) \[\d+\] ")
_NCCL_WARN = regex_programs.compile(r"\bNCCL WARN\b")


def thread_warned_first(first: Classified, ordered: Sequence[Classified]) -> Classified | None:
    """The earliest cause NCCL warned of on the thread whose later symptom line is `first`,
    in the same file and before it; None when `first` is no NCCL symptom line."""
    thread = _nccl_thread(first)
    if thread is None or first.best is None or first.best.signature.role != "symptom":
        return None
    for item in ordered:
        if item is first:
            return None
        if _is_cause_of_thread(item, thread, first):
            return item
    return None


def _is_cause_of_thread(item: Classified, thread: str, first: Classified) -> bool:
    return (
        not item.demoted
        and item.best is not None
        and item.best.signature.role == "cause"
        and item.event.file == first.event.file
        and item.event.line < first.event.line
        and _nccl_thread(item) == thread
    )


def _nccl_thread(item: Classified) -> str | None:
    text = item.event.text
    if _NCCL_WARN.search(text) is None:
        return None
    found = _THREAD.match(text.strip())
    return found["thread"] if found else None
