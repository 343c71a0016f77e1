"""A spawn-style launch helper that logs the rendezvous URL its process group failed with.

docs/labelling.md#a-distributed-start-up-that-finds-no-launcher: detection toolkits start one
process per GPU with their own helper, which wraps `init_process_group` and, when the call
raises, logs the URL it was handed at ERROR level (`Process group URL: ...`) before re-raising.
The exception under the line says why and is read first when a rule knows it; when it was cut
away, the helper's line is the first error. A URL of `None` means no rendezvous address reached
the helper: the launch's settings, `config`, with `hccl` beside it. A real address means the
rendezvous itself failed: `hccl`, with `config` beside it.
Counterexample: a progress line that names the URL with more after it is no such record.
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import assert_reads, diagnose_text

KNOWLEDGE = load_knowledge()

_SPAWN_TAIL = """\
Traceback (most recent call last):
  File "tools/train_seg.py", line 140, in <module>
    args=(args,),
  File "/opt/venv/lib/python3.8/site-packages/detectron2/engine/launch.py", line 54, in launch
    daemon=False,
  File "/opt/venv/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 230, in spawn
    return start_processes(fn, args, nprocs, join, daemon, start_method='spawn')
  File "/opt/venv/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 150, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException: 

-- Process 2 terminated with the following error:
Traceback (most recent call last):
"""

NO_URL = (
    """\
Command Line Args: Namespace(config_file='seg.yaml', dist_url='tcp://127.0.0.1:49731', num_gpus=3, opts=['dist_url=tcp://127.0.0.1:0'])
ERROR [05/19 14:03:27 d2.engine.launch]: Process group URL: None
ERROR [05/19 14:03:27 d2.engine.launch]: Process group URL: None
ERROR [05/19 14:03:27 d2.engine.launch]: Process group URL: None
"""
    + _SPAWN_TAIL
)

ADDRESS_CUT = (
    """\
ERROR [05/19 14:03:27 d2.engine.launch]: Process group URL: tcp://10.4.0.17:49731
ERROR [05/19 14:03:27 d2.engine.launch]: Backend: NCCL
"""
    + _SPAWN_TAIL
)

ADDRESS_WITH_REASON = """\
ERROR [05/19 14:03:27 d2.engine.launch]: Process group URL: tcp://127.0.0.1:49731
Traceback (most recent call last):
  File "/opt/venv/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 69, in _wrap
    fn(i, *args)
  File "/opt/venv/lib/python3.8/site-packages/detectron2/engine/launch.py", line 107, in _distributed_worker
    raise e
  File "/opt/venv/lib/python3.8/site-packages/detectron2/engine/launch.py", line 98, in _distributed_worker
    timeout=timeout,
  File "/opt/venv/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 500, in init_process_group
    store, rank, world_size = next(rendezvous_iterator)
RuntimeError: Address already in use
"""

PROGRESS_ONLY = """\
INFO [05/19 14:03:27 d2.engine.launch]: Process group URL: tcp://127.0.0.1:49731 (3 processes)
[05/19 14:05:02 d2.utils.events]:  eta: 1:10:03  iter: 19  total_loss: 2.311
"""


def _rule(rule_id: str):
    return next(sig for sig in KNOWLEDGE.signatures if sig.id == rule_id)


def test_a_helper_that_was_handed_no_url_is_a_launch_setting() -> None:
    diagnosis = diagnose_text("stdout.log", NO_URL)
    assert_reads(
        diagnosis,
        "config",
        first_error="Process group URL: None",
        rule="cfg.process_group_url_unset",
        beside=["hccl"],
    )


def test_a_helper_whose_address_failed_is_the_rendezvous() -> None:
    diagnosis = diagnose_text("stdout.log", ADDRESS_CUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Process group URL: tcp://10.4.0.17:49731",
        rule="hccl.process_group_url_failed",
        beside=["config"],
    )


def test_the_reason_reraised_under_the_helper_line_is_read_first() -> None:
    diagnosis = diagnose_text("stdout.log", ADDRESS_WITH_REASON)
    assert_reads(diagnosis, "hccl", first_error="RuntimeError: Address already in use")


def test_a_progress_line_that_names_the_url_reads_nothing() -> None:
    unset, failed = _rule("cfg.process_group_url_unset"), _rule("hccl.process_group_url_failed")
    assert not unset.search("Process group URL: tcp://127.0.0.1:49731")
    assert not failed.search("Process group URL: None")
    diagnosis = diagnose_text("stdout.log", PROGRESS_ONLY)
    assert diagnosis.first_error is None or "Process group URL" not in diagnosis.first_error.text
