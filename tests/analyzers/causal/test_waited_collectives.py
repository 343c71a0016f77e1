"""Per rank, the collective its wait was in: named by the innermost frame of the traceback
under its timeout, or, when too few ranks printed one, by the work its watchdog gave up on."""

from __future__ import annotations

from analyzers.causal.waited_collectives import frame_calls, innermost_frames, waited_calls
from analyzers.classify.matches import Classified
from analyzers.core.types import FileScan
from tests.analyzers.causal.timed_items import WATCHDOG, item
from tests.analyzers.excerpts import scan_text

C10D = "/srv/venv/lib/python3.11/site-packages/torch/distributed"
RECV_TIMEOUT = (
    "RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out "
    "waiting 10000ms for recv operation to complete"
)


def _traceback(call: str, line: int) -> str:
    return "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "/home/user/llm-infer/infer.py", line 94, in forward',
            f"    dist.{call}(out)",
            f'  File "{C10D}/distributed_c10d.py", line {line}, in {call}',
            "    work.wait()",
            RECV_TIMEOUT,
        ]
    )


def _waited(rank: int, call: str, line: int) -> tuple[Classified, FileScan]:
    """A rank's file whose last line is a timeout under a traceback ending in `call` (named
    as `timed_items.item` names the file of its line)."""
    scan = scan_text(f"job/file_{rank}.log", _traceback(call, line) + "\n")
    error = next(event for event in scan.events if event.message == RECV_TIMEOUT)
    return item(RECV_TIMEOUT, rank=rank, order=rank, line=error.line), scan


def test_the_innermost_frame_is_kept_for_the_exception_line_under_it():
    _, scan = _waited(2, "all_gather", 4287)
    frames = innermost_frames(scan)
    assert frames[6].endswith('distributed_c10d.py", line 4287, in all_gather')


def test_each_rank_is_read_at_the_collective_its_frames_name():
    pairs = [_waited(0, "all_reduce", 3252), _waited(1, "barrier", 5356)]
    items, scans = [i for i, _ in pairs], [s for _, s in pairs]
    assert frame_calls(items, scans) == {0: "all_reduce", 1: "barrier"}


def test_without_tracebacks_the_watchdogs_work_types_name_the_collectives():
    items = [item(WATCHDOG.format(rank=r), rank=r, order=r) for r in range(4)]
    assert waited_calls(items, []) == dict.fromkeys(range(4), "ALLREDUCE")


def test_frames_of_enough_ranks_are_never_mixed_with_work_types():
    pairs = [_waited(r, "all_reduce", 3252) for r in range(3)]
    watchdog = item(WATCHDOG.format(rank=3), rank=3, order=3)
    items = [*(i for i, _ in pairs), watchdog]
    assert waited_calls(items, [s for _, s in pairs]) == dict.fromkeys(range(3), "all_reduce")
