"""A launch command kept in the bundle is no error, whatever its options are called.

Bundles often keep the command that started the job (`command.txt`, a launcher's `cmdline`,
the first line of a run log): the launcher or interpreter by its path, then its options. The
options carry error words of their own (`--timeout 300`, `--faulthandler-signal`,
`--max-failures 3`, `--fault-tolerance`); they say how the job was started, not that anything
failed. Read as an error, such a line outranks a stop record and hides the stall behind it
(docs/labelling.md#a-job-stopped-from-outside). Example: a torchrun job of four ranks whose
rank 2 loops in its own code, dumped with faulthandler on SIGUSR1, then stopped by a scheduler's
SIGTERM to the agent, with its torchrun command saved beside the logs.
A command run under a wrapper (`timeout -s TERM 45 torchrun ...`, `nohup`, `nice -n 10`, `env
VAR=...`, `taskset`, `numactl`) is the same command: the wrapper's name (`timeout`) and its
arguments say how it was run. Before, such a line was an unread error beside the agent's stop
record and the stall behind it was lost.
Counterexamples: an interpreter's own refusal that starts with its path
(`/opt/venv/bin/python3: can't open file ...`) and a command line that goes on with a failure of
its own words keep their reading.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.core.types import EventKind
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter
from tests.analyzers.job_bundles import pack

PREFILTER = load_prefilter()
COMMAND = (
    "/opt/venv/bin/torchrun --nproc-per-node=4 --nnodes=1 --master-addr=127.0.0.1 "
    "--master-port=29961 --max-restarts=0 --log-dir /home/mlops/lm-train/out/torchrun_logs "
    "--redirects 3 /home/mlops/lm-train/train.py --steps 5 --style print --timeout 300 "
    "--faulthandler-signal"
)
PARTS = ["  data passed", "  attention passed", "  forward passed", "  backward passed"]


def stdout(rank: int) -> str:
    lines = [f"init process group: backend=gloo rank={rank} world_size=4 timeout=300s"]
    lines += ["dist init passed", "load weights passed"]
    for step in range(3):
        lines.append(f"step {step} start")
        lines += PARTS
        if step < 2:
            lines += [
                "  grad all_reduce passed",
                "  optimizer passed",
                f"step {step} done, loss=1.0",
            ]
    return "\n".join(lines) + "\n"


def dump(rank: int) -> str:
    """faulthandler's dump on SIGUSR1: the prefetch thread, then the main thread."""
    if rank == 2:
        inner = [
            '  File "/home/mlops/lm-train/train.py", line 177 in token_stats',
            '  File "/home/mlops/lm-train/train.py", line 258 in <genexpr>',
            '  File "/home/mlops/lm-train/train.py", line 258 in run',
        ]
    else:
        inner = [
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252 in all_reduce',
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py", line 83 in wrapper',
            '  File "/home/mlops/lm-train/train.py", line 264 in run',
        ]
    lines = [
        "Thread 0x00007fc5cedff6c0 (most recent call first):",
        '  File "/usr/lib/python3.11/threading.py", line 331 in wait',
        '  File "/home/mlops/lm-train/train.py", line 150 in loop',
        '  File "/usr/lib/python3.11/threading.py", line 982 in run',
        "",
        "Current thread 0x00007fc5f6c64b80 (most recent call first):",
        *inner,
        '  File "/home/mlops/lm-train/train.py", line 209 in main',
        '  File "/home/mlops/lm-train/train.py", line 281 in <module>',
    ]
    return "\n".join(lines) + "\n"


LAUNCHER = """\
W1206 09:19:17.884000 5297 torch/distributed/elastic/agent/server/api.py:753] Received 15 death signal, shutting down workers
W1206 09:19:17.885000 5297 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 5317 closing signal SIGTERM
W1206 09:19:17.886000 5297 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 5318 closing signal SIGTERM
Traceback (most recent call last):
  File "/opt/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.api.SignalException: Process 5297 got signal: 15
"""


def stopped_job(tmp_path: Path, command: str | None) -> Path:
    files = {"launcher.log": LAUNCHER}
    if command is not None:
        files["command.txt"] = command + "\n"
    for rank in range(4):
        tree = f"torchrun_logs/none_mh3h3anl/attempt_0/{rank}"
        files[f"{tree}/stdout.log"] = stdout(rank)
        files[f"{tree}/stderr.log"] = dump(rank)
    return pack(tmp_path / "job.tar.gz", files, top="job-3e077aa8")


WRAPPED = f"timeout -s TERM 45 {COMMAND}"


@pytest.mark.parametrize("command", [COMMAND, WRAPPED, None])
def test_a_saved_command_does_not_hide_a_stall_the_dumps_name(
    tmp_path: Path, command: str | None
) -> None:
    diagnosis = analyze(stopped_job(tmp_path, command), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is None
    assert diagnosis.culprit_ranks == [2]


@pytest.mark.parametrize(
    "line",
    [
        COMMAND,
        "/usr/bin/python3 -u train.py --max-failures 3 --fault-tolerance --timeout 60",
        "python3 -m torch.distributed.run --nproc_per_node 8 pretrain.py --abort-on-nan",
        "$ torchrun --standalone --nproc-per-node=2 train.py --watchdog-timeout 600",
        WRAPPED,
        "$ timeout --signal=KILL 2h nice -n 10 python3 train.py --max-failures 3",
        "nohup env NCCL_DEBUG=INFO TORCH_NCCL_ASYNC_ERROR_HANDLING=1 torchrun --nproc-per-node=8 train.py",
        "taskset -c 0-15 numactl --membind=0 /opt/venv/bin/python3 infer.py --timeout 30",
    ],
)
def test_a_command_line_is_no_event(line: str) -> None:
    assert classify(parse_line(line), PREFILTER) is None


@pytest.mark.parametrize(
    "line",
    [
        "/opt/venv/bin/python3: can't open file '/srv/train.py': [Errno 2] No such file or directory",
        "/usr/bin/python3 train.py --timeout 60 failed with exit status 1",
        "python3 invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0",
        "timeout: failed to run command 'torchrun': No such file or directory",
        "timeout 45 torchrun --nproc-per-node 4 infer.py failed with exit status 124",
        "nice -n 10 segfault at 0 ip 00007f3a2b1c4d5e sp 00007ffd1c2b3a40 error 4 in python3",
    ],
)
def test_a_failure_that_starts_with_a_command_keeps_its_reading(line: str) -> None:
    assert classify(parse_line(line), PREFILTER) == EventKind.ERROR
