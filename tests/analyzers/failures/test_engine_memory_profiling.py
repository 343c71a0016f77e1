"""A serving engine whose start-up memory profile was disturbed by another process.

After profiling the model, vLLM (and the Ascend plugin's worker) checks that the device's free
memory went down while the profile ran. When it went up, another process on the same device
released memory in the meantime, typically the trainer of an RL job that shares its devices
with the rollout engine. Nothing ran short, the setup has to change: `config`, with `oom` as
the alternative (docs/labelling.md#device-memory-already-taken-when-a-server-starts). A line
that only reports the profile's duration is no failure.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

COLOCATED_ROLLOUT_ON_NPU = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/rl/train_grpo.py", line 88, in <module>
[rank0]:     trainer = build_trainer(cfg)
[rank0]:   File "/opt/rl/rollout/engine.py", line 51, in start_engine
[rank0]:     self.llm = LLM(model=cfg.model, gpu_memory_utilization=0.45)
[rank0]:   File "/opt/venv/lib/python3.10/site-packages/vllm_ascend/worker/worker.py", line 230, in determine_num_available_blocks
[rank0]:     assert self.init_npu_memory > free_npu_memory, (
[rank0]: AssertionError: Error in memory profiling. Initial free memory 61203415040, current free memory 61207609344. This happens when the NPU memory was not properly cleaned up before initializing the vLLM instance.
[rank1]: AssertionError: Error in memory profiling. Initial free memory 61198172160, current free memory 61202366464. This happens when the NPU memory was not properly cleaned up before initializing the vLLM instance.
E0502 11:20:40.118000 7731 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 7790) of binary: /opt/venv/bin/python
"""

NEWER_WORDING = """\
(EngineCore_DP0 pid=2290) ERROR 05-02 11:20:31 [core.py:708] EngineCore failed to start.
(EngineCore_DP0 pid=2290) ERROR 05-02 11:20:31 [core.py:708] AssertionError: Error in memory profiling. Initial free memory 41.20 GiB, current free memory 42.75 GiB. This happens when other processes sharing the same container release GPU memory while vLLM is profiling during initialization.
"""

PROFILE_DURATION_ONLY = """\
INFO 05-02 11:20:31 [worker.py:267] Memory profiling takes 4.12 seconds
INFO 05-02 11:20:31 [worker.py:267] model weights take 14.99GiB; non_torch_memory takes 0.21GiB
"""


def test_disturbed_profile_on_shared_npus_is_config_with_oom_beside() -> None:
    diagnosis = diagnose_text("rlhf_grpo.log", COLOCATED_ROLLOUT_ON_NPU)
    assert_reads(diagnosis, "config", first_error="Error in memory profiling", beside=("oom",))


def test_newer_wording_naming_other_processes_is_read_the_same() -> None:
    diagnosis = diagnose_text("engine.log", NEWER_WORDING)
    assert_reads(diagnosis, "config", first_error="current free memory 42.75 GiB")


def test_profile_duration_alone_is_no_failure() -> None:
    diagnosis = diagnose_text("serve.log", PROFILE_DURATION_ONLY)
    assert diagnosis.first_error is None
