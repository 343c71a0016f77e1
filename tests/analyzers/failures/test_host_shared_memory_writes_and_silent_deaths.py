"""Host-side refusals in training and serving jobs, and a serving process that died unexplained.

docs/labelling.md#config-driver_env-or-weight_load,
docs/labelling.md#a-shared-file-system-that-refuses-a-file-operation and
docs/labelling.md#memory-shared-with-or-registered-for-another-process. Ray's object store and
torch's shared tensors live in /dev/shm, and a container's small shared memory or the kernel's
map-count limit refuses them; an old torch.save words a failed write with its descriptor; a
spawned worker cannot be handed an object that holds a thread lock; a serving engine's front end
reports a process that vanished without a word. Fixtures are written here in the real shapes
with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

RAYLET_SHM_SHORT = """\
[2026-01-12 03:20:44,871 I 57 57] (raylet) main.cc:180: Setting cluster ID to: 5d3c0a
[2026-01-12 03:20:45,102 W 57 57] (raylet) store_runner.cc:83: System memory request exceeds memory available in /dev/shm. The request is for 8589934592 bytes, and the amount available is 2147483648 bytes.
You may be able to free up space by deleting files in /dev/shm. If you are inside a Docker container, you may need to pass an argument with the flag '--shm-size' to 'docker run'.
"""

RAY_STORE_ON_TMP = """\
2026-01-12 03:20:44,118 WARNING services.py:2022 -- WARNING: The object store is using /tmp instead of /dev/shm because /dev/shm has only 67108864 bytes available. This will harm performance! You may be able to free up space by deleting files in /dev/shm.
2026-01-12 03:20:46,540 INFO worker.py:1841 -- Started a local Ray instance.
step 10 loss 2.04
"""

RAY_INIT_REFUSES = """\
2026-01-12 03:20:44,118 INFO services.py:1267 -- View the Ray dashboard at http://127.0.0.1:8265/
Traceback (most recent call last):
  File "/srv/asr/serve.py", line 21, in <module>
    ray.init(num_cpus=8)
  File "/opt/conda/lib/python3.9/site-packages/ray/_private/services.py", line 1706, in determine_plasma_store_config
    raise ValueError(
ValueError: The configured object store size (17.18 GB) exceeds /dev/shm size (8.59 GB). This will harm performance. Consider deleting files in /dev/shm or increasing its size with --shm-size in Docker. To ignore this warning, set RAY_OBJECT_STORE_ALLOW_SLOW_STORAGE=1.
"""

SHARED_TENSOR_MAP_REFUSED = """\
epoch 3 step 1800 loss 0.218
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/multiprocessing/queues.py", line 122, in get
    return _ForkingPickler.loads(res)
  File "/opt/conda/lib/python3.10/site-packages/torch/multiprocessing/reductions.py", line 496, in rebuild_storage_fd
    storage = cls._new_shared_fd_cpu(fd, size)
RuntimeError: unable to mmap 2048 bytes from file </torch_77301_2211843390_61204>: Cannot allocate memory (12)
"""

DATA_FILE_MAP_REFUSED = """\
Traceback (most recent call last):
  File "/work/data.py", line 30, in load
    tokens = torch.from_file(path, size=n)
RuntimeError: unable to mmap 268435456 bytes from file </data/tokens/train.bin>: Cannot allocate memory (12)
"""

OLD_SAVE_WRITE_FAILS = """\
epoch 12 val acc 0.811 (best)
Traceback (most recent call last):
  File "train.py", line 214, in <module>
    torch.save(model.state_dict(), "runs/best.pt")
  File "/venv/lib/python3.7/site-packages/torch/serialization.py", line 297, in _save
    serialized_storages[key]._write_file(f, _should_read_directly(f))
RuntimeError: write(): fd 27 failed with Input/output error
"""

UCX_UNPACK_EIO = """\
[1766001200.151300] [node-2:88120:0]        ucp_rkey.c:250  UCX  ERROR Failed to unpack remote key from remote md[3]: Input/output error
"""

SPAWN_LOCK = """\
Traceback (most recent call last):
  File "/work/train.py", line 88, in <module>
    for batch in loader:
  File "/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1040, in __init__
    w.start()
  File "/usr/lib/python3.11/multiprocessing/popen_spawn_posix.py", line 47, in _launch
    reduction.dump(process_obj, fp)
  File "/usr/lib/python3.11/multiprocessing/reduction.py", line 60, in dump
    ForkingPickler(file, protocol).dump(obj)
TypeError: cannot pickle '_thread.RLock' object
"""

SPAWN_GENERATOR = """\
  File "/usr/lib/python3.11/multiprocessing/reduction.py", line 60, in dump
    ForkingPickler(file, protocol).dump(obj)
TypeError: cannot pickle 'generator' object
"""

ENGINE_CORE_GONE = """\
(APIServer pid=2210) INFO 11-03 08:41:18 [loggers.py:127] Engine 000: Avg prompt throughput: 388.1 tokens/s, Running: 3 reqs, Waiting: 0 reqs
(APIServer pid=2210) ERROR 11-03 08:41:20 [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.
(Worker_TP0 pid=2391) INFO 11-03 08:41:20 [multiproc_executor.py:558] Parent process exited, terminating worker
(APIServer pid=2210) ERROR 11-03 08:41:20 [async_llm.py:480] AsyncLLM output_handler failed.
"""

ENGINE_CORE_EXITED = """\
(Worker_TP0 pid=3301) INFO 02-11 09:14:52 [multiproc_executor.py:790] Parent process exited, terminating worker queues
(APIServer pid=7) WARNING 02-11 09:14:52 [core_client.py:699] [shutdown] MPClient: engine core exited unexpectedly; starting cleanup
(APIServer pid=7) INFO 02-11 09:14:52 [core_client.py:654] [shutdown] MPClient: stopping engine manager
"""

# Counterexample: the client's orderly shutdown notes alone report no death.
ENGINE_CLIENT_STOPPING = """\
(APIServer pid=7) INFO 02-11 09:14:52 [core_client.py:652] [shutdown] MPClient: start timeout=default
(APIServer pid=7) INFO 02-11 09:14:52 [core_client.py:654] [shutdown] MPClient: stopping engine manager
"""

ENGINE_WORKER_GONE_AFTER_ITS_ERROR = """\
Failed: Cuda error /build/csrc/custom_all_reduce.cuh:207 'invalid argument'
(EngineCore pid=4410) ERROR 07-02 12:00:01 [multiproc_executor.py:320] Worker proc VllmWorker-1 died unexpectedly, shutting down executor.
"""


def test_a_raylet_asking_more_than_dev_shm_holds_is_the_machines() -> None:
    diagnosis = diagnose_text("ray/raylet.out", RAYLET_SHM_SHORT)
    assert_reads(diagnosis, "driver_env", first_error="exceeds memory available in /dev/shm")
    assert {"config", "oom"} <= set(alternative_labels(diagnosis))


def test_ray_placing_its_store_under_tmp_refuses_nothing() -> None:
    diagnosis = diagnose_text("ray/driver.log", RAY_STORE_ON_TMP)
    assert diagnosis.category != "driver_env"


def test_ray_init_refusing_a_store_larger_than_dev_shm_is_the_machines() -> None:
    diagnosis = diagnose_text("serve/asr.log", RAY_INIT_REFUSES)
    assert_reads(diagnosis, "driver_env", first_error="exceeds /dev/shm size")
    assert "config" in alternative_labels(diagnosis)


def test_a_shared_tensor_the_kernel_will_not_map_is_the_hosts_limit() -> None:
    diagnosis = diagnose_text("train/rank_0.log", SHARED_TENSOR_MAP_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="unable to mmap 2048 bytes")
    assert "oom" in alternative_labels(diagnosis)


def test_an_ordinary_file_that_cannot_be_mapped_keeps_the_memory_reading() -> None:
    diagnosis = diagnose_text("train/rank_0.log", DATA_FILE_MAP_REFUSED)
    assert diagnosis.category == "oom"


def test_an_old_save_whose_write_fails_with_eio_is_the_storage() -> None:
    diagnosis = diagnose_text("train/train.log", OLD_SAVE_WRITE_FAILS)
    assert_reads(diagnosis, "driver_env", first_error="fd 27 failed with Input/output error")


def test_a_transport_librarys_input_output_error_is_not_the_storage() -> None:
    diagnosis = diagnose_text("node-2/ucx.log", UCX_UNPACK_EIO)
    assert diagnosis.category != "driver_env"


def test_a_spawned_worker_handed_a_lock_is_config() -> None:
    diagnosis = diagnose_text("train/rank_0.log", SPAWN_LOCK)
    assert_reads(diagnosis, "config", first_error="cannot pickle '_thread.RLock' object")
    assert "other" in alternative_labels(diagnosis)


def test_another_unpicklable_object_is_not_read_as_the_lock() -> None:
    diagnosis = diagnose_text("train/rank_0.log", SPAWN_GENERATOR)
    assert diagnosis.category != "config" or diagnosis.confidence < 0.5


def test_an_engine_process_gone_without_a_word_is_a_dead_process() -> None:
    diagnosis = diagnose_text("serve/api_server.log", ENGINE_CORE_GONE)
    assert_reads(
        diagnosis, "device_fault", first_error="Engine core proc EngineCore_DP0 died unexpectedly"
    )
    assert {"oom", "driver_env"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.5


def test_the_clients_notice_that_the_engine_core_exited_is_a_dead_process() -> None:
    diagnosis = diagnose_text("serve/api_server.log", ENGINE_CORE_EXITED)
    assert_reads(diagnosis, "device_fault", first_error="engine core exited unexpectedly")
    assert {"oom", "driver_env"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.5


def test_the_clients_orderly_shutdown_notes_report_no_death() -> None:
    diagnosis = diagnose_text("serve/api_server.log", ENGINE_CLIENT_STOPPING)
    assert diagnosis.category != "device_fault"


def test_an_engine_process_gone_after_its_own_error_yields_to_it() -> None:
    diagnosis = diagnose_text("serve/engine.log", ENGINE_WORKER_GONE_AFTER_ITS_ERROR)
    assert diagnosis.first_error is not None
    assert "custom_all_reduce.cuh:207" in diagnosis.first_error.text
