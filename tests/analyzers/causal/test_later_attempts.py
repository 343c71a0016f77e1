"""A restarted job's first attempt's failure is its first causal error (labelling guide, "A
job its launcher restarted"), in attempt folders and in one console every attempt wrote into.

Example: rank 1 dies of SIGSEGV in attempt 0 without a word, torchrun restarts the group and
rank 2 fails on its own in attempt 1: the agent's exit-code line for rank 1 is the first error,
though rank 1 lost its peers in attempt 1 and rank 2's line is a root failure too.
Counterexample: a job that was not restarted keeps its ordinary reading (the rank's own error
before the agent's report).
"""

from __future__ import annotations

from pathlib import Path

from analyzers.core.options import AnalyzeOptions
from analyzers.pipeline import analyze
from analyzers.timeline.attempts import Attempts
from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, scan_text

RUN = ["load weights passed", "prefill start: 8 tokens", "  norm passed", "  attention passed"]
SHAPE = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 8x8)"
CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:5771. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)


def _report(second: int, code: int, local: int) -> str:
    return (
        f"E1204 20:52:{second:02d}.921000 32754 torch/distributed/elastic/multiprocessing/"
        f"api.py:1002] failed (exitcode: {code}) local_rank: {local} (pid: 3{local}8) of "
        "binary: /usr/bin/python3"
    )


def _prints(rank: int, lines: list[str]) -> list[str]:
    return [f"rank {rank}: {line}" for line in lines]


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def test_a_silent_death_of_the_first_attempt_goes_before_the_second_attempts_failure():
    first = [*_prints(0, RUN), *_prints(1, RUN[:3]), *_prints(2, RUN), _report(14, -11, 1)]
    second = [
        *_prints(0, RUN),
        *_prints(1, RUN),
        *_prints(2, RUN[:3]),
        f"[rank2]: {SHAPE}",
        f"[rank1]: {CLOSED}",
        _report(20, 1, 2),
    ]
    diagnosis = diagnose_files({"job/stdout.log": _text(first + second)})
    assert_reads(diagnosis, "device_fault", first_error="failed (exitcode: -11) local_rank: 1")
    assert diagnosis.culprit_ranks == [1]


def test_attempt_folders_put_the_first_attempts_failure_first():
    tree = "job/torchrun_logs/none_3z76"
    files = {
        f"{tree}/attempt_0/0/stdout.log": _text(RUN),
        f"{tree}/attempt_0/1/stdout.log": _text(RUN[:3]),
        f"{tree}/attempt_0/0/stderr.log": _text([f"[rank0]: {CLOSED}"]),
        f"{tree}/attempt_1/0/stdout.log": _text(RUN[:2]),
        f"{tree}/attempt_1/1/stdout.log": _text(
            [*RUN, f"2026-12-04 20:52:19,100 [rank1] ERROR model run failed: {CLOSED[14:]}"]
        ),
        f"{tree}/attempt_1/1/stderr.log": _text([f"[rank1]: {CLOSED}"]),
        "job/launcher.log": _text([_report(14, -11, 1), _report(20, -9, 0)]),
    }
    diagnosis = diagnose_files(files)
    assert diagnosis.first_error is not None
    assert "failed (exitcode: -11) local_rank: 1" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [1]


def test_a_job_run_once_reads_the_ranks_own_error_first():
    lines = [*_prints(0, RUN), *_prints(1, RUN[:3]), f"[rank1]: {SHAPE}", f"[rank0]: {CLOSED}"]
    diagnosis = diagnose_files({"job/stdout.log": _text([*lines, _report(14, 1, 1)])})
    assert_reads(diagnosis, "shape_mismatch", first_error=SHAPE)


# --- silence is judged in the attempt the incident comes from ------------------------------
# Shaped like torchrun 2.13 on gloo with `--max-restarts 1 --log-dir ... --redirects 3`: each
# attempt's `attempt_<n>/<local rank>/{stdout,stderr}.log`, and `launcher.log` holding only the
# agent's own lines (its SIGTERMs, its report of the failed child, the final failure record).

AGENT = "E1205 20:47:58.762000 26024 torch/distributed/elastic/multiprocessing/api.py"
LAYERS = [f"step {s} | layer {n} done" for s in range(2) for n in range(3)]
RESET = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read "
    "error [127.0.0.1]:36519: Connection reset by peer. This is typically caused by a remote "
    "worker hanging or bugs in the application."
)
MISSING_KEY = "KeyError: 'moe_capacity_factor'"


def _agent(local: int, code: int, pids: range) -> list[str]:
    """The agent's SIGTERMs to the other children, then its report of the failed one."""
    sent = [
        f"W{AGENT[1:]}:1028] Sending process {pid} closing signal SIGTERM"
        for pid in pids
        if pid % 10 != local
    ]
    failed = f"{AGENT}:1002] failed (exitcode: {code}) local_rank: {local} (pid: 2606{local})"
    return [*sent, failed + " of binary: /opt/venv/bin/python3"]


def _record(rank: int, code: int) -> list[str]:
    return [
        f"[{rank}]:",
        "  time      : 2026-12-05_20:48:05",
        "  host      : localhost",
        f"  rank      : {rank} (local_rank: {rank})",
        f"  exitcode  : {code} (pid: 2609{rank})",
        "  error_file: <N/A>",
    ]


def _tree(root, number: int, progress: dict[int, int], errors: dict[int, str]) -> None:
    for rank, done in progress.items():
        folder = root / f"job-a1/torchrun_logs/none_k5/attempt_{number}/{rank}"
        folder.mkdir(parents=True)
        start = f"rank{rank} | init process group: backend=gloo rank={rank} world_size=4"
        out = [start, *(f"rank{rank} | {line}" for line in LAYERS[:done])]
        (folder / "stdout.log").write_text("".join(f"{line}\n" for line in out))
        err = [f"[rank{rank}]: {errors[rank]}"] if rank in errors else []
        (folder / "stderr.log").write_text("".join(f"{line}\n" for line in err))


def _sigterm_then_keyerror(root) -> None:
    """Attempt 0: rank 2 is SIGTERMed with no word, ranks 1 and 3 lose it, rank 0 is stopped.
    Attempt 1: rank 3 raises a KeyError, ranks 0 and 2 lose it, rank 1 is stopped."""
    _tree(root, 0, {0: 5, 1: 5, 2: 5, 3: 5}, {1: RESET, 3: RESET})
    _tree(root, 1, {0: 1, 1: 1, 2: 1, 3: 1}, {0: CLOSED, 2: CLOSED, 3: MISSING_KEY})
    records = [line for rank in range(3) for line in _record(rank, -15)]
    launcher = [*_agent(2, -15, range(26060, 26064)), *_agent(3, 1, range(26090, 26094))]
    launcher += ["Failures:", *records, "Root Cause (first observed failure):", *_record(3, 1)]
    (root / "job-a1/launcher.log").write_text("".join(f"{line}\n" for line in launcher))


def test_a_rank_stopped_in_a_later_attempt_is_no_culprit_of_the_first(tmp_path):
    """Rank 1 printed no error in attempt 1 (the launcher stopped it), rank 2 lost its peer
    there: neither says anything about attempt 0, where rank 2 ended without a word and its
    peers lost it. Read over both attempts, rank 1 was the one rank that never failed."""
    _sigterm_then_keyerror(tmp_path)

    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis

    assert diagnosis.first_error is not None
    assert "failed (exitcode: -15) local_rank: 2" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]
    assert diagnosis.category == "other"
    assert diagnosis.confidence > 0
    assert "device_fault" in alternative_labels(diagnosis)


def test_the_later_attempts_own_failure_stays_evidence(tmp_path):
    _sigterm_then_keyerror(tmp_path)

    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis

    cited = {e.ref.text: e.role for e in diagnosis.evidence}
    assert cited[f"[rank3]: {MISSING_KEY}"] == "cascade"


def test_the_agents_reports_are_placed_in_the_attempts_they_end(tmp_path):
    """The agent reports each failed run of its group once: its first report ended attempt 0,
    its second attempt 1. The failure record below them is not the agent's own line: a
    launcher log beside an attempt tree says nothing else about which attempt wrote a line."""
    _sigterm_then_keyerror(tmp_path)
    paths = sorted(p for p in tmp_path.rglob("*.log"))
    scans = [scan_text(p.relative_to(tmp_path).as_posix(), p.read_text()) for p in paths]

    attempts = Attempts(scans)

    launcher = "job-a1/launcher.log"
    assert [attempts.placed(launcher, line) for line in (4, 8, 14)] == [0, 1, None]
    assert attempts.of(launcher, 4) is None  # placed for judging silence, not demoted


def test_who_went_quiet_is_read_in_the_attempt_that_failed_first(tmp_path):
    """Attempt 0: rank 2 leaves without a word (no failed child to report) and ranks 0, 1 and 3
    lose it; attempt 1: rank 3 raises a KeyError and ranks 0 and 2 lose it. The first error
    (rank 0's lost peer) names no one: rank 2 went quiet in attempt 0, though it failed in
    attempt 1. Read over both attempts it had an error like every rank, and was taken for one
    that reached the collective late."""
    _tree(tmp_path, 0, {0: 5, 1: 5, 2: 5, 3: 5}, {0: CLOSED, 1: RESET, 3: RESET})
    _tree(tmp_path, 1, {0: 1, 1: 1, 2: 1, 3: 1}, {0: CLOSED, 2: CLOSED, 3: MISSING_KEY})
    records = [line for rank in range(3) for line in _record(rank, -15)]
    launcher = [*_agent(0, 1, range(26060, 26064)), *_agent(3, 1, range(26090, 26094))]
    launcher += ["Failures:", *records, "Root Cause (first observed failure):", *_record(3, 1)]
    (tmp_path / "job-a1/launcher.log").write_text("".join(f"{line}\n" for line in launcher))

    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis

    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == f"[rank0]: {CLOSED}"
    assert diagnosis.culprit_ranks == [2]
    assert "stopped without an error while the others failed" in diagnosis.culprit_reason


# --- the launcher's copies of a later attempt ----------------------------------------------
# Shaped like torchrun 2.13 on gloo with `--max-restarts 1 --tee 3` and plain prints (no time
# on the ranks' own lines): attempt 0's rank 1 raises an error no rule knows, its peers lose
# it; the restarted group's rank 1 cannot reach a store the failed attempt's rank 0 had served,
# and c10d's timed line saying so is the next line `launcher.log` gets after the agent's report.
# The store timeout reads as more of a failure than the unknown error, so only its attempt
# keeps it below the first attempt's error, in the tree and in the launcher's copy alike.

ROUTER = "ValueError: router returned no tokens for expert group 3"
STORE = (
    "torch.distributed.DistNetworkError: The client socket has timed out after 3000ms while "
    "trying to connect to (127.0.0.1, 53151)."
)
STORE_RETRIES = [
    "[E1206 08:14:36.860861587 socket.cpp:1028] [c10d] The client socket has timed out after "
    "3000ms while trying to connect to (127.0.0.1, 53151).",
    "[W1206 08:14:36.861253187 TCPStore.cpp:340] [c10d] TCP client failed to connect/validate to "
    "host 127.0.0.1:53151 - retrying (try=0, timeout=3000ms, delay=3153ms): The client socket "
    "has timed out after 3000ms while trying to connect to (127.0.0.1, 53151).",
]
TORCHRUN = "torch/distributed/elastic/multiprocessing/api.py"
RUN_TREE = "job-5c/torchrun_logs/none_3e9i/attempt_{number}/{rank}/{name}.log"


def _stopped_group(second: int, failed: int, pids: range) -> list[str]:
    """The agent's SIGTERMs to the other children, then its report of the failed one."""
    stops = [
        f"W1206 08:14:{second:02d}.326000 21237 {TORCHRUN}:1028] Sending process {pid} closing "
        "signal SIGTERM"
        for pid in pids
        if pid % 10 != failed
    ]
    return [
        *stops,
        f"E1206 08:14:{second:02d}.735000 21237 {TORCHRUN}:1002] failed (exitcode: 1) local_rank: "
        f"{failed} (pid: {pids[failed]}) of binary: /opt/venv/bin/python3",
    ]


def _raised(rank: int, statement: str, error: str, prefix: str = "") -> list[str]:
    return [
        f"{prefix}Traceback (most recent call last):",
        f'{prefix}  File "/home/user/llm-infer/infer.py", line 45, in <module>',
        f"{prefix}    main()",
        f'{prefix}  File "/home/user/llm-infer/infer.py", line 35, in main',
        f"{prefix}    {statement}",
        f"{prefix}{error}",
    ]


def _restarted_job(root, tree: bool) -> None:
    """Both attempts as `launcher.log` holds them, and (with `tree`) as `--log-dir` keeps them."""
    files: dict[str, list[str]] = {}
    progress = ["load weights passed", "  norm passed", "  attention passed", "layer 0 passed"]
    for rank in range(4):
        files[RUN_TREE.format(number=0, rank=rank, name="stdout")] = [
            f"init process group: backend=gloo rank={rank} world_size=4",
            *progress,
        ]
    statement = 'raise ValueError("router returned no tokens for expert group 3")'
    files[RUN_TREE.format(number=0, rank=1, name="stderr")] = _raised(
        1, statement, ROUTER, "[rank1]: "
    )
    for rank in (0, 2, 3):
        files[RUN_TREE.format(number=0, rank=rank, name="stderr")] = _raised(
            rank, "dist.all_reduce(y)", CLOSED, f"[rank{rank}]: "
        )
    store = 'dist.TCPStore("127.0.0.1", 53151, world, False, timeout=timeout)'
    files[RUN_TREE.format(number=1, rank=1, name="stderr")] = [
        *STORE_RETRIES,
        *_raised(1, store, STORE),
    ]
    launcher = [
        f"W1206 08:14:22.591000 21237 torch/distributed/run.py:874] {line}"
        for line in ("", "*****************************************")
    ]
    for number in (0, 1):
        for path, lines in files.items():
            if f"/attempt_{number}/" in path:
                local = path.split("/")[-2]
                launcher += [f"[default{local}]:{line}" for line in lines]
        pids = range(21240 + 10 * number, 21244 + 10 * number)
        launcher += _stopped_group(31 + 10 * number, 1, pids)
    launcher += ["torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "]
    launcher += ["Root Cause (first observed failure):", *_record(1, 1)]
    files["job-5c/launcher.log"] = launcher
    for path, lines in files.items():
        if tree or path == "job-5c/launcher.log":
            folder = (root / path).parent
            folder.mkdir(parents=True, exist_ok=True)
            (root / path).write_text("".join(f"{line}\n" for line in lines))


def test_the_launchers_copy_of_a_later_attempts_error_is_not_the_first_error(tmp_path):
    _restarted_job(tmp_path, tree=True)

    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis

    assert diagnosis.first_error is not None
    assert ROUTER in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [1]


def test_a_console_every_attempt_wrote_into_keeps_the_restarts_first_error_below(tmp_path):
    """Without `--log-dir` only the console holds both attempts: the restarted group begins on
    the line right after the agent's report of attempt 0's failed child."""
    _restarted_job(tmp_path, tree=False)

    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis

    assert diagnosis.first_error is not None
    assert ROUTER in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [1]


_ELASTIC = "/opt/venv/lib/python3.11/site-packages/torch/distributed"
_RESTART_TRACE = [
    "Traceback (most recent call last):",
    '  File "/opt/venv/bin/torchrun", line 8, in <module>',
    "    sys.exit(main())",
    f'  File "{_ELASTIC}/run.py", line 1019, in run',
    "    elastic_launch(",
    f'  File "{_ELASTIC}/launcher/api.py", line 374, in launch_agent',
    "    result = agent.run()",
    "             ^^^^^^^^^^^",
    f'  File "{_ELASTIC}/elastic/agent/server/api.py", line 952, in _invoke_run',
    "    self._restart_workers(self._worker_group)",
    f'  File "{_ELASTIC}/elastic/agent/server/api.py", line 713, in _initialize_workers',
    "    self._rendezvous(worker_group)",
    f'  File "{_ELASTIC}/elastic/rendezvous/dynamic_rendezvous.py", line 680, in run',
    "    raise RendezvousTimeoutError",
    "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",
]


def _sigterm(pid: int) -> str:
    return (
        f"W1204 20:52:34.980000 32754 torch/distributed/elastic/multiprocessing/api.py:1028] "
        f"Sending process {pid} closing signal SIGTERM"
    )


def _lost_peer_tree(rank: int) -> dict[str, str]:
    tree = f"job/node0/torchrun/job_a/attempt_0/{rank}"
    return {
        f"{tree}/stdout.log": _text([f"[rank{rank}] layer {n} passed" for n in range(4)]),
        f"{tree}/stderr.log": _text(
            [f"[rank{rank}]: Traceback (most recent call last):", f"[rank{rank}]: {CLOSED}"]
        ),
    }


def _analyzed(tmp_path: Path, files: dict[str, str]):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return analyze(tmp_path / "job", AnalyzeOptions(workers=1)).diagnosis


def test_a_rendezvous_given_up_after_the_agent_reported_a_failed_child_is_the_restarts(
    tmp_path: Path,
):
    """node1 went away (its ranks 3 to 5 stop without a word), node0's ranks lose it and node0's
    agent restarts its group after a child failed; the rejoin waits for the node that is gone.
    The run had already failed, so its ranks' own lines come first."""
    agent = [_sigterm(308), _sigterm(318), _report(35, 1, 2), *_RESTART_TRACE]
    files = {"job/node0/agent.log": _text(agent)}
    for rank in range(3):
        files |= _lost_peer_tree(rank)
    for local, rank in enumerate(range(3, 6)):
        lines = [f"[rank{rank}] layer {n} passed" for n in range(4)]
        files[f"job/node1/torchrun/job_b/attempt_0/{local}/stdout.log"] = _text(lines)
    diagnosis = _analyzed(tmp_path, files)
    assert diagnosis.first_error is not None
    assert "Connection closed by peer" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3, 4, 5]


def test_a_rendezvous_given_up_before_any_child_ran_is_still_the_first_error(tmp_path: Path):
    """Counterexample: with no report of a failed child the agent never started its workers."""
    diagnosis = _analyzed(tmp_path, {"job/node0/agent.log": _text(_RESTART_TRACE)})
    assert diagnosis.first_error is not None
    assert "RendezvousTimeoutError" in diagnosis.first_error.text


# --- ranks' own appended logs beside a console of the agent's lines alone -------------------
# Shaped like torchrun 2.13 on gloo with `--max-restarts 1` and a job that sends its own stdout
# and stderr into `log_<rank>.log` in append mode (plain prints, no time on its lines): each
# rank's file is cut where its start line comes again, and `launcher.log` holds only the
# agent's SIGTERMs, its two reports and the final failure record, which describes the last run.

GLOO_WAIT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78]"
    " Timed out waiting 10000ms for recv operation to complete"
)
MESH = (
    "RuntimeError: Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/gloo/"
    "transport/tcp/pair.cc:152] timed out connecting: SO_ERROR: Connection refused, "
    "remote=[127.0.0.1]:45954$0"
)
STALL_RUN = ["load weights passed", " norm passed", " attention passed", "layer 0 passed"]


def _stalled_then_refused(root: Path) -> None:
    """Attempt 0: rank 2 stalls and is SIGTERMed without a word while ranks 0, 1 and 3 time out
    waiting for it. Attempt 1: ranks 0 and 3 cannot connect the mesh, 1 and 2 are stopped."""
    folder = root / "job-7e"
    folder.mkdir()
    for rank in range(4):
        start = f"init process group: backend=gloo rank={rank} world_size=4 timeout=10s"
        first = [start, *STALL_RUN]
        if rank != 2:
            first += [
                f"[rank{rank}]: Traceback (most recent call last):",
                f"[rank{rank}]: {GLOO_WAIT}",
            ]
        second = [start]
        if rank in (0, 3):
            second += ["Traceback (most recent call last):", MESH]
        (folder / f"log_{rank}.log").write_text("".join(f"{line}\n" for line in first + second))
    records = [*_record(3, 1), *_signalled(1), *_signalled(2)]
    launcher = [*_agent(0, 1, range(26060, 26064)), *_agent(0, 1, range(26090, 26094))]
    launcher += ["torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ", "=" * 60]
    launcher += ["/srv/infer/run.py FAILED", "-" * 60, "Failures:", *records, "-" * 60]
    launcher += ["Root Cause (first observed failure):", *_record(0, 1), "=" * 60]
    (folder / "launcher.log").write_text("".join(f"{line}\n" for line in launcher))


def _signalled(rank: int) -> list[str]:
    """The failure record of a child the agent stopped, as torchrun 2.13 writes it."""
    return [
        f"[{rank}]:",
        "  time      : 2026-12-05_20:48:05",
        "  host      : localhost",
        f"  rank      : {rank} (local_rank: {rank})",
        f"  exitcode  : -15 (pid: 2609{rank})  (SIGTERM)",
        "  error_file: <N/A>",
        f"  traceback : Signal 15 (SIGTERM) received by PID 2609{rank}",
    ]


def test_the_final_failure_record_below_the_agents_last_report_is_the_last_runs(tmp_path):
    """Its `exitcode : -15` entry for rank 2 is how the restarted run stopped it, not a word of
    rank 2's in attempt 0: there rank 2 went quiet while its peers timed out waiting for it.
    Before, the record was read as attempt 0's (a file that no cut divides was all attempt 0's),
    rank 2 had "failed" like the others and no rank was blamed."""
    _stalled_then_refused(tmp_path)

    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis

    assert diagnosis.first_error is not None
    assert "Timed out waiting 10000ms" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]


def test_the_agents_lines_are_numbered_by_its_reports_when_no_tree_lies_beside_them(tmp_path):
    _stalled_then_refused(tmp_path)
    paths = sorted(p for p in tmp_path.rglob("*.log"))
    scans = [scan_text(p.relative_to(tmp_path).as_posix(), p.read_text()) for p in paths]

    attempts = Attempts(scans)

    launcher = "job-7e/launcher.log"
    assert [attempts.of(launcher, line) for line in (1, 4, 5, 8, 9, 20)] == [0, 0, 1, 1, 1, 1]
