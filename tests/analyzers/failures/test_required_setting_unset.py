"""A settings object that finds none of the options switching a feature on, and names them.

docs/labelling.md#an-option-value-the-engine-does-not-know: `No <feature> is configured. Please
set <a> or <b> to enable it.` is `config`, with `other` beside it, and the refusal is the first
error even when a serving layer repeats it afterwards. An environment variable in capitals and a
system limit in words keep their own readings. Excerpts of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files, diagnose_text, rules_of

SETTINGS_POST_INIT_REFUSAL = """\
  File "/srv/app/gen/runtime/cache/integration.py", line 210, in attach_cache
    settings = build_parallel_settings(sp_group, tp_group)
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<string>", line 18, in __init__
  File "/srv/lib/dit_cache/parallel/settings.py", line 88, in __post_init__
    raise ValueError(
ValueError: No sequence parallelism is configured. Please set ring_degree or ulysses_degree to enable it.
[11-02 14:05:51] Request 7f3a2c11 failed: No sequence parallelism is configured. Please set ring_degree or ulysses_degree to enable it.
Traceback (most recent call last):
  File "/srv/app/gen/runtime/utils/timing.py", line 120, in request_timer
    yield timer
"""


def test_settings_missing_every_enabling_option_are_config() -> None:
    diagnosis = diagnose_files({"server.log": SETTINGS_POST_INIT_REFUSAL})
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("ValueError: No sequence parallelism")
    assert "cfg.required_setting_unset" in rules_of(diagnosis)


def test_a_list_of_options_named_to_enable_a_feature_is_config() -> None:
    diagnosis = diagnose_text(
        "rank1.log",
        "[rank1]: ValueError: Please set cp_size, tp_size, or pp_size to enable model parallelism.\n",
    )
    assert diagnosis.category == "config"
    assert "cfg.required_setting_unset" in rules_of(diagnosis)


def test_a_system_limit_or_environment_variable_is_not_this_reading() -> None:
    limit = diagnose_text(
        "ucx.log",
        "UCX  ERROR mlx5_0: ibv_create_cq() failed: Cannot allocate memory. Please set max locked "
        "memory (ulimit -l) to 'unlimited'\n",
    )
    assert "cfg.required_setting_unset" not in rules_of(limit)
    env = diagnose_text(
        "rank0.log",
        'NotImplementedError: this card has no P2P. Please set `NCCL_P2P_DISABLE="1"` first.\n',
    )
    assert "cfg.required_setting_unset" not in rules_of(env)
