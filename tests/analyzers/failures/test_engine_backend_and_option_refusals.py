"""A serving engine refusing what the job set up, in two wordings the pair rules did not read.

A feature that stops at the backend class a device plugin gave it names the class's repr as the
subject (docs/labelling.md#engine-features-that-do-not-combine), and an option given a name the
engine's fixed list does not hold (docs/labelling.md#an-option-value-the-engine-does-not-know).
Both are `config` with `other` beside them; the refusal is the first error. Values of our own in
the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

BACKEND_REFUSED = """\
(EngineCore pid=20417) Traceback (most recent call last):
(EngineCore pid=20417)   File "/srv/engine/v1/engine/core.py", line 1188, in run_engine_core
(EngineCore pid=20417)     raise e
(EngineCore pid=20417) NotImplementedError: <class 'npu_plugin.attention.attention_v1.NpuAttentionBackend'> is not yet supported
"""


def test_a_feature_refusing_the_plugin_backend_class_is_config() -> None:
    diagnosis = diagnose_files({"engine.log": BACKEND_REFUSED})
    assert_reads(
        diagnosis,
        "config",
        first_error="NpuAttentionBackend'> is not yet supported",
        rule="cfg.feature_refuses_platform_backend",
        beside=("other",),
    )


def test_a_value_type_quoted_as_a_class_is_not_a_backend() -> None:
    diagnosis = diagnose_text("worker.log", "TypeError: <class 'numpy.float32'> is not supported\n")
    assert "cfg.feature_refuses_platform_backend" not in rules_of(diagnosis)


UNKNOWN_METHOD = """\
(EngineCore pid=31502) ERROR 02-11 07:15:40 [core.py:1099] EngineCore failed to start.
(EngineCore pid=31502) ERROR 02-11 07:15:40 [core.py:1099] Traceback (most recent call last):
(EngineCore pid=31502) ERROR 02-11 07:15:40 [core.py:1099]   File "/srv/engine/v1/engine/core.py", line 1073, in run_engine_core
(EngineCore pid=31502) ERROR 02-11 07:15:40 [core.py:1099]     engine_core = EngineCoreProc(*args, engine_index=dp_rank, **kwargs)
(EngineCore pid=31502) ERROR 02-11 07:15:40 [core.py:1099] ValueError: Unknown speculative decoding method: lookahead_tree
"""


def test_an_option_name_the_engine_does_not_know_is_config() -> None:
    diagnosis = diagnose_files({"engine.log": UNKNOWN_METHOD})
    assert_reads(
        diagnosis,
        "config",
        first_error="Unknown speculative decoding method: lookahead_tree",
        rule="cfg.unknown_option_value",
        beside=("other",),
    )


def test_an_unknown_format_code_is_not_an_option_value() -> None:
    diagnosis = diagnose_text(
        "train.log", "ValueError: Unknown format code 'd' for object of type 'float'\n"
    )
    assert "cfg.unknown_option_value" not in rules_of(diagnosis)


def test_an_unknown_device_type_is_not_an_option_value() -> None:
    diagnosis = diagnose_text("train.log", "RuntimeError: Unknown device type: xpu9\n")
    assert "cfg.unknown_option_value" not in rules_of(diagnosis)


# docs/labelling.md#a-feature-written-for-some-model-types-only
GRAPH_MODE_REFUSES_MODEL = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.10/site-packages/engine/entrypoints/cli/main.py", line 59, in main
    args.dispatch_function(args)
NotImplementedError: Fast Graph does not support mixtral. Please try compiled graph mode to serve mixtral models on this plugin. Or set `enforce_eager=True` to use eager mode
"""


def test_a_graph_mode_refusing_a_model_family_is_config() -> None:
    diagnosis = diagnose_files({"serve.log": GRAPH_MODE_REFUSES_MODEL})
    assert_reads(
        diagnosis,
        "config",
        first_error="Fast Graph does not support mixtral",
        rule="cfg.feature_limited_to_model_types",
    )


def test_a_backend_lacking_a_collective_is_not_a_mode_refusing_a_model() -> None:
    diagnosis = diagnose_text(
        "rank0.log", "RuntimeError: backend gloo does not support reduce_scatter\n"
    )
    assert "cfg.feature_limited_to_model_types" not in rules_of(diagnosis)
