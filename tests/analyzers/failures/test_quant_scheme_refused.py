"""A serving engine that has no implementation for a layer's quantization scheme is `config`.

docs/labelling.md#config-driver_env-or-weight_load: a quantized checkpoint's description gives
every layer a scheme. When the engine's quantization config finds none it implements for a
layer (a draft-model layer whose experts were left in float, a mix of schemes it never
paired), it refuses to build that layer while the model is constructed, before any weight is
read. The checkpoint is what the tool wrote; the release lacks the combination, so the fix is
another engine release or a checkpoint quantized with schemes it lists: `config`, with
`weight_load` beside it. The silent variant, where the loader builds the layer unquantized and
only logs that it skipped scales, keeps its own `weight_load` reading. An engine's platform
layer that picks a quantizer by the checkpoint's method and finds none for it words the same gap
without a layer (`There is no available <platform> quantizer`): `config` too.

Fixtures follow SGLang's scheduler traceback on an NPU host; paths, layers and times are our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MOE_SCHEMES_REFUSED = """\
[2026-08-10 09:12:41 TP2] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/sglang/python/sglang/srt/layers/moe/fused_moe_triton/layer.py", line 374, in __init__
    self.quant_method = quant_config.get_quant_method(self, prefix)
                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/sglang/python/sglang/srt/layers/quantization/modelslim/modelslim.py", line 192, in get_quant_method
    moe_schemes = self.get_moe_scheme(layer, prefix)
ValueError: Unsupported ModelSlim MoE schemes for layer mtp.layers.0.mlp.experts: W13='FLOAT', W2='FLOAT'

[2026-08-10 09:12:42] Received sigquit from a child process. It usually means the child failed.
"""

NO_MOE_SCHEME = """\
[2026-08-10 09:20:03 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/sglang/python/sglang/srt/layers/quantization/modelslim/modelslim.py", line 195, in get_quant_method
    raise ValueError(f"No ModelSlim MoE scheme found for layer {prefix}")
ValueError: No ModelSlim MoE scheme found for layer model.layers.5.mlp.experts
"""

# vllm-ascend's platform layer looks up a quantizer for the method the checkpoint's description
# names; this release registers none for it.
NO_QUANTIZER_FOR_METHOD = """\
Traceback (most recent call last):
  File "/opt/vllm-ascend/vllm_ascend/quantization/quant_config.py", line 118, in get_quant_method
    return AscendLinearMethod(self, prefix, self.packed_modules_mapping)
  File "/opt/vllm-ascend/vllm_ascend/quantization/quantizer.py", line 64, in get_quantizer
    raise NotImplementedError("There is no available quantizer for method w6a16_mixed.")
NotImplementedError: There is no available quantizer for method w6a16_mixed.
"""

# The engine naming the scheme it picked is progress, not a failure.
SCHEMES_CHOSEN = """\
[2026-08-10 09:12:40 TP2] Using ModelSlim MoE schemes for layer model.layers.3.mlp.experts: W13='W8A8_DYNAMIC', W2='W8A8_DYNAMIC'
[2026-08-10 09:12:40 TP2] Using ModelSlimW8A8Int8 scheme for layer model.layers.3.self_attn.qkv_proj
"""


def test_moe_schemes_the_engine_does_not_implement_are_config() -> None:
    diagnosis = diagnose_text("server.log", MOE_SCHEMES_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unsupported ModelSlim MoE schemes for layer",
        beside=("weight_load",),
    )
    assert diagnosis.confidence >= 0.5


def test_no_scheme_found_for_a_layer_is_config_too() -> None:
    diagnosis = diagnose_text("server.log", NO_MOE_SCHEME)
    assert_reads(diagnosis, "config", first_error="No ModelSlim MoE scheme found for layer")


def test_a_chosen_scheme_is_not_an_error() -> None:
    diagnosis = diagnose_text("server.log", SCHEMES_CHOSEN)
    assert diagnosis.first_error is None


def test_no_quantizer_for_the_checkpoints_method_is_config() -> None:
    diagnosis = diagnose_text("serve.log", NO_QUANTIZER_FOR_METHOD)
    assert_reads(
        diagnosis,
        "config",
        first_error="There is no available quantizer for method w6a16_mixed",
        rule="cfg.quant_scheme_refused",
        beside=("weight_load",),
    )


def test_a_quantizer_the_engine_picked_is_not_an_error() -> None:
    text = "INFO 04-02 11:02:10 quantizer.py:58] Using the available w8a8 quantizer for model.layers.0\n"
    assert diagnose_text("serve.log", text).first_error is None
