"""A rollout engine that cannot take its device memory back when it wakes up.

Colocated RL trainers put the engine to sleep while the trainer runs; on wake-up the engine's
allocator (vLLM's cumem allocator, SGLang's memory saver) asks the driver to back its ranges
again, and the driver refuses while the trainer still holds the memory
(docs/labelling.md#an-engine-that-cannot-take-its-memory-back-when-it-wakes). The excerpts
follow the allocators' real shapes with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "oom.engine_wake_up_memory_map"


VLLM_WAKE_UP_REFUSED = """\
INFO 06-02 18:40:11 [gpu_worker.py:104] Sleep mode freed 31.02 GiB memory, 4.40 GiB memory is still in use.
INFO 06-02 18:40:11 [executor_base.py:188] It took 0.61 seconds to fall asleep.
CUDA Error: out of memory at /workspace/csrc/cumem_allocator.cpp:57
Traceback (most recent call last):
  File "/srv/rl/train_grpo.py", line 88, in <module>
    trainer.train()
  File "/srv/rl/.venv/lib/python3.11/site-packages/trl/trainer/grpo_trainer.py", line 1210, in _generate
    self.llm.wake_up()
  File "/srv/rl/.venv/lib/python3.11/site-packages/vllm/entrypoints/llm.py", line 1490, in wake_up
    self.llm_engine.wake_up(tags)
"""

SGLANG_RESUME_REFUSED = """\
(RolloutServer pid=7120) [torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h func=cu_mem_create line=201
(ActorRolloutWorker pid=6011) WARNING:2026-02-10 08:11:04,512:Async request to resume_memory_occupation timed out (attempt 1)
(RolloutServer pid=7121) [torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h func=cu_mem_create line=201 [repeated 3x across cluster]
(ActorRolloutWorker pid=6011) WARNING:2026-02-10 08:12:06,930:Async request to resume_memory_occupation timed out (attempt 2)
"""

CRASH_AFTER_THE_REFUSAL = """\
INFO 06-02 18:40:11 [executor_base.py:188] It took 0.58 seconds to fall asleep.
CUDA Error: out of memory at /workspace/csrc/cumem_allocator.cpp:57
CUDA Error: invalid argument at /workspace/csrc/cumem_allocator.cpp:58
CUDA Error: invalid argument at /workspace/csrc/cumem_allocator.cpp:65
INFO 06-02 18:40:30 [executor_base.py:210] It took 0.04 seconds to wake up.
Fatal Python error: Segmentation fault
"""


def test_a_vllm_wake_up_the_driver_refused_is_memory() -> None:
    diagnosis = diagnose_text("grpo_train.log", VLLM_WAKE_UP_REFUSED)
    assert_reads(
        diagnosis, "oom", first_error="cumem_allocator.cpp:57", rule=RULE, beside=("config",)
    )


def test_a_memory_saver_that_cannot_resume_leads_the_retries() -> None:
    diagnosis = diagnose_text("rollout.log", SGLANG_RESUME_REFUSED)
    assert diagnosis.category == "oom"
    assert diagnosis.first_error is not None
    assert "CUresult error: 2 (out of memory)" in diagnosis.first_error.text
    assert "pid=7120" in diagnosis.first_error.text
    assert RULE in rules_of(diagnosis)


def test_a_crash_after_the_refusal_yields_to_it() -> None:
    diagnosis = diagnose_text("engine.log", CRASH_AFTER_THE_REFUSAL)
    assert_reads(
        diagnosis, "oom", first_error="out of memory at /workspace/csrc/cumem_allocator.cpp:57"
    )


def test_a_create_the_saver_will_retry_is_no_failure() -> None:
    text = (
        "[torch_memory_saver.cpp] cuMemCreate CUDA_ERROR_OUT_OF_MEMORY "
        "(may not be an issue e.g. torch allocator will free cache and retry)\n"
        "[2026-02-10 08:11:09 TP0] Cache flushed successfully!\n"
    )
    diagnosis = diagnose_text("rollout.log", text)
    assert RULE not in rules_of(diagnosis)


def test_the_memory_savers_older_result_spelling_is_memory() -> None:
    # Older memory-saver builds print the driver's code as `result=N` with no words after it;
    # 2 is the driver's out-of-memory code, the same refusal as the spelled-out form.
    text = (
        "(RolloutServer pid=5530) INFO 11-04 07:12:55 resuming memory occupation\n"
        "CUresult error result=2 file=csrc/torch_memory_saver.cpp func=cu_mem_create line=97\n"
        "(ActorRolloutWorker pid=5402) WARNING:2026-11-04 07:13:55,002:Async request to "
        "resume_memory_occupation timed out (attempt 1)\n"
    )
    diagnosis = diagnose_text("rollout.log", text)
    assert_reads(diagnosis, "oom", first_error="result=2", rule=RULE, beside=("config",))


def test_the_older_spelling_with_another_code_is_not_memory() -> None:
    text = "CUresult error result=1 file=csrc/torch_memory_saver.cpp func=resume line=140\n"
    diagnosis = diagnose_text("rollout.log", text)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category != "oom", diagnosis.root_cause
