"""Pipeline stages that disagree about a micro-batch, a schedule the micro-batch count does not
fit, and a pipeline group's watchdog timeout pasted with its line cut.

docs/labelling.md#a-gradient-or-a-loss-target-whose-batch-differs-from-the-output: autograd's
gradient shape check and the losses' target batch check are `shape_mismatch` with `config`
beside it. docs/labelling.md#a-pipeline-schedule-that-the-micro-batch-count-does-not-fit:
Megatron's interleaved schedule refusing the micro-batch count is `config`, and so are the
other schedules' checks of the micro-batch count against the pipeline size.
docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout: a watchdog timeout cut
after the work's type is still the first error, before newer torch's teardown line. Fixtures
follow a DeepSpeed pipeline run, a rank-prefixed Megatron traceback and a watchdog's
frames, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

GRADIENT_SHAPE = """\
  File "/opt/py3.10/site-packages/deepspeed/runtime/pipe/engine.py", line 735, in _exec_backward_pass
    torch.autograd.backward(tensors=(outputs, ), grad_tensors=(grad_tensors, ))
  File "/opt/py3.10/site-packages/torch/autograd/__init__.py", line 190, in backward
    grad_tensors_ = _make_grads(tensors, grad_tensors_, is_grads_batched=False)
  File "/opt/py3.10/site-packages/torch/autograd/__init__.py", line 68, in _make_grads
    raise RuntimeError("Mismatch in shape: grad_output["
RuntimeError: Mismatch in shape: grad_output[0] has a shape of torch.Size([2, 640, 1024]) and output[0] has a shape of torch.Size([2, 512, 1024]).
"""

LOSS_THEN_GRADIENT = """\
[2025-03-02 11:20:41,118] [INFO] [logging.py:96:log_dist] [Rank 0] step=30, skipped=0, lr=[0.0005], mom=[[0.9, 0.999]]
steps: 30 loss: 1.8731 iter time (s): 0.412 samples/sec: 310.540
ValueError: Expected input batch_size (16) to match target batch_size (12).
RuntimeError: Mismatch in shape: grad_output[0] has a shape of torch.Size([16, 2048]) and output[0] has a shape of torch.Size([12, 2048]).
"""

SOURCE_ECHO = """\
  File "/opt/py3.10/site-packages/torch/autograd/__init__.py", line 68, in _make_grads
    raise RuntimeError("Mismatch in shape: grad_output["
steps: 40 loss: 1.7012
"""

INTERLEAVED_COUNT = """\
[rank5]:   File "/usr/local/lib/python3.12/dist-packages/megatron/core/pipeline_parallel/schedules.py", line 809, in forward_backward_pipelining_with_interleaving
[rank5]:     raise ValueError(msg)
[rank5]: ValueError: The number of contiguous micro-batches in a virtual pipeline stageshould range in [PP=8 , M=4]
"""

INTERLEAVED_COUNT_OLD = """\
Traceback (most recent call last):
  File "/work/Megatron-LM/megatron/schedules.py", line 321, in forward_backward_pipelining_with_interleaving
    raise RuntimeError(msg)
RuntimeError: number of microbatches (6) is not divisible by pipeline-model-parallel-size (4) when using interleaved schedule
"""

TORCH_INTERLEAVED_COUNT = """\
[rank1]:   File "/opt/py3.11/site-packages/torch/distributed/pipelining/schedules.py", line 1102, in __init__
[rank1]:     raise ValueError(
[rank1]: ValueError: Interleaved 1F1B schedule requires the number of microbatches (3)                 to be a multiple of the number of pipeline ranks (2).
"""

TRAINER_COUNT_ASSERT = """\
[rank0]:   File "/srv/recipes/train_ft.py", line 412, in setup
[rank0]:     assert bs // mbs >= pp, f"pp_batch_size {bs} // pp_microbatch_size {mbs} must be >= pp_size {pp}"
[rank0]: AssertionError: pp_batch_size 2 // pp_microbatch_size 1 must be >= pp_size 4
"""

MICROBATCH_FIELD_CHECK = """\
ValueError: microbatch_size must be >= 1
"""

CUT_WATCHDOG = """\
frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0xdb8 (0x7f11e5d11c98 in /usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so)
frame #3: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d (0x7f11e5d12f6d in /usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so)

terminate called after throwing an instance of 'c10::DistBackendError'
  what():  [PG ID 4 PG GUID 31(PIPELINE_MODEL_PARALLEL_GROUP) Rank 2] Process group watchdog thread terminated with exception: [Rank 2] Watchdog caught collective operation timeout: WorkNCCL
"""


def test_a_gradient_of_another_shape_than_the_output_is_shape_mismatch() -> None:
    diagnosis = diagnose_text("stderr.log", GRADIENT_SHAPE)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="has a shape of torch.Size([2, 640, 1024])",
        beside=("config",),
    )


def test_the_loss_stages_batch_check_comes_before_the_gradient_it_explains() -> None:
    diagnosis = diagnose_text("train.log", LOSS_THEN_GRADIENT)
    assert diagnosis.category == "shape_mismatch", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "Expected input batch_size (16) to match target batch_size (12)" in (
        diagnosis.first_error.text
    )


def test_the_quoted_source_line_of_the_check_is_no_failure() -> None:
    diagnosis = diagnose_text("stderr.log", SOURCE_ECHO)
    assert diagnosis.category != "shape_mismatch"


def test_the_interleaved_schedules_micro_batch_refusal_is_config() -> None:
    for text in (INTERLEAVED_COUNT, INTERLEAVED_COUNT_OLD):
        diagnosis = diagnose_text("stdout.log", text)
        assert_reads(diagnosis, "config", first_error="micro")


def test_a_watchdog_timeout_cut_after_the_work_type_is_the_first_error() -> None:
    diagnosis = diagnose_text("stderr.log", CUT_WATCHDOG)
    assert_reads(diagnosis, "hccl", first_error="Watchdog caught collective operation timeout")


def test_other_schedules_checks_of_the_micro_batch_count_are_config() -> None:
    for text in (TORCH_INTERLEAVED_COUNT, TRAINER_COUNT_ASSERT):
        diagnosis = diagnose_text("stdout.log", text)
        assert_reads(diagnosis, "config", first_error="microbatch")
        assert "must be >= pp_size {pp}" not in diagnosis.first_error.text


def test_a_micro_batch_size_that_must_be_positive_is_not_the_pipeline_rule() -> None:
    diagnosis = diagnose_text("stdout.log", MICROBATCH_FIELD_CHECK)
    assert "cfg.pipeline_microbatch_count" not in rules_of(diagnosis)


# The interleaved schedule handed one data iterator for a model built in two chunks.
INTERLEAVED_ONE_ITERATOR = """\
[rank1]:   File "/opt/mcore/megatron/core/pipeline_parallel/schedules.py", line 905, in forward_backward_pipelining_with_interleaving
[rank1]:     assert isinstance(data_iterator, list), "interleaved pipeline parallelism expected each model chunk to have a data iterator"
[rank1]: AssertionError: interleaved pipeline parallelism expected each model chunk to have a data iterator
"""

# A start-up note that names the chunks it builds.
INTERLEAVED_CHUNKS_NOTE = """\
building 2 model chunks for interleaved pipeline parallelism (virtual pipeline size 2)
"""


def test_an_interleaved_schedule_given_one_iterator_for_several_chunks_is_config() -> None:
    """docs/labelling.md#a-pipeline-schedule-that-the-micro-batch-count-does-not-fit."""
    diagnosis = diagnose_text("stdout.log", INTERLEAVED_ONE_ITERATOR)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("[rank1]: AssertionError: interleaved")
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_a_note_about_the_chunks_built_is_no_failure() -> None:
    diagnosis = diagnose_text("stdout.log", INTERLEAVED_CHUNKS_NOTE)
    assert diagnosis.category != "config", diagnosis.root_cause
