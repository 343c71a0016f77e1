"""Who the ranks that lost a peer lost: the rank whose own log records its abort, and the
node whose agent ended without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.excerpts import assert_reads
from tests.analyzers.job_bundles import CLOSED, pack


def _plain_progress() -> list[str]:
    lines = ["load weights passed"]
    for layer in range(2):
        lines += ["  norm passed", "  attention passed", "  MoE passed", f"layer {layer} passed"]
    return [*lines, "  norm passed"]


def _lost_peer_tail(rank: int) -> list[str]:
    return [
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/home/user/llm-infer/infer.py", line 170, in forward',
        f"[rank{rank}]:     dist.all_reduce(out)",
        f"[rank{rank}]: RuntimeError: {CLOSED}",
    ]


ABORT_DUMP = [
    "Fatal Python error: Aborted",
    "",
    "Current thread 0x00007fb8a63dab80 (most recent call first):",
    '  File "/home/user/llm-infer/infer.py", line 124 in fail',
    '  File "/home/user/llm-infer/infer.py", line 168 in forward',
    '  File "/home/user/llm-infer/infer.py", line 230 in <module>',
    "",
    "Extension modules: numpy._core._multiarray_umath, torch._C, torch._C._nn (total: 3)",
]


@pytest.mark.parametrize("with_launcher", [False, True])
def test_a_rank_whose_own_log_records_its_abort_is_the_one_its_peers_lost(
    tmp_path: Path, with_launcher: bool
) -> None:
    """Plain untimed logs: rank 1's fault handler reports its abort, the others report the
    peer that went away. The abort record echoes a native check when one is logged, so it is
    no cause of its own, but it is rank 1's end, and the ranks that lost a peer lost rank 1."""
    files = {
        f"log_{rank}.log": "\n".join(
            _plain_progress() + (ABORT_DUMP if rank == 1 else _lost_peer_tail(rank))
        )
        + "\n"
        for rank in range(4)
    }
    if with_launcher:
        files["launcher.log"] = "".join(
            f"[2026-12-05 09:39:40] rank {rank} (pid {15972 + 2 * rank}) exited with status "
            f"{134 if rank == 1 else 1}\n"
            for rank in range(4)
        )
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-1"), AnalyzeOptions(workers=1))
    diagnosis = report.diagnosis
    assert_reads(diagnosis, "device_fault", first_error="Fatal Python error: Aborted")
    assert diagnosis.culprit_ranks == [1]


def test_ranks_that_lost_a_peer_and_then_aborted_do_not_blame_themselves(
    tmp_path: Path,
) -> None:
    """Counterexample: ranks 0-2 lost a peer and then aborted (a watchdog taking each process
    down), rank 3 went away without a word: the aborts are the victims' ends, and the rank
    that went quiet is the culprit."""
    files = {
        f"log_{rank}.log": "\n".join(
            _plain_progress() + (_lost_peer_tail(rank) + ABORT_DUMP if rank < 3 else [])
        )
        + "\n"
        for rank in range(4)
    }
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-1"), AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [3]


# Two torchrun agents in a c10d rendezvous whose store the second agent hosted; that node is
# lost (its agent killed) while every rank sleeps between layers. The surviving agent reports
# the store connection gone and stops its own workers, which print nothing; the lost node's
# workers, left without their agent, fail later on the closed connections.
_STORE_LOST = """[W1206 17:28:42.130591312 TCPStore.cpp:115] [c10d] recvVector failed on SocketImpl(fd=3, addr=[::ffff:127.0.0.1]:44922, remote=[::ffff:127.0.0.1]:29562): Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?
W1206 17:28:42.770000 332 torch/distributed/elastic/rendezvous/dynamic_rendezvous.py:1346] The node 'localhost_332_0' has failed to send a keep-alive heartbeat to the rendezvous 'job-5521' due to an error of type RendezvousConnectionError.
W1206 17:28:42.828000 332 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 387 closing signal SIGTERM
W1206 17:28:42.842000 332 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 390 closing signal SIGTERM
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py", line 114, in _call_store
    return getattr(self._store, store_op)(*args, **kwargs)
torch.distributed.DistNetworkError: Broken pipe

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/opt/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.
"""


def _lost_node_job(root: Path, lost_agent_tail: str) -> Path:
    job = root / "job-5521"
    progress = [
        "prefill start",
        "  norm passed",
        "  attention passed",
        "  MoE passed",
        "layer 0 passed",
    ]
    for node, held in (("node0", (0, 1)), ("node1", (2, 3))):
        copied = [f"[default{r - held[0]}]:{line}" for r in held for line in progress]
        text = "\n".join(copied) + "\n"
        text += _STORE_LOST if node == "node0" else lost_agent_tail
        (job / node).mkdir(parents=True)
        (job / node / "launcher.log").write_text(text, encoding="utf-8")
        for local, rank in enumerate(held):
            folder = job / node / "torchrun_logs" / f"job-5521_{node}x" / "attempt_0" / str(local)
            folder.mkdir(parents=True)
            lines = [f"starting: rank={rank} local_rank={local} world_size=4", *progress]
            if node == "node1":
                lines.append("  norm passed")
            (folder / "stdout.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
            err = f"[rank{rank}]: {CLOSED}\n" if node == "node1" else ""
            (folder / "stderr.log").write_text(err, encoding="utf-8")
    return job


def test_the_node_whose_agent_ended_without_a_word_is_blamed(tmp_path: Path) -> None:
    """Labelling guide, "An agent that ended without a word": node0's agent lost the store and
    stopped its own ranks 0 and 1 (quiet); node1's console just stops. Ranks 2 and 3 are the
    lost node's, not the ones node0's agent stopped."""
    report = analyze(_lost_node_job(tmp_path, ""), AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [2, 3]


def test_an_agent_that_reported_its_workers_names_no_lost_node(tmp_path: Path) -> None:
    """Counterexample: node1's agent wrote its own record of a child's failure, so it did not
    vanish with its node: the lost-agent reading does not apply."""
    tail = (
        "E1206 17:28:43.001000 340 torch/distributed/elastic/multiprocessing/api.py:1002] "
        "failed (exitcode: 1) local_rank: 0 (pid: 391) of binary: /opt/venv/bin/python3\n"
    )
    report = analyze(_lost_node_job(tmp_path, tail), AnalyzeOptions(workers=1))
    assert "ended without a word" not in (report.diagnosis.culprit_reason or "")
