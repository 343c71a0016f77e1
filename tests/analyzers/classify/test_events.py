"""A bundle's lines classified file by file: each keeps its file's rank and kind, and a
wrapper yields to the exception it carries."""

from __future__ import annotations

from analyzers.classify.events import classify_scans
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import TIER_CASCADE, TIER_GENERIC
from analyzers.core.types import Event, EventKind, FileInfo, FileKind, FileScan
from tests.analyzers.excerpts import scan_text
from tests.analyzers.one_line import event

KNOWLEDGE = load_knowledge()


def test_scans_give_each_event_its_files_rank_and_kind() -> None:
    info = FileInfo(path="job/log_3.log", kind=FileKind.RANK_LOG, rank=3)
    error = event("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)")
    checkpoint = Event("job/log_3.log", 2, " norm passed", EventKind.CHECKPOINT, "norm passed")
    items = classify_scans([FileScan(info, [error, checkpoint])], KNOWLEDGE)
    assert len(items) == 1
    assert (items[0].rank, items[0].kind, items[0].category) == (
        3,
        FileKind.RANK_LOG,
        "shape_mismatch",
    )


SPAWN_CHILD_LOST_PEER = """\
W1204 20:28:19.613000 31770 torch/multiprocessing/spawn.py:165] Terminating process 31804 via signal SIGTERM
Traceback (most recent call last):
  File "<string>", line 5, in <module>
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 211, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException: 

-- Process 3 terminated with the following error:
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252, in all_reduce
    work.wait()
RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:2461. This is typically caused by a remote worker crashing.
"""


def test_a_spawn_join_carrying_a_childs_lost_peer_ranks_below_that_lost_peer() -> None:
    # the child's lost peer is a cascade; the empty wrapper printed above it only carries it,
    # so it must not tie with it and be cited for coming first
    items = classify_scans([scan_text("job/stdout.log", SPAWN_CHILD_LOST_PEER)], KNOWLEDGE)
    wrapper = next(i for i in items if "ProcessRaisedException" in i.event.text)
    child = next(i for i in items if "Connection closed by peer" in i.event.text)
    assert (child.tier, child.rank) == (TIER_CASCADE, 3)
    assert wrapper.tier == TIER_GENERIC
