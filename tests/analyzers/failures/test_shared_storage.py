"""Data and cache files of a multi-rank job on storage every node shares.

docs/labelling.md#a-shared-file-system-that-refuses-a-file-operation: a stale handle (ESTALE)
or a call the mount does not offer (ENOSYS, file locking) is the storage set-up, `driver_env`.
docs/labelling.md#config-driver_env-or-weight_load: a missing file whose path the launcher
printed on a record of its own is still a file the job was told to read.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

SITE = "/opt/venv/lib/python3.11/site-packages"

# Two nodes build the tokenized dataset into one cache directory on NFS; the second node's
# rank finds the cache file replaced under it.
STALE_CACHE = f"""\
[rank5]: Traceback (most recent call last):
[rank5]:   File "/srv/sft/train.py", line 88, in <module>
[rank5]:     train_set = build_dataset(args)
[rank5]:   File "{SITE}/datasets/arrow_dataset.py", line 3902, in map
[rank5]:     os.replace(tmp_file.name, cache_file_name)
[rank5]: OSError: [Errno 116] Stale file handle: '/nfs/team/cache/datasets/json/default/cache-9c1e.arrow'
"""

# The peer on the other node only loses its connection afterwards.
PEER_CASCADE = """\
[rank1]:[W1204 10:02:11.000000000 ProcessGroupNCCL.cpp:1250] Connection closed by remote peer
[rank1]: torch.distributed.DistBackendError: NCCL error: remote process exited or there was a network error
"""

# A hub download on a parallel file system mounted without lock support.
NO_FLOCK = f"""\
Traceback (most recent call last):
  File "{SITE}/filelock/_unix.py", line 44, in _acquire
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
OSError: [Errno 38] Function not implemented

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/eval/fetch_model.py", line 12, in <module>
    snapshot_download("org/tiny-model", cache_dir="/lustre/proj/hub")
"""

# mpirun tags every record; the quoted path of the error came out as a record of its own.
TAGGED_SPLIT_PATH = """\
[1,mpirank:2,node-3]<stdout>:building streaming dataset from /data/shards
[1,mpirank:2,node-3]<stderr>:FileNotFoundError: [Errno 2] No such file or directory:
[1,mpirank:2,node-3]<stderr>:'/scratch/stream-cache/index.json.tmp'
"""

# Counterexample: the code's own missing implementation is not the host's.
CODE_GAP = f"""\
Traceback (most recent call last):
  File "{SITE}/mylib/ops.py", line 40, in forward
    raise NotImplementedError("Function not implemented for the sparse layout")
NotImplementedError: Function not implemented for the sparse layout
"""


def test_a_stale_handle_on_a_shared_cache_is_the_storage_set_up() -> None:
    diagnosis = diagnose_text("logs/rank5.log", STALE_CACHE)
    assert_reads(diagnosis, "driver_env", first_error="Stale file handle", beside=("config",))


def test_the_peer_that_loses_the_stale_rank_is_its_cascade() -> None:
    diagnosis = diagnose_files({"logs/rank5.log": STALE_CACHE, "logs/rank1.log": PEER_CASCADE})
    assert_reads(diagnosis, "driver_env", first_error="Stale file handle")


def test_a_lock_call_the_mount_does_not_offer_is_the_storage_set_up() -> None:
    diagnosis = diagnose_text("logs/fetch.log", NO_FLOCK)
    assert_reads(diagnosis, "driver_env", first_error="[Errno 38] Function not implemented")


def test_a_missing_file_whose_path_came_on_the_next_record_is_the_jobs_setting() -> None:
    diagnosis = diagnose_text("logs/mpirun.log", TAGGED_SPLIT_PATH)
    assert_reads(diagnosis, "config", first_error="No such file or directory")


def test_a_function_the_code_does_not_implement_is_not_the_host() -> None:
    diagnosis = diagnose_text("logs/run.log", CODE_GAP)
    assert diagnosis.category != "driver_env"
