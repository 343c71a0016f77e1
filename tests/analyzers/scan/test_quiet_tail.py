"""scan.quiet_tail: a file with no error line keeps its last lines, bounded, for the bundle."""

from __future__ import annotations

from analyzers.core.types import Event, EventKind, FileInfo, FileKind, FileScan
from analyzers.scan.quiet_tail import (
    QUIET_TAIL,
    TAIL_BYTES,
    TAIL_LINES,
    TailBudget,
    last_lines,
    quiet_header,
)
from tests.analyzers.excerpts import scan_text

LOG = "job/log_0.log"


def _tail_of(text: str) -> list[tuple[int, str]]:
    return [(event.line, event.message) for event in scan_text(LOG, text).facts.get(QUIET_TAIL, [])]


def test_a_log_ending_on_a_line_with_no_error_word_keeps_that_line() -> None:
    text = "loading model\nXML Import Channel : dev 1 not found.\n"
    assert _tail_of(text)[-1] == (2, "XML Import Channel : dev 1 not found.")


def test_a_log_with_an_error_line_keeps_no_tail() -> None:
    assert _tail_of("loading model\nRuntimeError: CUDA error: out of memory\nbye\n") == []


def test_lines_logged_below_error_level_are_not_kept() -> None:
    text = (
        "2026-11-29 07:24:00,023 INFO train.py:12 epoch 1 done\n"
        "::16674:17023 [0] NCCL INFO Using network IB\n"
        "W1107 11:51:35.226593 564858 gpu_resources.cc:119] Please NOTE: device: 0\n"
    )
    assert _tail_of(text) == []


def test_lines_above_the_files_last_checkpoint_are_not_kept() -> None:
    text = "init process group: backend=gloo rank=1 timeout=120s\nlayer 0 done\nlayer 1 done\n"
    assert _tail_of(text) == []
    assert _tail_of(text + "dev 1 not found\n") == [(4, "dev 1 not found")]


def test_blank_lines_are_skipped_and_numbers_kept() -> None:
    assert last_lines([b"a\n\n   \nb\n"], 4) == [(1, b"a"), (4, b"b")]


def test_at_most_the_last_forty_lines_are_kept() -> None:
    block = b"".join(b"line %d\n" % n for n in range(1, 101))
    kept = last_lines([block], 100)
    assert len(kept) == TAIL_LINES
    assert kept[0] == (61, b"line 61")


def test_no_more_than_sixteen_kibibytes_are_kept() -> None:
    long = b"x" * 6000
    kept = last_lines([long + b"\n" + long + b"\n" + long + b"\n"], 3)
    assert [n for n, _ in kept] == [2, 3]
    assert sum(len(raw) + 1 for _, raw in kept) <= TAIL_BYTES


def test_a_tail_runs_on_into_the_block_before() -> None:
    kept = last_lines([b"one\ntwo\n", b"three\n"], 3)
    assert kept == [(1, b"one"), (2, b"two"), (3, b"three")]


def test_a_level_word_in_the_header_is_a_quiet_line() -> None:
    assert quiet_header("::16674:17023 [0] NCCL INFO NET/IB : Using [0]mlx5_an0:1/RoCE")
    assert not quiet_header("npu is busy, check again")


def _scan(path: str, *, tail: bool = False, error: bool = False) -> FileScan:
    info = FileInfo(path, FileKind.RANK_LOG, 0)
    events = [Event(file=path, line=1, text="x", kind=EventKind.ERROR)] if error else []
    facts = {QUIET_TAIL: [Event(file=path, line=2, text="y", kind=EventKind.ERROR)]} if tail else {}
    return FileScan(info=info, events=events, facts=facts)


def test_the_budget_drops_every_tail_once_a_file_holds_an_error_line() -> None:
    budget = TailBudget()
    quiet, failed, later = _scan("a", tail=True), _scan("b", error=True), _scan("c", tail=True)
    for scan in (quiet, failed, later):
        budget.take(scan)
    assert QUIET_TAIL not in quiet.facts
    assert QUIET_TAIL not in later.facts


def test_the_budget_keeps_the_tails_of_only_so_many_files() -> None:
    budget = TailBudget(max_files=2)
    scans = [_scan(str(n), tail=True) for n in range(3)]
    for scan in scans:
        budget.take(scan)
    assert [QUIET_TAIL in scan.facts for scan in scans] == [True, True, False]


def test_nccls_debug_header_after_a_long_host_name_is_quiet() -> None:
    """docs/labelling.md (a quiet end's tails): NCCL's `<host>:<pid>:<tid> [<dev>] NCCL INFO`
    header is known by its shape, however long a pod's host name pushes the level word."""
    pod = "infer-glm-fp8-deepep-worker-0-7c9d"
    assert quiet_header(f"{pod}:3310562:3314470 [5] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] -1/-1")
    assert quiet_header(f"{pod}:3310562:3314470 [5] NCCL INFO Channel 12/32 : 0 1")
    # counterexamples: NCCL's warnings, and a job's own words naming the library
    assert not quiet_header(f"{pod}:3310562:3314470 [5] NCCL WARN Call to connect returned Conn")
    assert not quiet_header(
        "the serving process stopped after its last set-up line: NCCL INFO Trees, then no batch"
    )
