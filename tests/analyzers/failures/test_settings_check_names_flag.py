"""A framework's settings check that refuses an option and names the command-line flag to change.

docs/labelling.md#a-settings-check-that-names-the-flag-to-change: training frameworks validate the
options they were launched with before any device work (a config dataclass's post-init, the
argument parser's own checks) and, when two options do not go together, say which flag to set
(`Please set --moe-token-dispatcher-type alltoall`). The refusal is `config` and the first error.
A warning that only suggests a flag, and an out-of-memory message that suggests one to save
memory, keep their own readings. Values and paths of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ROUTER_OPTION_REFUSED = """\
[rank3]:   File "/opt/train/core/model_config.py", line 884, in __post_init__
[rank3]:     raise ValueError(
[rank3]: ValueError: Grouped routing with a capacity factor only supports the alltoall dispatcher. Please set --moe-token-dispatcher-type alltoall to use it.
"""

OVERLAP_NEEDS_OTHER_FLAG = """\
Traceback (most recent call last):
  File "/srv/pretrain/arguments.py", line 412, in validate_args
    assert args.use_distributed_optimizer, (
AssertionError: --overlap-param-gather only works with the distributed optimizer; please pass --use-distributed-optimizer as well
"""


def test_an_option_pair_refused_with_the_flag_to_set_is_config() -> None:
    assert_reads(
        diagnose_text("log_3.log", ROUTER_OPTION_REFUSED),
        "config",
        first_error="Grouped routing with a capacity factor only supports",
        rule="cfg.settings_check_names_flag",
    )


def test_an_argument_assertion_naming_the_flag_to_pass_is_config() -> None:
    assert_reads(
        diagnose_text("train.log", OVERLAP_NEEDS_OTHER_FLAG),
        "config",
        first_error="--overlap-param-gather only works",
        rule="cfg.settings_check_names_flag",
    )


def test_a_suggestion_in_a_warning_or_a_memory_message_is_not_this_reading() -> None:
    hint = diagnose_text(
        "train.log",
        "UserWarning: fused norm kernels are off; please set --use-fused-rmsnorm for better speed\n",
    )
    assert "cfg.settings_check_names_flag" not in rules_of(hint)
    memory = diagnose_text(
        "log_0.log",
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
        "Please set --recompute-activations to save memory.\n",
    )
    assert memory.category == "oom"
    assert "cfg.settings_check_names_flag" not in rules_of(memory)
