"""A TensorRT engine build that finds no implementation format for a layer.

docs/labelling.md#a-tensorrt-build-that-finds-no-format-for-a-layer. While it builds an
engine, TensorRT's builder picks an implementation (a tactic and its data formats) for each
layer and plugin; when none fits, its logger prints `[TRT] [E] <code>: <layer>: could not find
any supported formats consistent with input/output data types`, then the same reason again as
`Error Code <code>: Internal Error (...)`. TensorRT-LLM's own troubleshooting names memory as
the usual cause while building a model (too large a maximum batch or sequence for the
tactics' workspace), with a plugin as the way around, so the reading is `oom`, with `operator`
and `config` beside it and below the confident band. The fixtures are in the builder logger's
shape (values are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of

NO_FORMAT = """\
[04/11/2025-10:22:41] [TRT] [I] Total Weights Memory: 13476823040 bytes
[04/11/2025-10:22:57] [TRT] [E] 9: LlamaForCausalLM/transformer/layers/3/mlp/fc/PLUGIN_V2_Gemm_0: could not find any supported formats consistent with input/output data types
[04/11/2025-10:22:57] [TRT] [E] 9: [pluginV2Builder.cpp::reportPluginError::24] Error Code 9: Internal Error (LlamaForCausalLM/transformer/layers/3/mlp/fc/PLUGIN_V2_Gemm_0: could not find any supported formats consistent with input/output data types)
"""

# Counterexample: the builder's verbose log lists the formats it tries; that is no failure.
FORMATS_TRIED = """\
[04/11/2025-10:22:44] [TRT] [V] *************** Autotuning format combination: Half(4096,1) -> Half(11008,1) ***************
[04/11/2025-10:22:44] [TRT] [V] Formats and tactics selection completed in 12.4 seconds.
"""


def test_a_layer_with_no_supported_format_is_read_as_the_builds_memory() -> None:
    diagnosis = diagnose_text("build.log", NO_FORMAT)
    assert diagnosis.category == "oom", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "could not find any supported formats" in diagnosis.first_error.text
    assert "[TRT] [E] 9: LlamaForCausalLM" in diagnosis.first_error.text
    assert "oom.tensorrt_build_no_supported_format" in rules_of(diagnosis)
    assert {"operator", "config"} <= {a.category for a in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_the_builders_verbose_format_search_is_no_failure() -> None:
    diagnosis = diagnose_text("build.log", FORMATS_TRIED)
    assert "oom.tensorrt_build_no_supported_format" not in rules_of(diagnosis)
