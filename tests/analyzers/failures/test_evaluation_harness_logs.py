"""Failures an evaluation harness prints in its own words while it evaluates on several GPUs.

A harness that catches a request's exception logs it through its own logger (month-day time,
the source file and line in brackets, the level, then `Error <exception text>`) and goes on;
the quoted refusal keeps the reading it has as a raised exception. A model class that does not
fit the harness's installed interface is refused by Python before anything runs (`config`),
and so is a launch that does not fit: a serving engine built inside every process a launcher
started finds a world that is not its own layout, a launcher refuses its own mode flags. A
benchmark against a server that stops answering shows the engine's stats standing still with
requests running (`hang`). The fixtures are our own excerpts.
docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job,
docs/labelling.md#a-subclass-that-lacks-a-method-its-base-requires,
docs/labelling.md#an-engine-built-for-more-ranks-than-were-started,
docs/labelling.md#a-serving-scheduler-that-stops-making-progress
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

HARNESS_CAUGHT_TWO_CARDS = """\
12-04 09:41:07 [lmms_eval/evaluator.py:388] INFO Running generate_until requests
12-04 09:41:09 [lmms_eval/models/qwen_vl.py:212] ERROR Error Expected all tensors to be on the same device, but found at least two devices, cuda:2 and cuda:0! (when checking argument for argument mat2 in method wrapper_CUDA_mm) in generating
Model Responding:   1%|          | 12/1180 [00:02<03:10,  6.13it/s]12-04 09:41:09 [lmms_eval/models/qwen_vl.py:212] ERROR Error Expected all tensors to be on the same device, but found at least two devices, cuda:3 and cuda:0! (when checking argument for argument mat2 in method wrapper_CUDA_mm) in generating
"""

HARNESS_CAUGHT_HOST_TENSOR = """\
12-04 09:41:09 [lmms_eval/models/qwen_vl.py:212] ERROR Error Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select) in generating
"""

MODEL_CLASS_FROM_ANOTHER_BRANCH = """\
  File "/srv/harness/toy_eval/evaluator.py", line 88, in simple_evaluate
    lm = registry.get_model(model).create_from_arg_string(
  File "/srv/harness/toy_eval/api/model.py", line 131, in create_from_arg_string
    return cls(**args, **args2)
TypeError: Can't instantiate abstract class ToyLM with abstract method generate_until
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 5121) of binary: /srv/venv/bin/python
"""

ENGINE_PER_LAUNCHED_PROCESS = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/harness/run.py", line 40, in <module>
[rank2]:     engine = LLM(model_path, tensor_parallel_size=2)
[rank2]: RuntimeError: world_size (4) is not equal to tensor_model_parallel_size (2) x pipeline_model_parallel_size (1).
E0311 10:02:13.120000 8812 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 8820) of binary: /srv/venv/bin/python
"""

MULTI_GPU_FLAG_ON_ONE_PROCESS = """\
Traceback (most recent call last):
  File "/srv/venv/bin/accelerate", line 8, in <module>
    sys.exit(main())
ValueError: You need to use at least 2 processes to use `--multi_gpu`.
"""

ENGINE_STOOD_STILL = """\
INFO 03-11 14:02:40 [loggers.py:118] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 288.0 tokens/s, Running: 24 reqs, Waiting: 0 reqs, GPU KV cache usage: 30.2%, Prefix cache hit rate: 40.0%
INFO 03-11 14:02:50 [loggers.py:118] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 24 reqs, Waiting: 0 reqs, GPU KV cache usage: 30.2%, Prefix cache hit rate: 40.0%
ERROR 03-11 14:08:02 [serving_chat.py:930]   File "/srv/vllm/vllm/v1/engine/async_llm.py", line 310, in generate
ERROR 03-11 14:08:02 [serving_chat.py:930]     out = q.get_nowait() or await q.get()
"""

ENGINE_WENT_IDLE = """\
INFO 03-11 14:02:40 [loggers.py:118] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 288.0 tokens/s, Running: 24 reqs, Waiting: 0 reqs, GPU KV cache usage: 30.2%, Prefix cache hit rate: 40.0%
INFO 03-11 14:02:50 [loggers.py:118] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%, Prefix cache hit rate: 40.0%
"""


def test_a_refusal_the_harness_caught_and_logged_is_read_as_raised() -> None:
    diagnosis = diagnose_text("lmms_eval.log", HARNESS_CAUGHT_TWO_CARDS)
    assert_reads(
        diagnosis,
        "operator",
        first_error="cuda:2 and cuda:0",
        rule="op.tensors_on_two_accelerators",
        beside=("config",),
    )


def test_a_caught_refusal_naming_the_host_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("lmms_eval.log", HARNESS_CAUGHT_HOST_TENSOR)
    assert diagnosis.first_error is not None
    assert "cuda:1 and cpu" in diagnosis.first_error.text
    assert "op.tensors_on_two_accelerators" not in rules_of(diagnosis)


def test_a_model_class_missing_an_abstract_method_is_config() -> None:
    diagnosis = diagnose_text("rank0.log", MODEL_CLASS_FROM_ANOTHER_BRANCH)
    assert_reads(
        diagnosis,
        "config",
        first_error="Can't instantiate abstract class ToyLM",
        rule="cfg.abstract_method_not_implemented",
        beside=("other",),
    )


def test_an_engine_built_in_every_launched_process_refuses_the_world_as_config() -> None:
    diagnosis = diagnose_text("rank2.log", ENGINE_PER_LAUNCHED_PROCESS)
    assert_reads(
        diagnosis,
        "config",
        first_error="is not equal to tensor_model_parallel_size (2)",
        rule="cfg.engine_layout_vs_launched_world",
    )


def test_a_launcher_refusing_its_own_mode_flags_is_config() -> None:
    diagnosis = diagnose_text("launch.log", MULTI_GPU_FLAG_ON_ONE_PROCESS)
    assert_reads(
        diagnosis,
        "config",
        first_error="at least 2 processes",
        rule="cfg.launcher_mode_flags_refused",
    )


def test_engine_stats_standing_still_with_requests_running_are_a_hang() -> None:
    diagnosis = diagnose_text("serve.log", ENGINE_STOOD_STILL)
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is not None
    assert "Running: 24 reqs" in diagnosis.first_error.text
    assert "Avg generation throughput: 0.0" in diagnosis.first_error.text
    assert "hang.serving_engine_no_progress" in rules_of(diagnosis)
    assert "hccl" in alternative_labels(diagnosis)


def test_an_engine_that_went_idle_is_no_stall() -> None:
    diagnosis = diagnose_text("serve.log", ENGINE_WENT_IDLE)
    assert "hang.serving_engine_no_progress" not in rules_of(diagnosis)
