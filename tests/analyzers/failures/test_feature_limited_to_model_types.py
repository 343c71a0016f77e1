"""A feature the job switched on that is written for other model types only.

docs/labelling.md#a-feature-written-for-some-model-types-only: an engine mode or feature that
checks the model's family and raises "<feature> only works with following model types: [...]"
or "<feature> is only supported for MoE models" is refusing the job's options: `config`, and
the exception is the first error. A warning that falls back and a kernel's own "only supports"
list of sizes or dtypes are not this.

Fixtures follow a serving engine's bare exception line and its worker-prefixed traceback, with
feature names, models and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

GRAPH_MODE_REFUSES_MODEL = """\
INFO 07-02 10:11:05 [model_runner.py:1830] Starting to load model /models/demo-moe...
NotImplementedError: Capture graph mode only works with following model types:['alpha', 'beta'].
"""

WORKER_REFUSES_DENSE_MODEL = """\
(VllmWorker rank=2 pid=4411) ERROR 07-02 10:11:12 [multiproc_executor.py:522] Traceback (most recent call last):
(VllmWorker rank=2 pid=4411) ERROR 07-02 10:11:12 [multiproc_executor.py:522]   File "/opt/serve/eplb.py", line 41, in __init__
(VllmWorker rank=2 pid=4411) ERROR 07-02 10:11:12 [multiproc_executor.py:522]     raise ValueError(msg)
(VllmWorker rank=2 pid=4411) ERROR 07-02 10:11:12 [multiproc_executor.py:522] ValueError: Expert load balancing is only supported for MoE models, got DemoForCausalLM
"""

FALLBACK_WARNING = """\
WARNING 07-02 10:11:12 [platform.py:180] Capture graph mode only works with following model types: ['alpha']; falling back to eager mode.
INFO 07-02 10:11:20 [core.py:90] init engine took 7.91 seconds
"""


def test_a_graph_mode_refusing_the_model_type_is_config() -> None:
    diagnosis = diagnose_text("stdout.log", GRAPH_MODE_REFUSES_MODEL)
    assert_reads(diagnosis, "config", first_error="only works with following model types")


def test_a_feature_for_moe_models_only_is_config() -> None:
    diagnosis = diagnose_text("worker.log", WORKER_REFUSES_DENSE_MODEL)
    assert_reads(diagnosis, "config", first_error="only supported for MoE models")


def test_a_warning_that_falls_back_is_no_failure() -> None:
    diagnosis = diagnose_text("serve.log", FALLBACK_WARNING)
    assert diagnosis.category != "config" or diagnosis.first_error is None


# The check may name the architecture class it refuses instead of a family list: a
# tensor-parallel loader that knows how to split a few architectures only.
TP_LOADER_REFUSES_ARCHITECTURE = """\
Traceback (most recent call last):
  File "/srv/textapi/main.py", line 131, in entrypoint
    asyncio.run(entrypoint_async())
  File "/srv/textapi/venv/lib/python3.12/site-packages/splitlm/tensor_split.py", line 47, in __init__
    assert cfg.arch.lm.can_split, \\
           ^^^^^^^^^^^^^^^^^^^^^
AssertionError: Tensor-parallel is not supported for OrcaVisionForConditionalGeneration
"""

# The same words about a device are a limit of the hardware, not a model the feature refuses.
KERNEL_REFUSED_ON_DEVICE = """\
Traceback (most recent call last):
  File "/srv/textapi/venv/lib/python3.12/site-packages/splitlm/attn.py", line 88, in forward
    raise RuntimeError(msg)
RuntimeError: Fused rotary attention is not supported for OrcaForCausalLM on this device
"""


def _rules(diagnosis: object) -> set[str]:
    return rules_of(diagnosis)  # type: ignore[attr-defined]


def test_a_feature_refusing_an_architecture_class_is_config() -> None:
    diagnosis = diagnose_text("server.log", TP_LOADER_REFUSES_ARCHITECTURE)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "cfg.feature_limited_to_model_types" in _rules(diagnosis)
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "is not supported for OrcaVisionForConditionalGeneration" in diagnosis.first_error.text


def test_an_architecture_refused_on_a_device_is_not_this_rule() -> None:
    diagnosis = diagnose_text("server.log", KERNEL_REFUSED_ON_DEVICE)
    assert "cfg.feature_limited_to_model_types" not in _rules(diagnosis)
