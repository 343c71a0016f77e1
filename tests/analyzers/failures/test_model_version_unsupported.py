"""A model loader that lists the versions of a model family it knows and names the one it was
handed (`<Model> only supports versions 2.0, 2.5. Got version: (2, 6)`) refuses a checkpoint
newer than the installed release: `config`, the release is what has to change
(docs/labelling.md#config-driver_env-or-weight_load).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A serving engine's worker refuses a vision-language checkpoint of a newer minor version.
ENGINE_WORKER = """\
(EngineCore_DP0 pid=2210) ERROR 05-14 10:02:11 [core.py:700]   File "/opt/env/lib/python3.12/site-packages/vllm/model_executor/models/visionchat.py", line 1410, in __new__
(EngineCore_DP0 pid=2210) ERROR 05-14 10:02:11 [core.py:700]     raise ValueError(
(EngineCore_DP0 pid=2210) ERROR 05-14 10:02:11 [core.py:700] ValueError: VisionChat only supports versions 1.0, 1.5, 2.0. Got version: (2, 6)
"""

# A reporter's issue title keeps only the sentence, without the exception type.
TITLE_ONLY = "[serving] VisionChat only supports versions 1.0, 1.5, 2.0. Got version: (2, 6)\n"

# Counterexample: a kernel's head-dimension limit is an operator constraint, not a release.
HEAD_DIM = "RuntimeError: FlashAttention only supports head dimension at most 256\n"


def test_an_unknown_model_version_is_the_release_chosen() -> None:
    diagnosis = diagnose_text("logs/serve.log", ENGINE_WORKER)
    assert_reads(diagnosis, "config", first_error="Got version: (2, 6)")
    assert diagnosis.confidence >= 0.5


def test_the_sentence_alone_in_a_title_is_read_the_same() -> None:
    diagnosis = diagnose_text("issue_title.txt", TITLE_ONLY)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None


def test_a_head_dimension_limit_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("logs/train.log", HEAD_DIM)
    assert diagnosis.category == "op_constraint", diagnosis.root_cause


# A bridge between a training framework and a model family keeps a registry of the model types
# it can convert; a type it has no entry for is a release that does not know the model.
BRIDGE_REGISTRY = (
    "ValueError: Unregistered model type: granite_moe, now only support "
    "dict_keys(['llama', 'qwen2', 'qwen3', 'qwen3_moe'])\n"
)

# Counterexample: a registry that reports what it registered has not failed.
BRIDGE_NOTICE = "INFO bridge.py:41 registered model type: qwen3_moe\n"


def test_a_model_type_the_bridge_has_not_registered_is_the_release_chosen() -> None:
    diagnosis = diagnose_text("logs/train.log", BRIDGE_REGISTRY)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unregistered model type: granite_moe",
        rule="cfg.model_type_not_registered",
    )
    assert diagnosis.confidence >= 0.5


def test_a_registry_notice_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", BRIDGE_NOTICE)
    assert diagnosis.first_error is None or "registered model type" not in (
        diagnosis.first_error.text
    )
