"""Where a later attempt of a restarted job begins in a file every attempt wrote into.

Example: torchrun's console without `--log-dir` (the workers inherit it) holds attempt 0's
error, the agent's report of the failed child, then every rank's first checkpoint again.
Example: a retry loop appends the new attempt to the same `log_<rank>.log`. Counterexamples:
a first checkpoint that every request prints again with no error between, and an error the
rank logged and then carried on after without starting over.
"""

from __future__ import annotations

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.restarts import progress_restart_lines, restart_lines
from tests.analyzers.excerpts import scan_text
from tests.analyzers.job_bundles import pack

RUN = ["load weights passed", "prefill start: 8 tokens", "  norm passed", "  attention passed"]
REPORT = (
    "E1204 20:50:10.377000 31016 torch/distributed/elastic/multiprocessing/api.py:1002] "
    "failed (exitcode: 1) local_rank: 1 (pid: 31037) of binary: /usr/bin/python3"
)
SHAPE = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 8x8)"


def _logged(rank: int, lines: list[str]) -> list[str]:
    return [f"2026-12-04 20:50:08,{600 + i:03d} [rank{rank}] INFO {t}" for i, t in enumerate(lines)]


def _console(*attempts: list[str]) -> str:
    return "".join(line + "\n" for attempt in attempts for line in attempt)


def test_a_console_shared_by_two_attempts_is_cut_after_the_agents_report() -> None:
    first = [*_logged(0, RUN), *_logged(1, RUN[:3]), f"[rank1]: {SHAPE}", REPORT]
    second = [*_logged(0, RUN), *_logged(1, RUN)]
    scan = scan_text("job/output.log", _console(first, second))
    assert restart_lines(scan) == [len(first) + 1]


def test_a_log_appended_by_a_retry_loop_is_cut_where_the_rank_starts_over() -> None:
    text = _console(RUN[:3], ["Traceback (most recent call last):", SHAPE], RUN)
    scan = scan_text("job/log_1.log", text)
    assert restart_lines(scan) == [6]


def test_a_first_checkpoint_printed_for_every_request_is_no_restart() -> None:
    requests = ["prefill start: 8 tokens", "  norm passed", "model run success"] * 3
    text = _console(requests[:3], requests[3:6], [f"ERROR request 7 failed: {SHAPE}"], requests[6:])
    assert restart_lines(scan_text("job/log_0.log", text)) == []


def test_an_error_the_rank_carried_on_after_is_no_restart() -> None:
    text = _console(RUN[:2], [f"ERROR {SHAPE}"], RUN[2:])
    assert restart_lines(scan_text("job/log_0.log", text)) == []


def test_a_traceback_above_another_ranks_flushed_block_is_no_restart() -> None:
    """torchrun --tee writes each worker's output into its console as the pipe is flushed:
    rank 1 failed in its evaluation and its traceback came out before rank 3's whole block,
    in which rank 3 goes through its layers once and prints `norm passed` at each of them."""
    layers = [
        f"[default3]:{text}"
        for i in range(3)
        for text in ("  norm passed", "  attention passed", "  MoE passed", f"layer {i} passed")
    ]
    text = _console(
        ["[default1]:  norm passed", "[default1]:  attention passed", "[default1]:layer 0 passed"],
        ["[default1]:Traceback (most recent call last):", "[default1]:ValueError: bad eval batch"],
        ["[default3]:prefill start", *layers, "[default3]:waiting for rank 1 (eval)"],
    )
    assert restart_lines(scan_text("job-5c1e/launcher.log", text)) == []


def test_a_rank_whose_first_checkpoint_repeats_in_every_layer_is_cut_after_the_report() -> None:
    """torchrun --tee with plain prints: the first checkpoint a rank prints is `  norm passed`,
    which comes again in every layer, so the rank loops before it fails; the agent's report of
    the failed child still says the next `  norm passed` is the next attempt's."""
    layer = ["  norm passed", "  attention passed", "  MoE passed"]
    first = [
        "[default0]:prefill start: 8 tokens",
        *[f"[default0]:{t}" for t in [*layer, "layer 0 passed", "  norm passed"]],
        "[default0]:[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/"
        "transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:11137.",
        REPORT.replace("local_rank: 1", "local_rank: 3"),
    ]
    second = [
        "[default0]:init process group: backend=gloo rank=0 world_size=4 attempt=1",
        "[default0]:prefill start: 8 tokens",
        *[f"[default0]:{t}" for t in layer],
    ]
    scan = scan_text("sft_run/output.txt", _console(first, second))
    assert restart_lines(scan) == [len(first) + 1]


CONNECT_REFUSED = (
    "[default6]:[E1205 02:26:20.105779929 ProcessGroupGloo.cpp:67] Gloo connectFullMesh failed "
    "with [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:152] timed out "
    "connecting: SO_ERROR: Connection refused, remote=[127.0.0.1]:41874$6"
)


def _decode_console(rank: int, steps: int) -> list[str]:
    lines = [f"[default{rank}]:2026-12-05 02:26:10,{rank:03d} [rank{rank}] INFO prefill passed"]
    for step in range(steps):
        for part in ("  norm passed", "  attention passed", "  MoE passed", "layer 0 passed"):
            lines.append(f"[default{rank}]:2026-12-05 02:26:11,{step:03d} [rank{rank}] INFO {part}")
        lines.append(
            f"[default{rank}]:2026-12-05 02:26:11,{step:03d} [rank{rank}] INFO "
            f"decode step {step} passed"
        )
    return lines


def test_a_restarted_group_that_died_before_any_checkpoint_is_cut_after_the_first_report() -> None:
    """torchrun --max-restarts 1 --tee 3, the console kept: attempt 0 ends with a rank's
    SIGSEGV and the agent's report; attempt 1's ranks fail to connect to the addresses left in
    the store and print no checkpoint, then the same agent (pid 10157) reports again."""
    segv = REPORT.replace("31016", "10157").replace(
        "exitcode: 1) local_rank: 1", "exitcode: -11) local_rank: 4"
    )
    first = [*_decode_console(0, 3), *_decode_console(6, 3), segv]
    second = [
        "[default6]:2026-12-05 02:26:18,801 [rank6] INFO init process group: backend=gloo rank=6",
        CONNECT_REFUSED,
        f"[default6]:RuntimeError: {CONNECT_REFUSED.split('] ', 1)[1]}",
        REPORT.replace("31016", "10157").replace("local_rank: 1", "local_rank: 0"),
    ]
    scan = scan_text("elastic-decode/console.log", _console(first, second))
    assert restart_lines(scan) == [len(first) + 1]


def test_reports_of_two_agents_in_one_console_are_no_restart() -> None:
    """Two nodes' agents whose output was gathered into one file each report their own
    group's failed child once: different pids, one run."""
    first = [*_decode_console(0, 2), "[default0]:[rank0]: RuntimeError: boom"]
    reports = [REPORT, REPORT.replace("31016", "31544").replace("local_rank: 1", "local_rank: 0")]
    scan = scan_text("job/all_nodes.log", _console(first, reports))
    assert restart_lines(scan) == []


def _started(rank: int, attempt: int, second: int) -> str:
    return (
        f"2026-12-05 13:18:{second:02d},022 [rank{rank}] INFO init process group: backend=gloo "
        f"rank={rank} world_size=4 master=localhost:35005 timeout=6s attempt={attempt}"
    )


TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78]"
    " Timed out waiting 6000ms for recv operation to complete"
)


def test_an_appended_log_is_cut_where_the_rank_starts_again_without_a_word_or_a_checkpoint() -> (
    None
):
    """torchrun --max-restarts 1, the job logging to its own `log_1.log` in append mode: rank 1
    stalled and was stopped by the agent (no error in its file), and the new attempt never got
    past `init_process_group`: only the start line says the second process began."""
    text = _console(
        [_started(1, 0, 14), *_logged(1, RUN)],
        [_started(1, 1, 28)],
    )
    assert restart_lines(scan_text("job/log_1.log", text)) == [len(RUN) + 2]


def test_a_start_line_again_is_cut_once_with_the_repeated_first_checkpoint() -> None:
    """The same kind of file where the rank timed out and the new attempt ran again: one cut,
    at the start line, not a second one at the repeated first checkpoint."""
    first = [_started(0, 0, 14), *_logged(0, RUN), "2026-12-05 13:18:20,831 [rank0] ERROR failed"]
    first.append(TIMEOUT)
    text = _console(first, [_started(0, 1, 28), *_logged(0, RUN)])
    assert restart_lines(scan_text("job/log_0.log", text)) == [len(first) + 1]


def test_a_status_line_that_repeats_the_sizes_is_no_restart() -> None:
    """Counterexamples: a line that states the sizes again with no start word (a periodic
    status line), and a start-worded line after which the rank's progress goes on where it
    was (a second group joined mid-run), are the same process."""
    status = "2026-12-05 13:18:14,100 [rank1] INFO status rank=1 world_size=4 healthy"
    text = _console([status, *_logged(1, RUN)], [status, *_logged(1, RUN[2:])])
    assert restart_lines(scan_text("job/log_1.log", text)) == []
    joined = "2026-12-05 13:18:15,100 [rank1] INFO init expert group: rank=1 world_size=4"
    text = _console([joined, *_logged(1, RUN)], [joined, *_logged(1, ["layer 1 passed"])])
    assert restart_lines(scan_text("job/log_1.log", text)) == []


def test_start_lines_of_several_ranks_in_one_file_are_no_restart() -> None:
    """Counterexample: every rank's start line in one shared file (`job.log`) is one run."""
    text = _console([_started(0, 0, 14), _started(1, 0, 14)], _logged(0, RUN), _logged(1, RUN))
    assert restart_lines(scan_text("job/job.log", text)) == []


def test_a_log_appended_by_a_hundred_attempts_is_cut_where_each_begins() -> None:
    """A retry loop that restarted the job 99 times into the same `log_0.log`: the last cut
    is where the last attempt, the one the rank's checkpoints are read from, begins."""
    attempts = [[_started(0, attempt, 14), *_logged(0, RUN)] for attempt in range(100)]
    text = _console(*attempts)
    size = len(RUN) + 1
    assert restart_lines(scan_text("job/log_0.log", text)) == [
        attempt * size + 1 for attempt in range(1, 100)
    ]


def test_a_rank_that_starts_a_group_every_step_is_still_cut_where_it_starts_again() -> None:
    """Start-worded lines of another text (a group the rank sets up at every step) are no
    start of the process, however many there are: the process's own start line again still
    marks the next attempt."""
    joined = "2026-12-05 13:18:15,100 [rank1] INFO init expert group: rank=1 world_size=4"
    steps = [line for _ in range(100) for line in (joined, *_logged(1, ["layer 1 passed"]))]
    first = [_started(1, 0, 14), *_logged(1, RUN), *steps]
    text = _console(first, [_started(1, 1, 28), *_logged(1, RUN)])
    assert restart_lines(scan_text("job/log_1.log", text)) == [len(first) + 1]


def _teed(rank: int, attempt: int, parts: list[str]) -> list[str]:
    """A rank's logging lines as torchrun --tee copies them into its console."""
    lines = [
        f"[default{rank}]:2026-12-05 20:46:{20 + 6 * attempt}.007 [rank{rank}] INFO init process "
        f"group: backend=gloo rank={rank} world_size=4 attempt={attempt}",
        f"[default{rank}]:2026-12-05 20:46:{20 + 6 * attempt}.010 [rank{rank}] INFO prefill start",
    ]
    return lines + [
        f"[default{rank}]:2026-12-05 20:46:{20 + 6 * attempt}.0{i:02d} [rank{rank}] INFO {part}"
        for i, part in enumerate(parts)
    ]


LAYERS = [
    p
    for i in range(4)
    for p in ("  norm passed", "  attention passed", "  MoE passed", f"layer {i} passed")
]
KEY_ERROR = [
    "[default0]:[rank0]: Traceback (most recent call last):",
    '[default0]:[rank0]:     _ = cfg["moe_capacity_factor"]',
    "[default0]:[rank0]: KeyError: 'moe_capacity_factor'",
]


def test_a_console_whose_output_came_after_its_reports_is_cut_where_the_ranks_start_again() -> None:
    """Real run: `torchrun --max-restarts 1 --tee 3 ... > launcher.log 2>&1`. torchrun's own
    stdout is a file, so its copies of the ranks' stdout wait in its buffer while the ranks'
    tracebacks and the agent's reports (stderr) are written at once: both attempts' KeyError
    and the first report stand above attempt 0's progress. The ranks' start lines again are
    where attempt 1's progress begins; the two reports of one agent do not put that cut above
    them. The error lines came on stderr in order with the reports: the report cuts them."""
    report = REPORT.replace("local_rank: 1", "local_rank: 0")
    head = [*KEY_ERROR, report, *KEY_ERROR]
    attempt0 = [line for r in range(4) for line in _teed(r, 0, [*LAYERS, "  norm passed"])]
    attempt0.append("[default0]:2026-12-05 20:46:20.104 [rank0] ERROR model run failed: 'moe'")
    attempt1 = [line for r in range(4) for line in _teed(r, 1, [*LAYERS, "  norm passed"])]
    text = _console(head, attempt0, attempt1, [report.replace("20:50:10", "20:50:28")])
    scan = scan_text("job-xg05/launcher.log", text)
    assert progress_restart_lines(scan) == [len(head) + len(attempt0) + 1]
    assert restart_lines(scan) == [len(KEY_ERROR) + 2]


def test_a_console_rank_that_states_its_start_again_and_goes_on_is_no_restart() -> None:
    """Counterexample: in a console of four ranks, rank 2 logs its start line again while its
    progress goes on where it was (a second group joined mid-run with the same words), and
    rank 3 fails after it without a restart: one run."""
    first = [line for r in range(4) for line in _teed(r, 0, LAYERS[:8])]
    again = _teed(2, 0, [])[:1] + [
        f"[default2]:2026-12-05 20:46:21.000 [rank2] INFO {part}"
        for part in ("  norm passed", "  attention passed", "  MoE passed", "layer 2 passed")
    ]
    later = [
        "[default3]:[rank3]: RuntimeError: mat1 and mat2 shapes cannot be multiplied",
        "[default2]:2026-12-05 20:46:21.100 [rank2] INFO   attention passed",
    ]
    text = _console(first, again, later)
    assert progress_restart_lines(scan_text("job/launcher.log", text)) == []


def test_the_ranks_of_such_a_console_stop_where_the_last_attempt_stopped(tmp_path) -> None:
    """The same console as a bundle: every rank's last checkpoint is attempt 1's (layer 4's
    norm), not a count over both attempts' lines, and the first error is attempt 0's KeyError."""
    report = REPORT.replace("local_rank: 1", "local_rank: 0")
    second = [line for r in range(4) for line in _teed(r, 1, [*LAYERS, "  norm passed"])]
    text = _console(
        [*KEY_ERROR, report, *KEY_ERROR],
        [line for r in range(4) for line in _teed(r, 0, [*LAYERS, "  norm passed"])],
        second,
        [report.replace("20:50:10", "20:50:28")],
    )
    files = {"launcher.log": text, "env.txt": "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\n"}
    report_ = analyze(pack(tmp_path / "job.tar.gz", files, "job-xg05"), AnalyzeOptions(workers=1))
    assert {r.rank: r.last_checkpoint_qualified for r in report_.ranks} == dict.fromkeys(
        range(4), "layer 4 / norm passed"
    )
    first = report_.diagnosis.first_error
    assert first is not None
    assert first.line == 3


def _resumed(rank: int, attempt: int, steps: range) -> list[str]:
    lines = [
        f"2026-12-06 10:4{attempt}:07 | rank {rank} | job start (restart {attempt}), world_size=4"
    ]
    if steps.start > 1:
        lines.append(f"2026-12-06 10:4{attempt}:30 | rank {rank} | resumed from /ckpt/latest.pt")
    lines += [
        f"2026-12-06 10:4{attempt}:31 | rank {rank} | iteration {s}/40 done | loss 0.41"
        for s in steps
    ]
    return lines


def test_a_retry_resumed_from_a_saved_step_is_cut_where_the_rank_starts_again() -> None:
    """A job script that relaunches the ranks after a failure, appending to `log_<rank>.log`,
    resumes from the last save: the new attempt's first checkpoint is a step the rank already
    closed, not its first one, and the start line again is where the attempt begins."""
    first = [*_resumed(1, 0, range(1, 9)), "[rank1]: Traceback (most recent call last):", TIMEOUT]
    text = _console(first, _resumed(1, 1, range(6, 8)))
    assert restart_lines(scan_text("job/log_1.log", text)) == [len(first) + 1]


def test_a_start_line_again_with_the_progress_going_on_is_no_restart() -> None:
    """Counterexample: the same rank states its start again (a sub-group joined) and closes the
    next step: the same process."""
    lines = _resumed(1, 0, range(1, 5))
    lines.append("2026-12-06 10:40:40 | rank 1 | job start (restart 0), world_size=4")
    lines.append("2026-12-06 10:40:41 | rank 1 | iteration 5/40 done | loss 0.41")
    assert restart_lines(scan_text("job/log_1.log", "\n".join(lines) + "\n")) == []
