"""A process that cannot write because its file system is full.

docs/labelling.md#config-driver_env-or-weight_load: `[Errno 28] No space left on device` is the
host or container running short of disk or of /dev/shm, so the machine's set-up, and it is the
first error ahead of the start-up failures the writer's component prints after it. Fixtures
follow the CANN plog-style line, the Python exception and the torch data-loader shapes, with
values of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# The operator compiler's repository manager cannot dump its cache while CANN initialises;
# the knowledge base and the TBE start-up then fail in turn.
COMPILER_CACHE_DISK_FULL = """\
[TRACE] GE(30412,python):2026-03-09-10:02:11.120.004 [status:INIT] [ge_api.cc:144]30412 GEInitializeImpl:GEInitialize start
[ERROR] TBE(30412,python):2026-03-09-10:02:13.774.901 [repository_manager_log.py:30][log] [multiprocess_util.py:168][repository_manager] msg_mgr_dump raise error[[Errno 28] No space left on device]
[ERROR] TUNE(30412,python):2026-03-09-10:02:13.775.230 [py_interface.cpp:224][CANNKB][Tid:30412]"Failed to call cann_kb_init."
[ERROR] TEFUSION(30412,python):2026-03-09-10:02:13.775.611 [fusion_manager.cc:646]30412 InitCannKB call CannKbInit failed. res = [6]. init params: [Ascend910B3, 24, ].
[ERROR] TEFUSION(30412,python):2026-03-09-10:02:13.775.902 [fusion_api.cc:84]30412 TbeInitialize failed to initialize tbe.
"""

# A training rank that fills the checkpoint volume while saving.
CHECKPOINT_DISK_FULL = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/opt/train/pretrain.py", line 412, in save_checkpoint
[rank3]:     torch.save(state_dict, path)
[rank3]:   File "/usr/local/lib/python3.10/site-packages/torch/serialization.py", line 628, in save
[rank3]:     with _open_zipfile_writer(f) as opened_zipfile:
[rank3]: OSError: [Errno 28] No space left on device: '/mnt/ckpt/iter_0004000/mp_rank_03/model_optim_rng.pt'
"""

# A data-loader worker whose shared-memory segment does not fit in a container's /dev/shm.
SHARED_MEMORY_FULL = """\
Traceback (most recent call last):
  File "/usr/local/lib/python3.10/site-packages/torch/multiprocessing/reductions.py", line 617, in reduce_storage
    fd, size = storage._share_fd_cpu_()
RuntimeError: unable to write to file </torch_5512_1834207720_7>: No space left on device (28)
"""


@pytest.mark.parametrize(
    ("text", "first"),
    [
        pytest.param(COMPILER_CACHE_DISK_FULL, "No space left on device", id="compiler-cache"),
        pytest.param(CHECKPOINT_DISK_FULL, "No space left on device", id="checkpoint-save"),
        pytest.param(SHARED_MEMORY_FULL, "No space left on device (28)", id="shared-memory"),
    ],
)
def test_a_full_file_system_is_the_machine(text: str, first: str) -> None:
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(diagnosis, "driver_env", first_error=first)


def test_the_compile_cache_failure_comes_before_the_init_failures_it_causes() -> None:
    diagnosis = diagnose_text("issue/log.txt", COMPILER_CACHE_DISK_FULL)
    assert diagnosis.first_error is not None
    assert "TbeInitialize" not in diagnosis.first_error.text
    assert "CannKbInit" not in diagnosis.first_error.text


def test_host_memory_exhaustion_is_not_a_full_disk() -> None:
    """An allocator's refusal is memory, whatever else the log says about the disk."""
    text = (
        "[INFO] disk check: 812 GiB of space left on /data\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/train/data.py", line 88, in __iter__\n'
        "    batch = np.concatenate(chunks)\n"
        "OSError: [Errno 12] Cannot allocate memory\n"
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(diagnosis, "oom", first_error="Cannot allocate memory")


# A checkpoint writer whose archive ended short; nothing says why.
CHECKPOINT_CUT_SHORT = """\
[rank0]:   File "/usr/local/lib/python3.10/site-packages/torch/serialization.py", line 690, in __exit__
[rank0]:     self.file_like.write_end_of_file()
[rank0]: RuntimeError: [enforce fail at inline_container.cc:603] . unexpected pos 5120 vs 4987
"""


def test_a_checkpoint_write_cut_short_is_not_read_as_a_full_disk() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: the line names no cause."""
    diagnosis = diagnose_text("issue/log.txt", CHECKPOINT_CUT_SHORT)
    assert_reads(diagnosis, "other", first_error="unexpected pos", beside=("driver_env",))


def test_a_full_disk_line_beside_a_cut_short_write_decides() -> None:
    text = CHECKPOINT_CUT_SHORT.replace(
        "[rank0]: RuntimeError",
        "[rank0]: OSError: [Errno 28] No space left on device: '/mnt/ckpt/step_9/optim.pt'\n"
        "[rank0]: RuntimeError",
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert diagnosis.category == "driver_env", diagnosis.root_cause


# A rank whose checkpoint writer had one of its writes refused while streaming a tensor.
CHECKPOINT_WRITE_REFUSED = """\
[2026-05-02 11:40:07] saving checkpoint to /mnt/shared/run7/step_1200
[rank1]: Traceback (most recent call last):
[rank1]:   File "/usr/local/lib/python3.10/site-packages/torch/serialization.py", line 651, in save
[rank1]:     _save(obj, opened_zipfile, pickle_module, pickle_protocol)
[rank1]:   File "/usr/local/lib/python3.10/site-packages/torch/serialization.py", line 883, in _save
[rank1]:     zip_file.write_record(name, storage, num_bytes)
[rank1]: RuntimeError: [enforce fail at inline_container.cc:595] . PytorchStreamWriter failed writing file data/31: file write failed
"""


def test_a_refused_checkpoint_write_is_a_failed_save_not_a_full_disk() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: the writer names no cause either."""
    diagnosis = diagnose_text("issue/log.txt", CHECKPOINT_WRITE_REFUSED)
    assert_reads(
        diagnosis, "other", first_error="failed writing file data/31", beside=("driver_env",)
    )
    assert "refused" in diagnosis.root_cause


def test_a_full_disk_line_beside_a_refused_write_decides() -> None:
    text = CHECKPOINT_WRITE_REFUSED.replace(
        "[rank1]: RuntimeError",
        "[rank1]: OSError: [Errno 28] No space left on device: '/mnt/shared/run7/optim_1.pt'\n"
        "[rank1]: RuntimeError",
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert diagnosis.category == "driver_env", diagnosis.root_cause


def test_a_full_disk_reported_after_the_refused_write_says_why_it_was_refused() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: the refused write stays
    the first error, and a later line of the same output that finds the disk full (the
    harness that ran the job writing its own record) gives the label."""
    text = CHECKPOINT_WRITE_REFUSED + (
        "W0502 11:40:09.117000 2210 torch/distributed/elastic/multiprocessing/api.py:897] "
        "Sending process 2231 closing signal SIGTERM\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/dist-packages/nbrunner/io.py", line 88, in write\n'
        "    handle.write(buf)\n"
        "OSError: [Errno 28] No space left on device\n"
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="failed writing file data/31",
        rule="env.no_space_left",
        beside=("other",),
    )


def test_a_later_failure_of_another_kind_leaves_the_refused_write_a_failed_save() -> None:
    """Counterexample: a later refusal that names no full disk says nothing of this one."""
    text = CHECKPOINT_WRITE_REFUSED + (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/dist-packages/nbrunner/io.py", line 88, in write\n'
        "    handle.write(buf)\n"
        "OSError: [Errno 5] Input/output error\n"
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(
        diagnosis, "other", first_error="failed writing file data/31", beside=("driver_env",)
    )


def test_a_checkpoint_reader_failure_is_not_a_refused_write() -> None:
    """Reading a damaged archive is not the writer's check and keeps its own reading."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/train/resume.py", line 40, in load_state\n'
        "    state = torch.load(path)\n"
        "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory\n"
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert "refused by the file system" not in diagnosis.root_cause


# A trainer's save on rank 0 that writes its weights through safetensors; the library's Rust
# core passes up the operating system's refusal with the errno it got.
SAFETENSORS_SAVE_REFUSED = """\
[INFO|trainer.py:3510] 2026-04-18 09:12:40,118 >> Saving model checkpoint to out/lora-7b/checkpoint-600
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/ft/train.py", line 201, in <module>
[rank0]:     trainer.train()
[rank0]:   File "/usr/local/lib/python3.11/site-packages/safetensors/torch.py", line 286, in save_file
[rank0]:     serialize_file(_flatten(tensors), filename, metadata=metadata)
[rank0]: safetensors_rust.SafetensorError: Error while serializing: IoError(Os { code: ERRNO })
[2026-04-18 09:12:44,902] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 0 (pid: 40112) of binary: /usr/bin/python3
"""


def test_a_safetensors_save_on_a_full_disk_is_the_machine() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: a write, not an unreadable file."""
    text = SAFETENSORS_SAVE_REFUSED.replace(
        "code: ERRNO", 'code: 28, kind: StorageFull, message: "No space left on device"'
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(diagnosis, "driver_env", first_error="Error while serializing")


def test_a_safetensors_save_refused_for_another_reason_is_a_failed_save() -> None:
    text = SAFETENSORS_SAVE_REFUSED.replace(
        "code: ERRNO", 'code: 5, kind: Uncategorized, message: "Input/output error"'
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(diagnosis, "other", first_error="Error while serializing", beside=("driver_env",))


def test_a_safetensors_file_that_cannot_be_read_keeps_the_loading_reading() -> None:
    """Reading a damaged file is the counterexample: the checkpoint is what is wrong."""
    text = (
        "[rank2]: Traceback (most recent call last):\n"
        '[rank2]:   File "/opt/ft/train.py", line 88, in load_model\n'
        "[rank2]:     state = load_file(path)\n"
        "[rank2]: safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge\n"
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert diagnosis.category == "weight_load", diagnosis.root_cause


# A rank whose launch set `ulimit -f`: its print past the limit fails with EFBIG (Python
# ignores SIGXFSZ); the traceback went to the job script's stderr.
FILE_SIZE_LIMIT_PYTHON = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/infer/run.py", line 88, in dump_hidden
[rank3]:     print(row, flush=True)
[rank3]: OSError: [Errno 27] File too large
"""

# Another program under the same limit is killed by the signal; its shell reports it.
FILE_SIZE_LIMIT_SHELL = """\
./launch.sh: line 14: 40211 File size limit exceeded (core dumped) ./bench --out trace.bin
"""


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(FILE_SIZE_LIMIT_PYTHON, id="python-efbig"),
        pytest.param(FILE_SIZE_LIMIT_SHELL, id="shell-sigxfsz"),
    ],
)
def test_a_write_past_the_file_size_limit_is_the_machine(text: str) -> None:
    diagnosis = diagnose_text("issue/log.txt", text)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_a_size_refusal_of_another_kind_is_not_the_limit() -> None:
    diagnosis = diagnose_text(
        "issue/log.txt", "ValueError: file too large to upload in one request, use multipart\n"
    )
    assert diagnosis.category != "driver_env"


# torch 2.13 writes a path's archive through a C++ stream, and a write the file system refuses
# surfaces as the stream's own exception from `write_record`; the archive's closing position
# check then fails while handling it. Both tracebacks as torch 2.13 printed them for a save
# onto a full scratch mount in a real run; paths and ranks are ours.
STREAM_WRITE_REFUSED = """\
[rank5]: Traceback (most recent call last):
[rank5]:   File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 1003, in save
[rank5]:     _save(
[rank5]:   File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 1312, in _save
[rank5]:     zip_file.write_record(name, storage, num_bytes)
[rank5]: RuntimeError: basic_ios::clear: iostream error
[rank5]:
[rank5]: During handling of the above exception, another exception occurred:
[rank5]:
[rank5]: Traceback (most recent call last):
[rank5]:   File "/home/mlops/dp-train/train.py", line 152, in save_checkpoint
[rank5]:     torch.save({"model": model.state_dict(), "optim": opt.state_dict()}, path)
[rank5]:   File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 1002, in save
[rank5]:     with _open_zipfile_writer(f) as opened_zipfile:
[rank5]:   File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 834, in __exit__
[rank5]:     self.file_like.write_end_of_file()
[rank5]: RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 33536 vs 33428
"""

STREAM_RULE = "io.checkpoint_stream_write_failed"


def test_a_checkpoint_writers_stream_failure_is_the_refused_write() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: the stream's failure in the writer's
    frames is the refused write, read like `PytorchStreamWriter failed writing`, and it comes
    before the position check raised while handling it."""
    diagnosis = diagnose_text("log_5.log", STREAM_WRITE_REFUSED)
    assert_reads(
        diagnosis,
        "other",
        first_error="basic_ios::clear: iostream error",
        rule=STREAM_RULE,
        beside=("driver_env",),
    )


def test_a_paste_that_kept_only_the_streams_failure_reads_the_same() -> None:
    first = STREAM_WRITE_REFUSED.split("[rank5]:\n")[0]
    diagnosis = diagnose_text("log_5.log", first)
    assert diagnosis.category == "other", diagnosis.root_cause
    assert STREAM_RULE in rules_of(diagnosis)
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_the_streams_words_from_another_library_are_not_a_checkpoint_save() -> None:
    """Counterexample: a tokenizer library's reader throws the same C++ stream exception."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/tok.py", line 9, in <module>\n'
        "    sp.Load(model_file)\n"
        '  File "/srv/app/.venv/lib/python3.11/site-packages/sentencepiece/__init__.py", line '
        "961, in Load\n"
        "    return self.LoadFromFile(model_file)\n"
        "RuntimeError: basic_ios::clear: iostream error\n"
    )
    diagnosis = diagnose_text("tok.log", text)
    assert STREAM_RULE not in rules_of(diagnosis)


def test_the_jobs_record_of_the_position_check_yields_to_the_stream_failure_below_it() -> None:
    """The job logs the exception that escaped (the position check) before Python prints the
    chain; the stream's failure under it is still the first error."""
    text = (
        "2026-12-06 08:26:13,957 [rank5] ERROR training failed: [enforce fail at "
        "inline_container.cc:672] . unexpected pos 33536 vs 33428\n" + STREAM_WRITE_REFUSED
    )
    diagnosis = diagnose_text("log_5.log", text)
    assert diagnosis.first_error is not None
    assert "basic_ios::clear: iostream error" in diagnosis.first_error.text


# UCX's virtual file system cannot watch its directory: the kernel's inotify watch limit
# answers ENOSPC. Nothing else of UCX depends on it, and the run goes on.
UCX_VFS_WATCH = """\
[1765012345.100200] [node-a:41022:f]        vfs_fuse.c:281  UCX  ERROR inotify_add_watch(/tmp) failed: No space left on device
{'loss': 0.0102, 'grad_norm': 1.31, 'learning_rate': 2e-06, 'epoch': 1.0}
"""


def test_ucx_failing_to_watch_its_virtual_file_system_is_no_full_disk() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("stdout.log", UCX_VFS_WATCH)
    assert "env.no_space_left" not in rules_of(diagnosis)
    assert diagnosis.first_error is None


def test_a_full_disk_beside_the_ucx_watch_line_still_decides() -> None:
    text = (
        UCX_VFS_WATCH
        + "OSError: [Errno 28] No space left on device: '/out/ckpt/model.safetensors'\n"
    )
    assert_reads(
        diagnose_text("stdout.log", text),
        "driver_env",
        first_error="[Errno 28] No space left on device: '/out/ckpt",
        rule="env.no_space_left",
    )
