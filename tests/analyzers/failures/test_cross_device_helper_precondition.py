"""A helper for cross-device training that finds no distributed set-up to work with.

A model that gathers representations from every rank refuses to be built while
torch.distributed is not up; a gradient cache asserts that the models it drives are wrapped in
DDP. Either is a launch or package set that does not fit: `config`, with `other` beside it.
docs/labelling.md#a-cross-device-helper-used-before-the-job-is-distributed
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

MODEL_BUILT_TOO_EARLY = """\
Traceback (most recent call last):
  File "/workspace/embed/finetune.py", line 131, in <module>
    main()
  File "/workspace/embed/finetune.py", line 77, in main
    model = DualEncoder(args.model_path, cross_device_negatives=True)
  File "/workspace/embed/modeling.py", line 52, in __init__
    raise ValueError('Distributed training has not been initialized for representation all gather.')
ValueError: Distributed training has not been initialized for representation all gather.
"""

GRADIENT_CACHE = """\
[host-2:0]:  File "/opt/envs/emb/lib/python3.10/site-packages/grad_cache/grad_cache.py", line 262, in cache_step
[host-2:0]:    assert all(map(lambda m: isinstance(m, nn.parallel.DistributedDataParallel), self.models)), \\
[host-2:0]:AssertionError: Some of models are not wrapped in DistributedDataParallel. Make sure you are running DDP with proper initializations.
"""


def test_a_gathering_model_built_before_the_group_is_a_setup_that_does_not_fit() -> None:
    diagnosis = diagnose_text("train.log", MODEL_BUILT_TOO_EARLY)
    assert_reads(
        diagnosis,
        "config",
        first_error="has not been initialized for representation",
        rule="cfg.distributed_helper_not_set_up",
        beside=("other",),
    )


def test_a_gradient_cache_without_ddp_models_is_a_setup_that_does_not_fit() -> None:
    diagnosis = diagnose_text("train.log", GRADIENT_CACHE)
    assert_reads(
        diagnosis,
        "config",
        first_error="not wrapped in DistributedDataParallel",
        rule="cfg.distributed_helper_not_set_up",
    )


def test_running_on_one_device_without_a_group_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "train.log", "INFO distributed training is not initialized, running on a single device\n"
    )
    assert "cfg.distributed_helper_not_set_up" not in rules_of(diagnosis)
