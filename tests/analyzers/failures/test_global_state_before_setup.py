"""A framework's global getter asserts that its start-up has not run yet.

docs/labelling.md#global-state-read-before-the-start-up-that-sets-it: Megatron's getters for
the run's arguments and parallel groups assert that the start-up filled them in; the assertion
says the caller reached Megatron on a path that never initialised it (packages or launch that
do not fit together), so it is `config` with `other` beside it, below the confident band.
Fixtures follow a Ray-relayed worker traceback and a torchrun rank traceback with names of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

WORKER = "(ActorWorker pid=6021) "

ARGS_BEFORE_SETUP = "".join(
    WORKER + line + "\n"
    for line in (
        "Traceback (most recent call last):",
        '  File "/srv/rl/trainer/workers/policy_worker.py", line 141, in __init__',
        '    reapply_patches(self.config.policy.get("transformer_overrides", {}))',
        '  File "/srv/adaptor/adaptor/patch_manager.py", line 52, in reapply_patches',
        "    merged = collect_args()",
        '  File "/srv/adaptor/adaptor/arguments.py", line 77, in collect_args',
        "    merged = get_args()",
        '  File "/srv/megatron/megatron/training/global_vars.py", line 25, in get_args',
        "    _ensure_var_is_initialized(_GLOBAL_ARGS, 'args')",
        '  File "/srv/megatron/megatron/training/global_vars.py", line 247, in _ensure_var_is_initialized',
        "    assert var is not None, '{} is not initialized.'.format(name)",
        "AssertionError: args is not initialized.",
    )
)

GROUP_BEFORE_SETUP = (
    "[rank3]: Traceback (most recent call last):\n"
    '[rank3]:   File "/work/demo/train.py", line 88, in build_model\n'
    "[rank3]:     tp_group = parallel_state.get_tensor_model_parallel_group()\n"
    '[rank3]:   File "/usr/lib/python3.11/site-packages/megatron/core/parallel_state.py", line 1102, in get_tensor_model_parallel_group\n'
    "[rank3]:     assert _TENSOR_MODEL_PARALLEL_GROUP is not None, 'tensor model parallel group is not initialized'\n"
    "[rank3]: AssertionError: tensor model parallel group is not initialized\n"
)

# The getter's source line alone, and a start-up message about a state being built.
NOT_A_FAILURE = (
    "[rank0]:     assert var is not None, '{} is not initialized.'.format(name)\n"
    "INFO 04-11 09:12:40 tokenizer is not initialized yet, building it from /models/demo\n"
    "INFO 04-11 09:12:52 iteration 1/ 500 | lm loss 9.8213\n"
)


def test_megatron_args_read_before_start_up_is_config() -> None:
    diagnosis = diagnose_text("worker.log", ARGS_BEFORE_SETUP)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("AssertionError: args is not initialized.")
    assert "other" in alternative_labels(diagnosis)
    assert diagnosis.confidence < 0.8


def test_a_parallel_group_read_before_start_up_is_config() -> None:
    diagnosis = diagnose_text("rank3.log", GROUP_BEFORE_SETUP)
    assert_reads(diagnosis, "config", first_error="tensor model parallel group is not initialized")
    assert diagnosis.confidence < 0.8


def test_the_getter_source_and_a_start_up_message_are_not_failures() -> None:
    diagnosis = diagnose_text("rank0.log", NOT_A_FAILURE)
    assert diagnosis.category != "config", diagnosis.root_cause
