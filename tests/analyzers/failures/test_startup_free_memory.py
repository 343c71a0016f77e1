"""A serving engine that finds too little free device memory before it loads anything.

vLLM (and the Ascend plugin's worker, which repeats the check) compares the free device memory
at start with the share of the card its memory fraction asks for and refuses to start when the
free part is smaller: other processes hold the rest. Read as `oom` with `config` as the
alternative (docs/labelling.md#device-memory-already-taken-when-a-server-starts); the KV-cache
checks after loading stay plain `oom`, and a debug line of the measured memory is no failure.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SHARED_CARD = """\
(EngineCore_DP0 pid=4417) INFO 03-14 09:12:40 [parallel_state.py:1208] rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0
(EngineCore_DP0 pid=4417) ERROR 03-14 09:12:41 [core.py:866] EngineCore failed to start.
(EngineCore_DP0 pid=4417) ERROR 03-14 09:12:41 [core.py:866] Traceback (most recent call last):
(EngineCore_DP0 pid=4417) ERROR 03-14 09:12:41 [core.py:866]   File "/opt/serve/vllm_ascend/worker/worker.py", line 281, in _init_device
(EngineCore_DP0 pid=4417) ERROR 03-14 09:12:41 [core.py:866]     raise ValueError(
(EngineCore_DP0 pid=4417) ERROR 03-14 09:12:41 [core.py:866] ValueError: Free memory on device (19.44/60.96 GiB) on startup is less than desired GPU memory utilization (0.85, 51.82 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.
(APIServer pid=4301) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
"""

CUDA_BARE = """\
Traceback (most recent call last):
  File "/srv/app/launch.py", line 40, in <module>
    llm = LLM(model=path, gpu_memory_utilization=0.92)
ValueError: Free memory on device cuda:1 (30.10/79.19 GiB) on startup is less than desired GPU memory utilization (0.92, 72.85 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.
"""

KV_CACHE_AFTER_LOADING = """\
(EngineCore_DP0 pid=512) ERROR 03-14 10:01:07 [core.py:866] ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.
"""

MEASURED_ONLY = """\
DEBUG 03-14 09:12:40 [gpu_worker.py:241] Initial free memory: 58.20 GiB; Requested memory: 0.90 (util), 52.47 GiB
INFO 03-14 09:13:02 [gpu_model_runner.py:2280] Model loading took 15.2400 GiB and 21.8 seconds
"""


def test_startup_check_on_a_shared_card_is_oom_with_config_as_alternative() -> None:
    diagnosis = diagnose_text("engine.log", SHARED_CARD)
    assert_reads(
        diagnosis, "oom", first_error="on startup is less than desired", beside=("config",)
    )


def test_startup_check_naming_the_device_is_read_the_same() -> None:
    diagnosis = diagnose_text("serve.log", CUDA_BARE)
    assert_reads(diagnosis, "oom", first_error="cuda:1 (30.10/79.19 GiB)")


def test_kv_cache_check_after_loading_offers_no_config_reading() -> None:
    diagnosis = diagnose_text("engine.log", KV_CACHE_AFTER_LOADING)
    assert diagnosis.category == "oom"
    assert "config" not in {alt.category for alt in diagnosis.alternatives}


def test_measured_free_memory_without_a_refusal_is_no_failure() -> None:
    diagnosis = diagnose_text("serve.log", MEASURED_ONLY)
    assert diagnosis.category != "oom"
    assert diagnosis.first_error is None
