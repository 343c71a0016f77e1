"""A launcher's record that a rank exited with status 0 is no error of that rank.

A serving driver finishes its requests, tells the workers to stop and destroys its process
group without the drain barrier the workers enter after the stop message: each worker's
barrier fails on the closed connection, the driver logs no error and exits 0, and the
per-node launcher prints every rank's exit code (`rank 0 (pid N) exited with code 0`), the
line tied to the driver by its pid. That line carries exit words but records a clean end: the
driver stays a rank without an error, the one its peers lost, and is blamed. With two quiet
ranks nothing singles one out.

Fixtures are cut from a real 4-rank gloo run (engine-style logging, one log per rank).
"""

from __future__ import annotations

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import RankStatus
from analyzers.timeline.correlate import correlate
from analyzers.timeline.worker_ranks import assign_worker_ranks
from tests.analyzers.excerpts import diagnose_files, scan_text

CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:{port}. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️"
)


def warmup(rank: int) -> list[str]:
    return [
        f"Initializing process group: world_size=4 rank={rank} backend=gloo",
        "Loading weights: 2 layers, hidden 32, TP=4, KV slots 128",
        *WARMUP,
    ]


WARMUP = [
    "prefill start",
    *[
        line
        for layer in range(2)
        for line in ("  norm passed", "  attention passed", "  MoE passed", f"layer {layer} passed")
    ],
    "Warmup finished; CUDA graphs disabled on CPU",
]
ENV = "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\nMASTER_PORT=30204\nGLOO_SOCKET_IFNAME=lo\n"


def tagged(rank: int, lines: list[str], second: int = 28) -> list[str]:
    name = "EngineCore_DP0" if rank == 0 else f"Worker_TP{rank}"
    return [
        f"({name} pid={4449 + rank}) INFO 12-07 02:09:{second} [engine.py:{86 + n}] {line}"
        for n, line in enumerate(lines)
    ]


def driver_log() -> str:
    lines = tagged(0, warmup(0)) + tagged(
        0,
        [
            "Added request req-0000 (prompt_len=12, max_tokens=4)",
            "Finished request req-0000 in 77.0 ms",
            "Engine 000: Avg prompt throughput: 155.7 tokens/s, Avg generation throughput: "
            "51.9 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 9.4%",
            "All 1 requests finished (12 prompt tokens in 0.08s); shutting down workers",
            "Engine core shut down",
        ],
        29,
    )
    return "\n".join(lines) + "\n"


def worker_log(rank: int, error: bool = True) -> str:
    lines = tagged(rank, warmup(rank)) + tagged(
        rank, ["execute_model: req-0000 (12 tokens)", "Received shutdown; draining"], 29
    )
    if error:
        frames = [
            "Traceback (most recent call last):",
            '  File "/home/user/llm-infer/engine.py", line 129, in worker',
            "    dist.barrier()",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py",'
            " line 5356, in barrier",
            "    work.wait()",
            CLOSED.format(port=16548 + rank),
        ]
        lines += [f"[rank{rank}]: {line}" for line in frames]
    return "\n".join(lines) + "\n"


def launcher_log(codes: tuple[int, ...]) -> str:
    """The per-node launcher's console: one line per rank it started and per rank that ended."""
    started = [f"2026-12-07 02:08:55 node 0: started rank {r} pid {4449 + r}" for r in range(4)]
    ended = [
        f"2026-12-07 02:09:3{2 + n // 2} node 0: rank {r} (pid {4449 + r}) exited with code {code}"
        for n, (r, code) in enumerate(sorted(enumerate(codes), key=lambda rc: -rc[1]))
    ]
    done = f"2026-12-07 02:09:33 node 0: all ranks exited, codes {list(codes)}"
    return "\n".join([*started, *ended, done]) + "\n"


def files(quiet: tuple[int, ...] = (), launcher: bool = False) -> dict[str, str]:
    out = {"job/env.txt": ENV, "job/log_0.log": driver_log()}
    if launcher:
        out["job/launch.log"] = launcher_log((0, 1, 1, 1))
    for r in range(1, 4):
        out[f"job/log_{r}.log"] = worker_log(r, error=r not in quiet)
    return out


def test_the_lone_rank_that_ended_cleanly_is_the_peer_the_others_lost() -> None:
    diagnosis = diagnose_files(files())
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "Connection closed by peer" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [0]


def test_the_launcher_recording_a_clean_exit_does_not_make_it_an_error() -> None:
    # the launcher's console lists every rank's exit code, the leaver's 0 among them
    diagnosis = diagnose_files(files(launcher=True))
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [0]


def test_the_clean_exit_line_is_not_the_driver_rank_error() -> None:
    matcher = CheckpointMatcher(())
    scans = [scan_text(path, text, matcher) for path, text in files(launcher=True).items()]
    assign_worker_ranks(scans)
    driver = next(r for r in correlate(scans, None).ranks if r.rank == 0)
    assert driver.status != RankStatus.ERROR
    assert driver.first_error is None


def test_two_quiet_ranks_single_out_no_leaver() -> None:
    diagnosis = diagnose_files(files(quiet=(3,)))
    assert diagnosis.culprit_ranks != [0]
