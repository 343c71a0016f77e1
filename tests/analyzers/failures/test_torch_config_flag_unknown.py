"""A library sets a flag of torch's config modules that the installed torch does not have.

torch keeps its compiler settings in config modules (`torch._dynamo.config`,
`torch._inductor.config`, `torch._functorch.config`) that refuse any name they do not define:
`AttributeError: torch._inductor.config.<flag> does not exist`. A serving or training library
written for a newer torch sets such a flag while it prepares its compile path, so the package
set does not fit: `config`, and the refusal is the first error
(docs/labelling.md#a-torch-config-flag-the-installed-release-does-not-have). A module
attribute missing in other words keeps its own reading.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ENGINE_COMPILE_SETUP = """\
(EngineCore_DP0 pid=5120) ERROR 04-08 10:11:12 [core.py:700] EngineCore failed to start.
(EngineCore_DP0 pid=5120) ERROR 04-08 10:11:12 [core.py:700]   File "/opt/venv/lib/python3.10/site-packages/torch/utils/_config_module.py", line 312, in __setattr__
(EngineCore_DP0 pid=5120) ERROR 04-08 10:11:12 [core.py:700]     raise AttributeError(f"{self.__name__}.{name} does not exist")
(EngineCore_DP0 pid=5120) ERROR 04-08 10:11:12 [core.py:700] AttributeError: torch._inductor.config.combo_kernels_autotune does not exist
"""

BARE_REFUSAL = """\
AttributeError: torch._dynamo.config.inline_inbuilt_nn_modules_v2 does not exist
"""

OTHER_ATTRIBUTE = """\
AttributeError: module 'torch._dynamo' has no attribute 'mark_static_address'
"""


def test_engine_compile_setup_refused_flag_is_config() -> None:
    diagnosis = diagnose_text("engine.log", ENGINE_COMPILE_SETUP)
    assert_reads(
        diagnosis,
        "config",
        first_error="torch._inductor.config.combo_kernels_autotune does not exist",
        rule="cfg.torch_config_flag_unknown",
    )
    assert diagnosis.confidence >= 0.7


def test_bare_refusal_is_read_alone() -> None:
    diagnosis = diagnose_text("train.log", BARE_REFUSAL)
    assert_reads(
        diagnosis,
        "config",
        first_error="inline_inbuilt_nn_modules_v2 does not exist",
        rule="cfg.torch_config_flag_unknown",
    )


def test_module_attribute_in_other_words_is_not_this_reading() -> None:
    diagnosis = diagnose_text("train.log", OTHER_ATTRIBUTE)
    assert "cfg.torch_config_flag_unknown" not in rules_of(diagnosis)
