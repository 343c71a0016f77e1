"""An asynchronous checkpoint saver whose commit finds a step's shard records missing.

dlrover's flash checkpoint copies each rank's shard from shared memory to storage in a saver
thread of the node's agent, and commits a step once every shard has left its `done` record in
the step's staging directory. Under a sharding layout the saver does not serve (pipeline stages
whose ranks never hand it a shard), or with a checkpoint directory that is not one storage for
all nodes, the count falls short (its INFO record `The number of ready shards is 26 != 32`) and
the commit lists a directory that was never made: `FileNotFoundError` from the saver's thread,
often cut short in a paste. The job's save setup and the saver do not combine: `config`, with a
framework gap (`other`) and storage that is not shared (`driver_env`) beside it. The errno names
a path of the saver's own, so the rule holds only where the saver's frames raised it; the same
errno from the job's own code keeps the missing-file reading.

docs/labelling.md#checkpoint-saves-the-sharding-setup-cannot-serve
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.async_checkpoint_commit_missing"

SAVER_THREAD = """\
[2026-11-30 14:02:11,306] [INFO] [ckpt_saver.py:905:commit_checkpoint] The number of ready shards is 12 != 16.
Exception in thread checkpoint-saver:
Traceback (most recent call last):
  File "/usr/lib/python3.10/threading.py", line 1016, in _bootstrap_inner
    self.run()
  File "/usr/lib/python3.10/threading.py", line 953, in run
    self._target(*self._args, **self._kwargs)
  File "/usr/local/lib/python3.10/dist-packages/dlrover/python/elastic_agent/torch/ckpt_saver.py", line 441, in _saver
    cls._saver_instance._sync_shm_to_storage()
  File "/usr/local/lib/python3.10/dist-packages/dlrover/python/elastic_agent/torch/ckpt_saver.py", line 548, in _sync_shm_to_storage
    self.save_step_checkpoint(event.step)
  File "/usr/local/lib/python3.10/dist-packages/dlrover/python/elastic_agent/torch/ckpt_saver.py", line 870, in save_step_checkpoint
    self.commit_checkpoint(
  File "/usr/local/lib/python3.10/dist-packages/dlrover/python/elastic_agent/torch/ckpt_saver.py", line 894, in commit_checkpoint
    done_files = self.storage.listdir(step_done_dir)
  File "/usr/local/lib/python3.10/dist-packages/dlrover/python/common/storage.py", line 183, in listdir
    return os.listdir(path)
FileNotFoundError: [Errno 2] No such file or directory: '/mnt/ckpt/gpt-7b/._dlrover_ckpt_stage/400.done'
"""

# A paste cut mid-line, as a report's quote ends.
SAVER_THREAD_CUT = SAVER_THREAD.rsplit("No such", 1)[0] + "No\n"

# The job's own read of a data file that is not there.
OWN_DATA_FILE = """\
Traceback (most recent call last):
  File "/home/u/pretrain/data.py", line 52, in build
    names = os.listdir(self.shard_dir)
FileNotFoundError: [Errno 2] No such file or directory: '/mnt/data/tokens/train'
"""


def test_a_commit_that_finds_no_done_records_is_the_save_setup() -> None:
    diagnosis = diagnose_text("agent.log", SAVER_THREAD)
    assert_reads(
        diagnosis,
        "config",
        first_error="._dlrover_ckpt_stage/400.done",
        rule=RULE,
        beside=("other", "driver_env"),
    )


def test_a_quote_cut_after_the_errno_reads_the_same() -> None:
    diagnosis = diagnose_text("agent.log", SAVER_THREAD_CUT)
    assert_reads(diagnosis, "config", first_error="FileNotFoundError: [Errno 2] No", rule=RULE)


def test_the_jobs_own_missing_file_keeps_its_reading() -> None:
    diagnosis = diagnose_text("train.log", OWN_DATA_FILE)
    assert RULE not in rules_of(diagnosis)
