"""Type annotations written for a newer Python than the one that runs them.

Built-in generics (`list[int]`, `dict[str, int]`) need Python 3.9 and the union operator in an
annotation (`int | None`) needs 3.10. A package that uses them is imported into an older
interpreter, which evaluates the annotation when the module or class is defined and stops
with `'type' object is not subscriptable` or `unsupported operand type(s) for |: 'type' and
...`. The job's code and device are fine: the interpreter is older than the package set asks
for, `config`, with the host's installation (`driver_env`) beside it.
(docs/labelling.md#config-driver_env-or-weight_load)
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

GENERIC_ALIAS = """\
Traceback (most recent call last):
  File "/home/work/pretrain_gpt.py", line 12, in <module>
    from megatron.core.transformer import TransformerConfig
  File "/home/work/megatron/core/model_parallel_config.py", line 40, in ModelParallelConfig
    context_sizes: Optional[list[int]] = None
TypeError: 'type' object is not subscriptable
"""

UNION_OPERATOR = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/opt/app/trainer/options.py", line 88, in TrainOptions
[rank3]:     max_steps: int | None = None
[rank3]: TypeError: unsupported operand type(s) for |: 'type' and 'NoneType'
"""


def test_a_builtin_generic_on_an_old_python_is_the_interpreter_release() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("train.log", GENERIC_ALIAS)
    assert_reads(
        diagnosis,
        "config",
        first_error="'type' object is not subscriptable",
        beside=("driver_env",),
    )


def test_a_union_operator_in_an_annotation_reads_the_same() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("train.log", UNION_OPERATOR)
    assert_reads(diagnosis, "config", first_error="for |: 'type' and 'NoneType'")


def test_an_unset_value_subscripted_keeps_its_own_reading() -> None:
    """docs/labelling.md#a-local-variable-read-before-any-branch-set-it"""
    text = (
        '  File "/opt/app/trainer/loop.py", line 201, in step\n'
        "    loss = outputs[0]\n"
        "TypeError: 'NoneType' object is not subscriptable\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "other"
    assert "cfg.annotation_newer_than_python" not in rules_of(diagnosis)


def test_an_operator_between_values_is_no_annotation() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    text = (
        '  File "/opt/app/trainer/mask.py", line 14, in build\n'
        "    mask = flags | extra\n"
        "TypeError: unsupported operand type(s) for |: 'int' and 'str'\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.annotation_newer_than_python" not in rules_of(diagnosis)
