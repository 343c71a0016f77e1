"""Two shapes of a collective failure the scan used to miss.

A job run with blocking wait reports an overrun collective from the waiting thread ("Work
WorkNCCL(...) timed out in blocking wait"), not from the watchdog. And a paste whose line
breaks were lost starts with a traceback frame (`File "...", line N, in f`) yet carries the
exception further along the same line; such a line is no longer Python source.

docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout: the waiting thread's
report, like the watchdog's, is a stall ended by a timeout, so `hang` stands beside `hccl`; the
same holds for the `work.wait()` form of torch releases before 2.0 ("Caught collective operation
timeout").
"""

from __future__ import annotations

from analyzers.core.types import EventKind
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter
from tests.analyzers.excerpts import assert_reads, diagnose_text

# Two ranks of a data-parallel job in blocking-wait mode; the reduce overruns its 5 min limit.
BLOCKING_WAIT = """\
[rank0]:[I0611 04:10:02.118930417 ProcessGroupNCCL.cpp:911] [PG ID 0 PG GUID 0 Rank 0] ProcessGroupNCCL initialized
[rank1]:[I0611 04:10:02.119004120 ProcessGroupNCCL.cpp:911] [PG ID 0 PG GUID 0 Rank 1] ProcessGroupNCCL initialized
[rank1]:[E0611 04:19:41.300218645 ProcessGroupNCCL.cpp:756] [Rank 1] Work WorkNCCL(SeqNum=418, OpType=REDUCE_SCATTER, NumelIn=8388608, NumelOut=1048576, Timeout(ms)=300000) timed out in blocking wait.
"""

# A Slurm task prefix (`3: `) and the lost newlines glue frame, source and exception together.
JOINED_PASTE = (
    'File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", '
    "line 2804, in all_reduce 3: work = group.allreduce([tensor], opts) 3: "
    "torch.distributed.DistBackendError: NCCL error in: /src/ProcessGroupNCCL.cpp:2010, "
    "unhandled system error, NCCL version 2.21.5 3: Last error: 3: socketStartConnect: "
    "Connect to 10.8.1.4<51233> failed : Connection refused\n"
)


def test_a_blocking_wait_overrun_is_a_collective_timeout() -> None:
    diagnosis = diagnose_text("job/train.log", BLOCKING_WAIT)
    assert_reads(diagnosis, "hccl", first_error="timed out in blocking wait")


# torch 1.x raises the overrun from work.wait() in the rank that waited for a broadcast.
WORK_WAIT_TIMEOUT = """\
Traceback (most recent call last):
  File "/srv/det/train_ddp.py", line 57, in setup
    dist.broadcast(flag, src=0)
  File "/opt/venv/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 1408, in broadcast
    work.wait()
RuntimeError: [Rank 3] Caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=BROADCAST, TensorShape=[1], Timeout(ms)=1800000) ran for 1800044 milliseconds before timing out.
"""


def test_a_blocking_wait_overrun_offers_the_stall_beside_it() -> None:
    for text in (BLOCKING_WAIT, WORK_WAIT_TIMEOUT):
        diagnosis = diagnose_text("job/train.log", text)
        assert diagnosis.category == "hccl", diagnosis.root_cause
        assert "hang" in {alt.category for alt in diagnosis.alternatives}, text


def test_a_work_wait_timeout_is_the_first_error() -> None:
    diagnosis = diagnose_text("job/train.log", WORK_WAIT_TIMEOUT)
    assert diagnosis.first_error is not None
    assert "Caught collective operation timeout" in diagnosis.first_error.text


def test_a_frame_line_carrying_a_joined_exception_is_read_as_the_error() -> None:
    diagnosis = diagnose_text("job/slurm-881.out", JOINED_PASTE)
    assert_reads(diagnosis, "hccl", first_error="socketStartConnect")


def test_an_ordinary_frame_line_stays_source() -> None:
    prefilter = load_prefilter()
    frame = parse_line('  File "/srv/app/train.py", line 88, in step_error_handler')
    joined = parse_line(JOINED_PASTE.strip())
    assert classify(frame, prefilter) is None
    assert classify(joined, prefilter) is EventKind.ERROR
