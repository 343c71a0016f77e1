"""A dump timer set to exit (`faulthandler.dump_traceback_later(..., exit=True)`) that ended a
hung job: the launcher's exit status of the ranks it ended is the timer's, not a crash.

docs/labelling.md, "Stacks a hung job dumped"
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import CLOSED, RankLog, pack

RUN = "torchrun_logs/job_x1/attempt_0"
LAUNCHER = """\
W1205 04:41:21.178000 5528 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 5585 closing signal SIGTERM
E1205 04:41:21.211000 5528 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: 0 (pid: 5584) of binary: /opt/venv/bin/python3
Traceback (most recent call last):
  File "/opt/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
/srv/bisect/run.py FAILED
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-12-05_04:41:21
  host      : node-a
  rank      : 0 (local_rank: 0)
  exitcode  : 1 (pid: 5584)
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
"""


def _dump(call: str, where: str) -> str:
    return (
        "Timeout (0:00:07)!\n"
        "Thread 0x00007fb3d4e0eb80 (most recent call first):\n"
        f'  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252 in {call}\n'
        f'  File "/srv/bisect/run.py", line 100 in {where}\n'
        '  File "/srv/bisect/run.py", line 143 in main\n'
        '  File "/srv/bisect/run.py", line 157 in <module>\n'
    )


def _job(tmp_path: Path, rank0_error: bool) -> Path:
    files = {"launcher.log": LAUNCHER, "env.txt": "WORLD_SIZE=4\n"}
    for rank in range(4):
        log = RankLog(rank, 4)
        if rank == 2:
            log.layers(3).info("all sequences finished early, leaving the layer loop")
            log.fails(f"RuntimeError: {CLOSED}", frame="barrier")
        else:
            log.layers(3, [" norm passed"])
        if rank == 0 and rank0_error:
            log.fails("RuntimeError: CUDA error: an illegal memory access was encountered")
        files[f"{RUN}/{rank}/stdout.log"] = log.text()
        files[f"{RUN}/{rank}/stderr.log"] = (
            _dump("all_reduce", "attention") if rank in (0, 3) else ""
        )
    return pack(tmp_path / "job.tar.gz", files, "job-084c8ca9")


def test_a_rank_ended_by_its_dump_timer_is_no_crash_and_the_rank_behind_is_blamed(
    tmp_path: Path,
) -> None:
    diagnosis = analyze(_job(tmp_path, rank0_error=False), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [2]
    assert diagnosis.first_error is None


def test_a_rank_with_an_error_of_its_own_keeps_its_failure(tmp_path: Path) -> None:
    diagnosis = analyze(_job(tmp_path, rank0_error=True), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category != "hang"
    assert diagnosis.first_error is not None
