"""A rank refused host memory in Python's words, and a rank ended by a signal from outside.

docs/labelling.md#a-native-allocation-refused-with-bad_alloc: a bare `MemoryError` or numpy's
`_ArrayMemoryError: Unable to allocate ...` is host memory refused (`oom`); numpy's petabyte
sizes are the size computed wrong of
docs/labelling.md#an-allocation-no-machine-could-hold.
docs/labelling.md#a-rank-that-exits-without-a-word: a launch script's status above 128 is
128 + the signal (137 SIGKILL, 134 SIGABRT, 139 SIGSEGV), read as torchrun's negative
exitcode; torchrun's `failed (exitcode: -15) local_rank: N` and mp.spawn's `process N terminated
with signal SIGTERM` are a rank stopped from outside, read as status 143. The excerpts follow real gloo jobs (torchrun's `[defaultN]:` console, per-rank
Python logging, a launch script's status lines) with values of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

LOST = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:{port}. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️"
)

# torchrun --tee 3, Python logging without times; rank 0 runs under an address-space limit.
NUMPY_REFUSED_CONSOLE = f"""\
[default1]:INFO:rank1:   norm passed
[default0]:INFO:rank0:   norm passed
[default0]:ERROR:rank0: model run failed
[default0]:Traceback (most recent call last):
[default0]:  File "/srv/eval/decoder.py", line 97, in forward
[default0]:    self.kv_stage = np.zeros((4, 8192, 8192), dtype=np.float32)
[default0]:                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[default0]:numpy._core._exceptions._ArrayMemoryError: Unable to allocate 1.00 GiB for an array with shape (4, 8192, 8192) and data type float32
[default3]:INFO:rank3:   norm passed
[default1]:ERROR:rank1: model run failed
[default1]:Traceback (most recent call last):
[default1]:  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3021, in all_reduce
[default1]:    work.wait()
[default1]:{LOST.format(port=13206)}
[default3]:ERROR:rank3: model run failed
[default3]:Traceback (most recent call last):
[default3]:  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3021, in all_reduce
[default3]:    work.wait()
[default3]:{LOST.format(port=13206)}
"""


def test_numpys_refused_array_is_host_memory() -> None:
    diagnosis = diagnose_files({"eval-run/console.txt": NUMPY_REFUSED_CONSOLE})
    assert_reads(diagnosis, "oom", first_error="Unable to allocate 1.00 GiB for an array")
    assert diagnosis.culprit_ranks == [0]


@pytest.mark.parametrize(
    "line",
    [
        "numpy.core._exceptions.MemoryError: Unable to allocate 745. MiB for an array with shape (97656250,) and data type float64",
        "numpy._core._exceptions._ArrayMemoryError: Unable to allocate 3.52 TiB for an array with shape (1048576, 1048576) and data type float32",
    ],
)
def test_numpys_wordings_read_as_out_of_memory(line: str) -> None:
    diagnosis = diagnose_text("job/log_2.log", line + "\n")
    assert diagnosis.category == "oom"
    assert "oom.generic_out_of_memory" in rules_of(diagnosis)


def test_numpys_petabyte_request_is_a_size_computed_wrong() -> None:
    line = (
        "numpy._core._exceptions._ArrayMemoryError: Unable to allocate 16.0 EiB for an array "
        "with shape (-1, 8) and data type float32\n"
    )
    diagnosis = diagnose_text("job/log_2.log", line)
    assert diagnosis.category == "oom"
    assert "oom.implausible_allocation_size" in rules_of(diagnosis)
    assert "oom.generic_out_of_memory" not in rules_of(diagnosis)


# A launch script started four ranks in the background and waited for each in rank order; its
# stderr (the shell's own job notices) went elsewhere. Rank 2 printed nothing before it ended.
def _launch_log(status: int) -> str:
    return (
        "started 4 ranks: 21158 21159 21160 21161\n"
        "rank 0 (pid 21158) exited with status 1\n"
        "rank 1 (pid 21159) exited with status 1\n"
        f"rank 2 (pid 21160) exited with status {status}\n"
        "rank 3 (pid 21161) exited with status 1\n"
    )


SILENT_RANK2 = """\
2026-12-05 02:05:47,310 [rank2] INFO layer 1 passed
2026-12-05 02:05:47,311 [rank2] INFO   norm passed
2026-12-05 02:05:47,329 [rank2] INFO   attention passed
"""


def _peer(rank: int, ms: int) -> str:
    return (
        f"2026-12-05 02:05:47,{ms:03d} [rank{rank}] INFO   attention passed\n"
        f"2026-12-05 02:05:49,{ms:03d} [rank{rank}] ERROR model run failed: "
        + LOST.format(port=29400 + rank)
        + "\n"
    )


def _script_job(status: int, rank2: str = SILENT_RANK2):
    return diagnose_files(
        {
            "job/launch.log": _launch_log(status),
            "job/log_0.log": _peer(0, 331),
            "job/log_1.log": _peer(1, 330),
            "job/log_2.log": rank2,
            "job/log_3.log": _peer(3, 332),
        }
    )


@pytest.mark.parametrize(
    ("status", "alternative"),
    [(137, "oom"), (139, None), (135, None), (134, "hccl")],
)
def test_a_signal_status_of_a_silent_rank_is_its_end(status: int, alternative: str | None) -> None:
    diagnosis = _script_job(status)
    assert diagnosis.first_error is not None
    assert f"rank 2 (pid 21160) exited with status {status}" in diagnosis.first_error.text
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [2]
    if alternative:
        assert alternative in {alt.category for alt in diagnosis.alternatives}


def test_an_abort_status_under_the_ranks_own_error_stays_a_summary() -> None:
    own = SILENT_RANK2 + (
        "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
        "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "listener.cc:63] false. accept: Too many open files\n"
    )
    diagnosis = _script_job(134, own)
    assert_reads(diagnosis, "driver_env", first_error="accept: Too many open files")
    assert diagnosis.culprit_ranks == [2]


def test_statuses_that_are_no_signal_keep_their_readings() -> None:
    assert _script_job(143).category == "other"
    assert _script_job(3).category == "device_fault"
    assert "dev.script_rank_signal" not in rules_of(_script_job(255))


# torchrun --log-dir --redirects 3: rank 2 was sent SIGTERM from outside while the others waited
# in all_gather; the agent stopped the rest and reports rank 2 first.
AGENT_LOG = """\
W1205 02:06:10.483000 21424 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 21427 closing signal SIGTERM
W1205 02:06:10.484000 21424 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 21428 closing signal SIGTERM
W1205 02:06:10.484000 21424 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 21430 closing signal SIGTERM
E1205 02:06:10.563000 21424 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -15) local_rank: 2 (pid: 21429) of binary: /opt/venv/bin/python3
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
/srv/ft/train.py FAILED
------------------------------------------------------------
Failures:
[1]:
  time      : 2026-12-05_02:06:10
  host      : localhost
  rank      : 0 (local_rank: 0)
  exitcode  : -15 (pid: 21427)  (SIGTERM)
  error_file: <N/A>
  traceback : Signal 15 (SIGTERM) received by PID 21427
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-12-05_02:06:10
  host      : localhost
  rank      : 2 (local_rank: 2)
  exitcode  : -15 (pid: 21429)  (SIGTERM)
  error_file: <N/A>
  traceback : Signal 15 (SIGTERM) received by PID 21429
============================================================
"""
RUN = "ft/tlogs/none_0097xx3a/attempt_0"
STOPPED_STDOUT = """\
prefill start: 8 tokens
  norm passed
  attention passed
  MoE passed
layer 0 passed
  norm passed
  attention passed
fetching expert weights for layer 1 from remote store
"""


def _waiting(rank: int) -> dict[str, str]:
    return {
        f"{RUN}/{rank}/stdout.log": STOPPED_STDOUT.replace(
            "fetching expert weights for layer 1 from remote store\n", ""
        )
        + "model run failed\n",
        f"{RUN}/{rank}/stderr.log": (
            f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/srv/ft/train.py", line 112, in forward\n'
            f"[rank{rank}]:     dist.all_gather(out, m)\n"
            f"[rank{rank}]: "
        )
        + LOST.format(port=51355)
        + "\n",
    }


def test_a_child_the_agent_found_stopped_by_sigterm_is_the_culprit() -> None:
    files = {"ft/launcher.log": AGENT_LOG}
    for rank in (0, 1, 3):
        files.update(_waiting(rank))
    files[f"{RUN}/2/stdout.log"] = STOPPED_STDOUT
    files[f"{RUN}/2/stderr.log"] = ""
    diagnosis = diagnose_files(files)
    assert_reads(diagnosis, "other", first_error="failed (exitcode: -15) local_rank: 2")
    assert {"device_fault", "hang"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.culprit_ranks == [2]


# torch.multiprocessing.spawn, one log_<rank>.log per child: rank 1 was sent SIGTERM while it
# fetched weights; join stopped the other children before they logged a word.
SPAWN_LOG = """\
spawning 4 ranks, logs in /srv/gen/logs
W1205 02:14:07.605000 9881 torch/multiprocessing/spawn.py:165] Terminating process 9900 via signal SIGTERM
W1205 02:14:07.605000 9881 torch/multiprocessing/spawn.py:165] Terminating process 9902 via signal SIGTERM
W1205 02:14:07.606000 9881 torch/multiprocessing/spawn.py:165] Terminating process 9903 via signal SIGTERM
Traceback (most recent call last):
  File "/srv/gen/launch.py", line 20, in <module>
    mp.spawn(child, args=(world, argv, logdir), nprocs=world, join=True)
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 192, in join
    raise ProcessExitedException(
torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGTERM
"""


def _spawned(rank: int, last: str) -> str:
    return (
        f"2026-12-05 02:14:06,545 [rank{rank}] INFO layer 0 passed\n"
        f"2026-12-05 02:14:06,546 [rank{rank}] INFO   norm passed\n"
        f"2026-12-05 02:14:06,553 [rank{rank}] INFO   attention passed\n" + last
    )


def test_a_spawned_child_stopped_by_sigterm_is_the_culprit() -> None:
    files = {"gen/spawn.log": SPAWN_LOG}
    for rank in range(4):
        last = (
            "2026-12-05 02:14:06,554 [rank1] INFO fetching expert weights for layer 1\n"
            if rank == 1
            else ""
        )
        files[f"gen/log_{rank}.log"] = _spawned(rank, last)
    diagnosis = diagnose_files(files)
    assert_reads(diagnosis, "other", first_error="process 1 terminated with signal SIGTERM")
    assert {"device_fault", "hang"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.culprit_ranks == [1]
