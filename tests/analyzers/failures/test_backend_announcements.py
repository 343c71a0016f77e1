"""A start-up line that only names the collective backend the job runs with.

docs/labelling.md#a-start-up-line-that-names-the-backend: training scripts and frameworks say
which backend they initialise the process group with (`Using distributed PyTorch with nccl
backend`, DeepSpeed's `Initializing TorchBackend in DeepSpeed with backend nccl`,
`distributed_backend=gloo`). The line is configuration, not a failure: a worker pod whose log
stops after it, with nothing but the store's connection trace below, stopped inside the
process-group set-up, a hang with no first error. A line that goes on to say the backend
failed or cannot do something keeps its reading. Values are our own, in the lines' real forms.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tail_reading import reads
from analyzers.core.types import Event, EventKind
from analyzers.scan.quiet_tail import TAIL_SOURCE

KNOWLEDGE = load_knowledge()

# A PyTorchJob worker pod (`kubectl logs train-mnist-worker-1`): the script announces its
# backend, the c10d client reaches the master's store, and then nothing more is written.
WORKER_POD_STUCK_IN_SET_UP = """\
[I debug.cpp:47] [c10d] The debug level is set to DETAIL.
parsed arguments
Namespace(backend='nccl', batch_size=32, epochs=2, lr=0.02, seed=7)
Using distributed PyTorch with nccl backend
8 3
[I socket.cpp:580] [c10d - debug] The client socket will attempt to connect to an IPv6 address of (train-mnist-master-0, 29400).
[I socket.cpp:648] [c10d - trace] The client socket is attempting to connect to [10-4-2-17.train-mnist-master-0.team-a.svc.cluster.local]:29400.
[I socket.cpp:725] [c10d] The client socket has connected to [10-4-2-17.train-mnist-master-0.team-a.svc.cluster.local]:29400 on [train-mnist-worker-1]:51730.
"""


def tail_line(text: str) -> Event:
    return Event(
        file="pod/worker-1.log",
        line=4,
        text=text,
        kind=EventKind.ERROR,
        message=text,
        source=TAIL_SOURCE,
    )


def test_a_worker_that_stops_after_announcing_its_backend_is_a_hang_with_no_first_error(
    tmp_path: Path,
) -> None:
    (tmp_path / "train-mnist-worker-1.log").write_text(WORKER_POD_STUCK_IN_SET_UP)
    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.first_error is None, diagnosis.first_error
    assert diagnosis.category == "hang"


def test_the_backend_announcements_are_not_read_as_failures() -> None:
    for text in (
        "Using distributed PyTorch with gloo backend",
        "Using distributed PyTorch with nccl backend.",
        "Initializing TorchBackend in DeepSpeed with backend nccl",
        "distributed_backend=gloo",
        "Distributed backend: hccl",
    ):
        assert reads(tail_line(text), KNOWLEDGE) is None, text


def test_a_backend_line_that_says_it_failed_is_still_read() -> None:
    for text in (
        "Backend gloo does not support reduce_scatter",
        "Using distributed PyTorch with nccl backend failed: no CUDA device is visible",
        "Distributed backend: nccl is not available on this platform",
    ):
        assert reads(tail_line(text), KNOWLEDGE) is not None, text
