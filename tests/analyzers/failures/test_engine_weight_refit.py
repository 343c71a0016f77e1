"""An inference engine that refuses the trained weights when they are refitted into it.

docs/labelling.md#an-engine-that-refuses-a-weight-on-refit: RLHF trainers that generate with
a compiled engine (TensorRT-LLM, a TensorRT plan) copy the newly trained weights into it at
every step instead of building it again. The engine keeps a slot for each weight it was built
with and refuses one it has no slot for, or one of another size: TensorRT-LLM says so through
its runtime check (`Assertion failed: Failed to refit <weight>`), TensorRT through the
refitter's own count check. The weights did not fit the engine, so the label is
`weight_load`, with `config` (how the engine was built) beside it, and the refusal is the
first error. The same check macro in a kernel's runner keeps its operator reading, and a line
that only says a refit finished is no failure.

Paths, names, ranks and numbers are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# The PPO actor's second step: its generation engine will not take a bias it was built without.
REFIT_REFUSED = """\
[NeMo I 2026-03-02 10:14:05 ppo:301] step 1 done, refitting the generation engine
Traceback (most recent call last):
  File "/opt/aligner/algorithms/ppo.py", line 402, in fit
    self.model.prepare_for_inference()
  File "/opt/aligner/utils/trt_llm.py", line 118, in refit
    self.engine.refit(weights)
RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Failed to refit decoder.layers.7.post_norm.bias (/src/TensorRT-LLM/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:240)
1       0x7f10aa001234 tensorrt_llm::common::throwRuntimeError(char const*, int, std::string const&) + 96
"""

# TensorRT's refitter handed a weight of another element count.
REFIT_COUNT_CHECK = """\
[03/02/2026-10:20:11] [F] [TRT] Assertion failed: newWeights.count == original.count
/src/builder/refit.cpp:611
Aborting...
"""

# A finished refit, and the same macro failing inside a kernel's runner.
REFIT_DONE = """\
[TensorRT-LLM][INFO] Refit of 290 weights finished in 1.8 s
"""
KERNEL_CHECK = """\
RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Unsupported tile shape (/src/TensorRT-LLM/cpp/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/moe_gemm_kernels_template.h:812)
"""


def test_an_engine_refusing_a_weight_on_refit_is_weight_load() -> None:
    diagnosis = diagnose_text("actor.log", REFIT_REFUSED)
    assert_reads(
        diagnosis, "weight_load", first_error="Failed to refit decoder", beside=("config",)
    )


def test_the_refitters_count_check_is_weight_load() -> None:
    diagnosis = diagnose_text("actor.log", REFIT_COUNT_CHECK)
    assert_reads(diagnosis, "weight_load", first_error="newWeights.count == original.count")


def test_a_finished_refit_is_no_failure() -> None:
    diagnosis = diagnose_text("actor.log", REFIT_DONE)
    assert diagnosis.category != "weight_load"


def test_a_kernel_runners_check_keeps_its_operator_reading() -> None:
    diagnosis = diagnose_text("serve.log", KERNEL_CHECK)
    assert diagnosis.category == "operator"
