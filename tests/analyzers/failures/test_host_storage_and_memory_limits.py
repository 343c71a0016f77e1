"""Host storage and host memory limits met by multi-rank jobs, beside the full disk.

docs/labelling.md#config-driver_env-or-weight_load (a quota used up, as a full disk) and
docs/labelling.md#a-shared-file-system-that-refuses-a-file-operation (storage that fails a read
or write, an HDFS client the node cannot start, HDF5 file locks) and
docs/labelling.md#memory-shared-with-or-registered-for-another-process (the OS refusing a CUDA
call on pinned or shared host memory). Fixtures are in the printed shapes (Python tracebacks,
a Megatron logger line, libhdfs's stderr, h5py's OSError, a BytePS-style fatal check) with
paths and values of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A kernel cache in the home directory fills the user's quota while the scratch volume has room.
QUOTA_IN_KERNEL_CACHE = """\
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/triton/runtime/cache.py", line 122, in put
[rank1]:     with open(temp_path, mode) as f:
[rank1]: OSError: [Errno 122] Disk quota exceeded
W0308 10:41:09.001000 881 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 902 closing signal SIGTERM
E0308 10:41:09.310000 881 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 903) of binary: /opt/venv/bin/python
"""

# An asynchronous checkpoint writer on a parallel file system reports the failed write.
ASYNC_SAVE_EIO = """\
[2026-03-08 10:41:02] iteration      400/   10000 | consumed samples:        51200 | lm loss: 2.113E+00
[2026-03-08 10:41:05] saving checkpoint at iteration     400 to /lustre/proj/ckpt
ERROR: megatron.core.dist_checkpointing.strategies.filesystem_async: Local process 3 encountered an error: [Errno 5] Input/output error
"""

# A loader worker reading small files from a network mount.
LOADER_EIO = """\
Traceback (most recent call last):
  File "/opt/train/data.py", line 61, in __getitem__
    with open(path, "rb") as f:
OSError: [Errno 5] Input/output error: '/nfs/frames/train/0412/img_00031.jpg'
"""

# libhdfs on a node without Hadoop's classes on the CLASSPATH, then pyarrow's teardown.
HDFS_CLIENT = """\
rank-1 worker-0 dataset-captions: resuming data at parquet#0, rg#0, row#0
loadFileSystems error:
(unable to get root cause for java.lang.NoClassDefFoundError)
(unable to get stack trace for java.lang.NoClassDefFoundError)
hdfsBuilderConnect(forceNewInstance=1, nn=hdfs://nn-7.cluster:8020, port=8020, kerbTicketCachePath=(NULL), userName=(NULL)) error:
(unable to get root cause for java.lang.NoClassDefFoundError)
/arrow/cpp/src/arrow/status.cc:137: Failed to disconnect hdfs client: IOError: HDFS hdfsFS::Disconnect failed. Detail: [errno 9] Bad file descriptor
"""

# Ranks opening one HDF5 file at once, one of them for writing.
HDF5_LOCK_HELD = """\
Traceback (most recent call last):
  File "eval_grid.py", line 77, in run
    f = h5py.File(out_file, "r+" if rank == 0 else "r")
  File "h5py/h5f.pyx", line 102, in h5py.h5f.open
OSError: Unable to open file (unable to lock file, errno = 11, error message = 'Resource temporarily unavailable')
"""

# The same open on a mount without locks.
HDF5_NO_LOCKS = """\
  File "h5py/h5f.pyx", line 102, in h5py.h5f.open
OSError: Unable to open file (unable to lock file, errno = 37, error message = 'No locks available')
"""

# A data loader pinning its batches under a small locked-memory limit.
PIN_MEMORY_REFUSED = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/pin_memory.py", line 58, in pin_memory
    return data.pin_memory(device)
RuntimeError: CUDA error: OS call failed or operation not supported on this OS
"""


@pytest.mark.parametrize(
    ("text", "category", "first", "also"),
    [
        pytest.param(
            QUOTA_IN_KERNEL_CACHE, "driver_env", "Disk quota exceeded", "config", id="quota"
        ),
        pytest.param(
            ASYNC_SAVE_EIO, "driver_env", "[Errno 5] Input/output error", "other", id="eio-save"
        ),
        pytest.param(
            LOADER_EIO, "driver_env", "[Errno 5] Input/output error", "other", id="eio-load"
        ),
        pytest.param(HDFS_CLIENT, "driver_env", "loadFileSystems error:", "config", id="hdfs"),
        pytest.param(HDF5_LOCK_HELD, "config", "errno = 11", "other", id="hdf5-lock-held"),
        pytest.param(HDF5_NO_LOCKS, "driver_env", "errno = 37", "config", id="hdf5-no-locks"),
        pytest.param(PIN_MEMORY_REFUSED, "driver_env", "OS call failed", "oom", id="pinned-memory"),
    ],
)
def test_host_storage_and_memory_limits(text: str, category: str, first: str, also: str) -> None:
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(diagnosis, category, first_error=first, beside=(also,))


def test_the_quota_comes_before_the_launchers_report() -> None:
    diagnosis = diagnose_text("issue/log.txt", QUOTA_IN_KERNEL_CACHE)
    assert diagnosis.first_error is not None
    assert "exitcode" not in diagnosis.first_error.text


def test_the_hdfs_teardown_is_not_the_first_error() -> None:
    diagnosis = diagnose_text("issue/log.txt", HDFS_CLIENT)
    assert diagnosis.first_error is not None
    assert "Failed to disconnect" not in diagnosis.first_error.text


def test_a_transport_librarys_input_output_error_keeps_its_reading() -> None:
    """UCX's own `Input/output error` after a call is the link's, not the storage's."""
    text = (
        "[1690011223.104589] [gpu-n07:20411:0]        ucp_rkey.c:250  UCX  ERROR Failed to "
        "unpack remote key from remote md[3]: Input/output error\n"
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert diagnosis.category == "hccl", diagnosis.root_cause


# A non-leader rank of a streaming dataset gives up waiting for the index in its own cache folder.
STREAMING_WAIT = """\
[rank5]:   File "/opt/venv/lib/python3.11/site-packages/streaming/base/stream.py", line 390, in get_shards
[rank5]:     wait_for_file_to_exist(filename, TICK, 60,
[rank5]: RuntimeError: Index file /tmp/tmp3c9qz1wd/val/index.json took too long to download, bailing out: 60.000 < 60.002 sec.
"""

# A node's non-leader rank gives up waiting for its local leader, under Composer's launcher.
STREAMING_LEADER_WAIT = """\
[rank3]: RuntimeError: Waiting for local rank 0, bailing out: 120.000 < 120.027 sec.
Exception ignored in: <function StreamingDataset.__del__ at 0x7f31c2a41d30>
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/streaming/base/util.py", line 49, in wait_for_file_to_exist
    raise RuntimeError(f'{err_msg}, bailing out: ' + f'{timeout:.3f} < {dt:.3f} sec.')
RuntimeError: Waiting for local rank 0, bailing out: 120.000 < 120.029 sec.
----------End global rank 3 STDERR----------
ERROR:composer.cli.launcher:Global rank 0 (PID 51022) exited with code -15
"""

# torch.save cannot open the file it is to write.
SAVE_NOT_OPENED = """\
Epoch 3, time usage: 812.415s, average loss: 0.0412
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 287, in __init__
    super().__init__(torch._C.PyTorchFileWriter(str(name)))
RuntimeError: File /mnt/out/ckpt/epoch_3.pt cannot be opened.
"""


def test_a_rank_giving_up_on_a_file_another_process_downloads_is_the_set_up() -> None:
    """docs/labelling.md#a-data-library-not-told-how-to-share-data-over-the-ranks"""
    diagnosis = diagnose_text("issue/log.txt", STREAMING_WAIT)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.confidence < 0.8
    assert diagnosis.first_error is not None
    assert "took too long to download" in diagnosis.first_error.text
    assert {"driver_env", "other"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_rank_giving_up_on_its_local_leader_is_the_same_wait() -> None:
    """docs/labelling.md#a-data-library-not-told-how-to-share-data-over-the-ranks"""
    diagnosis = diagnose_text("issue/log.txt", STREAMING_LEADER_WAIT)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.confidence < 0.8
    assert diagnosis.first_error is not None
    assert "Waiting for local rank 0" in diagnosis.first_error.text
    assert diagnosis.first_error.line == 1
    assert {"hang", "other"} <= {alt.category for alt in diagnosis.alternatives}


def test_bailing_out_without_the_timeout_pair_is_no_wait() -> None:
    """docs/labelling.md#a-data-library-not-told-how-to-share-data-over-the-ranks"""
    text = "DEBUG streaming: local leader ready after 3.2 sec, no need for bailing out\n"
    diagnosis = diagnose_text("issue/log.txt", text)
    assert diagnosis.category != "config", diagnosis.root_cause


def test_a_checkpoint_file_that_cannot_be_opened_offers_the_host_and_the_path() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("issue/log.txt", SAVE_NOT_OPENED)
    assert_reads(diagnosis, "other", first_error="cannot be opened")
    assert {"driver_env", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_missing_folder_named_by_the_writer_keeps_the_path_reading() -> None:
    text = SAVE_NOT_OPENED.replace(
        "File /mnt/out/ckpt/epoch_3.pt cannot be opened.",
        "Parent directory /mnt/out/ckpt does not exist.",
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert diagnosis.category == "config", diagnosis.root_cause


# torch 2.13's archive writer names the reason the open failed, and leaves the path out.
SAVE_OPEN_STRERROR = """\
2026-12-05 13:56:48,379 [rank2] INFO saving checkpoint to /mnt/ckpt/run4/shard_2.pt
2026-12-05 13:56:48,381 [rank2] ERROR model run failed
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 848, in __init__
    super().__init__(torch._C.PyTorchFileWriter(self.name, _compute_crc32, _get_storage_alignment()))
RuntimeError: [enforce fail at inline_container.cc:747] . open file failed with strerror: Read-only file system
"""


def test_a_save_on_a_read_only_mount_is_the_output_path_or_the_mount() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("issue/log.txt", SAVE_OPEN_STRERROR)
    assert_reads(diagnosis, "config", first_error="Read-only file system", beside=("driver_env",))


def test_python_s_own_read_only_error_is_read_alike() -> None:
    text = SAVE_NOT_OPENED.replace(
        "RuntimeError: File /mnt/out/ckpt/epoch_3.pt cannot be opened.",
        "OSError: [Errno 30] Read-only file system: '/mnt/out/ckpt/epoch_3.pt'",
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert diagnosis.category == "config", diagnosis.root_cause


def test_the_writer_refused_a_permission_is_read_as_the_refused_path() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: the writer's strerror for errno 13
    is the refused open of a path the job was pointed at, as Python's own PermissionError."""
    text = SAVE_OPEN_STRERROR.replace("Read-only file system", "Permission denied")
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(
        diagnosis, "config", first_error="strerror: Permission denied", beside=("driver_env",)
    )
    assert diagnosis.confidence < 0.8


def test_the_writer_s_open_failure_for_another_reason_keeps_the_save_reading() -> None:
    text = SAVE_OPEN_STRERROR.replace("Read-only file system", "Input/output error")
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(diagnosis, "other", first_error="open file failed")
    assert {"driver_env", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_kernel_remounting_a_disk_read_only_is_not_a_write_on_a_read_only_mount() -> None:
    text = "EXT4-fs (nvme0n1p1): Remounting filesystem read-only\n"
    diagnosis = diagnose_text("issue/log.txt", text)
    assert diagnosis.category != "config", diagnosis.root_cause
