"""Input pipelines of multi-rank jobs that fail on a sample, on a network mount or in a wrap.

docs/labelling.md#an-image-the-decoder-cannot-read: an image library that cannot decode a
sample is the input data, `other` with `driver_env` beside it, and its line under the data
loader's re-raise is the first error.
docs/labelling.md#a-shared-file-system-that-refuses-a-file-operation: an errno only a remote file
system gives (ECOMM, EHOSTDOWN, EREMOTEIO with a path) is the storage, `driver_env`, ahead of the
missing cache file it leaves behind.
docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout: a watchdog headline that a
terminal wrapped before its work is still the collective's timeout.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SITE = "/opt/conda/lib/python3.10/site-packages"

# Rank 1 of an mpirun job: a loader worker meets a file Pillow cannot identify.
UNIDENTIFIED_IMAGE = f"""\
[1,1]<stdout>:Epoch: [3]  [1200/2502]  eta: 0:41:07  lr: 0.000500  loss: 4.1873
[1,1]<stderr>:Traceback (most recent call last):
[1,1]<stderr>:  File "train_vit.py", line 212, in train_one_epoch
[1,1]<stderr>:    for samples, targets in loader:
[1,1]<stderr>:  File "{SITE}/torch/utils/data/dataloader.py", line 1345, in _next_data
[1,1]<stderr>:    return self._process_data(data)
[1,1]<stderr>:  File "{SITE}/torch/_utils.py", line 694, in reraise
[1,1]<stderr>:    raise exception
[1,1]<stderr>:PIL.UnidentifiedImageError: Caught UnidentifiedImageError in DataLoader worker process 5.
[1,1]<stderr>:Original Traceback (most recent call last):
[1,1]<stderr>:  File "{SITE}/torchvision/datasets/folder.py", line 264, in pil_loader
[1,1]<stderr>:    img = Image.open(f)
[1,1]<stderr>:  File "{SITE}/PIL/Image.py", line 3305, in open
[1,1]<stderr>:    raise UnidentifiedImageError(msg)
[1,1]<stderr>:PIL.UnidentifiedImageError: cannot identify image file <_io.BufferedReader name='/datasets/imagenet/train/n02086240/n02086240_3317.JPEG'>
"""

# A torchrun rank whose worker read a JPEG that ends early.
TRUNCATED_IMAGE = f"""\
[rank3]: OSError: Caught OSError in DataLoader worker process 1.
[rank3]: Original Traceback (most recent call last):
[rank3]:   File "{SITE}/PIL/ImageFile.py", line 293, in load
[rank3]:     raise OSError(msg)
[rank3]: OSError: image file is truncated (23 bytes not processed)
[rank1]:[E1203 11:02:44.118 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=8812, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600042 milliseconds before timing out.
"""

# Counterexample: the switch that lets Pillow accept truncated files is a setting.
TRUNCATED_SWITCH = """\
ImageFile.LOAD_TRUNCATED_IMAGES = True  # accept images whose file is truncated
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.
"""

# Ranks of one node build a datasets cache on an NFS mount; the client loses its server and the
# next step cannot find the file the write left.
CACHE_ON_LOST_MOUNT = """\
Running tokenizer on dataset (num_proc=16):  41%|####      | 20480/50000 [00:12<00:17, 1703.11 examples/s]
OSError: [Errno 70] Communication error on send: '/nfs/team/hf_cache/json/default-7c02e1/0.0.0/3be1a9.incomplete/json-train-00003-of-00016.arrow'
[rank2]: FileNotFoundError: [Errno 2] Failed to open local file '/nfs/team/hf_cache/json/default-7c02e1/0.0.0/3be1a9/cache-a51d27.arrow'. Detail: [errno 2] No such file or directory
"""

# A loader worker on a CephFS mount gets EREMOTEIO for one file.
REMOTE_IO_WITH_PATH = f"""\
[rank5]: OSError: Caught OSError in DataLoader worker process 2.
[rank5]: Original Traceback (most recent call last):
[rank5]:   File "{SITE}/detkit/data/readers.py", line 71, in read_image
[rank5]:     with open(path, "rb") as f:
[rank5]: OSError: [Errno 121] Remote I/O error: '/mnt/cephfs/coco/train2017/000000190236.jpg'
"""

# Counterexample: EREMOTEIO with no path comes from a device bus as often as from a mount.
REMOTE_IO_BARE = """\
Traceback (most recent call last):
  File "/opt/sensors/poll.py", line 18, in read_temp
    bus.read_byte_data(0x48, 0)
OSError: [Errno 121] Remote I/O error
"""

# A terminal 100 columns wide wrapped the watchdog's headline before the work it names.
WATCHDOG_WRAPPED_BEFORE_WORK = """\
Steps: 2041/20000 [2:13:40<19:35:11,  3.93s/it, lr=1e-05, step_loss=0.0815]
[rank6]:[E1204 03:11:52.067 ProcessGroupNCCL.cpp:689] [Rank 6] Watchdog caught collective operation timeout:
WorkNCCL(SeqNum=71230, OpType=ALLGATHER, NumelIn=16, NumelOut=128, Timeout(ms)=3600000)
ran for 3600081 milliseconds before timing out.
  traceback : Signal 6 (SIGABRT) received by PID 88412
"""


def test_an_image_pillow_cannot_identify_is_the_input_data() -> None:
    diagnosis = diagnose_text("logs/mpirun_rank1.log", UNIDENTIFIED_IMAGE)
    assert_reads(
        diagnosis, "other", first_error="cannot identify image file", beside=("driver_env",)
    )


def test_a_truncated_image_comes_before_the_peers_timeout() -> None:
    diagnosis = diagnose_text("logs/train.log", TRUNCATED_IMAGE)
    assert_reads(diagnosis, "other", first_error="image file is truncated", beside=("driver_env",))


def test_the_truncated_images_switch_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", TRUNCATED_SWITCH)
    assert diagnosis.first_error is not None
    assert "out of memory" in diagnosis.first_error.text


def test_ecomm_on_a_shared_cache_is_the_storage_before_the_missing_file() -> None:
    diagnosis = diagnose_text("logs/node0.log", CACHE_ON_LOST_MOUNT)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="[Errno 70] Communication error on send",
        beside=("config",),
    )


def test_eremoteio_on_a_file_path_is_the_storage() -> None:
    diagnosis = diagnose_text("logs/rank5.log", REMOTE_IO_WITH_PATH)
    assert_reads(diagnosis, "driver_env", first_error="Remote I/O error: '/mnt/cephfs")


def test_eremoteio_without_a_path_is_not_read_as_the_storage() -> None:
    diagnosis = diagnose_text("logs/poll.log", REMOTE_IO_BARE)
    assert diagnosis.category != "driver_env"


def test_a_watchdog_headline_wrapped_before_its_work_is_the_collective_timeout() -> None:
    diagnosis = diagnose_text("logs/train.log", WATCHDOG_WRAPPED_BEFORE_WORK)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="[Rank 6] Watchdog caught collective operation timeout:",
        beside=("hang",),
    )


# The device's hardware JPEG decoder (DVPP JPEGD) refuses images in its own words, with no level:
# a stream whose end marker is broken, or an encoding it does not take.
DEVICE_JPEG_BROKEN = """\
EOI segment of the stream is invalid
EOI segment of the stream is invalid, it should be FFD9. Try software decoding
"""

DEVICE_JPEG_UNSUPPORTED = """\
Unsupported subsample format, just support jpeg with YUV 444 440 422 420 400
do not support progressive mode
"""


def test_a_jpeg_the_device_decoder_finds_broken_is_the_input_data() -> None:
    diagnosis = diagnose_text("stdout.log", DEVICE_JPEG_BROKEN)
    assert_reads(
        diagnosis,
        "other",
        first_error="EOI segment of the stream is invalid",
        rule="other.device_jpeg_undecodable",
        beside=("driver_env",),
    )


def test_a_jpeg_encoding_the_device_decoder_does_not_take_is_the_input_data() -> None:
    diagnosis = diagnose_text("stdout.log", DEVICE_JPEG_UNSUPPORTED)
    assert_reads(
        diagnosis,
        "other",
        first_error="Unsupported subsample format",
        rule="other.device_jpeg_unsupported",
        beside=("op_constraint",),
    )


def test_a_decoder_that_falls_back_to_software_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "stdout.log", "[INFO] JPEGD: progressive mode image, decoding in software\n"
    )
    assert diagnosis.first_error is None
