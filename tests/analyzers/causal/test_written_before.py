"""An agent's C++ line happened no later than its own Python lines printed after it
(analyzers/causal/written_before.py; labelling guide, "An agent that ended without a word").

Shaped like two torchrun 2.13 agents on one c10d rendezvous, gloo, ranks logging with Python
logging into `node<k>/log_<rank>.log` and each agent's `--tee 3` console kept as
`node<k>/launcher.log`. node0's agent, which hosts the store, is SIGKILLed; its ranks run on.
node1's agent loses the store (c10d's C++ warning, stamped 06:50:22.628), stops its own ranks
(its Python lines, stamped 06:50:22.189, printed after the warning) and fails to shut the
rendezvous down; node0's orphaned ranks then lose their peers at 06:50:22.260. The C++ stamp
runs ahead of Python's: by the console's order the store was lost before the SIGTERMs, so
before the ranks' lost connections, and node0's ranks (whose agent's console holds no error)
are the culprits, not node1's ranks that their own agent stopped.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.core.options import AnalyzeOptions
from analyzers.pipeline import analyze

TORCHRUN = "torch/distributed/elastic/multiprocessing/api.py"
PROGRESS = ["load weights passed", " norm passed", " attention passed", " MoE passed"]
RESET = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read "
    "error [127.0.0.1]:19594: Connection reset by peer. This is typically caused by a remote "
    "worker hanging or bugs in the application."
)
STORE_LOST = (
    "[W1207 06:50:22.628528723 TCPStore.cpp:138] [c10d] recvValueWithTimeout failed on "
    "SocketImpl(fd=3, addr=[::ffff:127.0.0.1]:47350, remote=[::ffff:127.0.0.1]:29551): Failed to "
    "recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?"
)


def _rank_log(rank: int, error: bool) -> list[str]:
    lines = [
        f"2026-12-07 06:50:21,{100 + i:03d} [rank{rank}] INFO {text}"
        for i, text in enumerate(
            [f"init process group: backend=gloo rank={rank} world_size=6", *PROGRESS]
        )
    ]
    if error:
        lines += [
            f"2026-12-07 06:50:22,{260 + rank:03d} [rank{rank}] ERROR model run failed",
            "Traceback (most recent call last):",
            '  File "/srv/infer/run.py", line 246, in forward',
            "    dist.all_reduce(y)",
            RESET,
        ]
    return lines


def _job(root: Path, agent_stop: str) -> None:
    files: dict[str, list[str]] = {}
    for rank in range(6):
        node = rank // 3
        files[f"job-84/node{node}/log_{rank}.log"] = _rank_log(rank, error=node == 0)
    files["job-84/node0/launcher.log"] = [
        f"[default{r}]:{line}" for r in range(3) for line in _rank_log(r, error=False)
    ]
    stops = [
        f"W1207 06:50:22.{agent_stop} 27358 {TORCHRUN}:1028] Sending process {pid} closing signal "
        "SIGTERM"
        for pid in (27420, 27423, 27430)
    ]
    files["job-84/node1/launcher.log"] = [
        *(f"[default{r - 3}]:{line}" for r in range(3, 6) for line in _rank_log(r, error=False)),
        STORE_LOST,
        "Exception raised from recvBytes at /__w/pytorch/pytorch/torch/csrc/distributed/c10d/"
        "Utils.hpp:787 (most recent call first):",
        *stops,
        "W1207 06:50:22.445000 27358 torch/distributed/elastic/rendezvous/dynamic_rendezvous.py:"
        "1298] The node 'localhost_27358_0' has failed to shutdown the rendezvous 'job-84' due "
        "to an error of type RendezvousConnectionError.",
        "torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely "
        "closed. Did the remote server shutdown or crash?",
        "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to "
        "the C10d store has failed. See inner exception for details.",
    ]
    for path, lines in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("".join(f"{line}\n" for line in lines))


def test_an_agents_store_loss_printed_before_its_earlier_stamped_stops_comes_first(tmp_path):
    _job(tmp_path, agent_stop="189000")

    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis

    assert diagnosis.first_error is not None
    assert "recvValueWithTimeout failed" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [0, 1, 2]
    assert diagnosis.category == "hccl"


def test_a_store_loss_whose_agent_stamped_nothing_earlier_after_it_keeps_its_own_time(tmp_path):
    """Counterexample: the agent's stops stamped after the warning say nothing against its own
    stamp, and the ranks' lost connections, earlier by the clock, stay first."""
    _job(tmp_path, agent_stop="700000")

    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis

    assert diagnosis.first_error is not None
    assert "Connection reset by peer" in diagnosis.first_error.text
