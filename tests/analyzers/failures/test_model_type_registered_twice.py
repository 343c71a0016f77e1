"""A library that registers a model type the installed transformers already has.

docs/labelling.md#a-model-type-that-transformers-already-registers: the registry's refusal
means two releases installed together do not fit, `config`, confident, and the `ValueError` is
the first error. Values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NAME_TAKEN = """\
Traceback (most recent call last):
  File "/work/examples/offline_demo.py", line 12, in <module>
    from servekit import Engine
  File "/venv/lib/python3.11/site-packages/servekit/configs/__init__.py", line 9, in <module>
    from servekit.configs.visionenc import VisionEncConfig
  File "/venv/lib/python3.11/site-packages/servekit/configs/visionenc.py", line 40, in <module>
    AutoConfig.register("visionenc", VisionEncConfig)
  File "/venv/lib/python3.11/site-packages/transformers/models/auto/configuration_auto.py", line 990, in register
    raise ValueError(f"'{key}' is already used by a Transformers config, pick another name.")
ValueError: 'visionenc' is already used by a Transformers config, pick another name.
"""

NAME_REGISTERED = """\
INFO 03-02 10:14:07 registry.py:31 registered 'visionenc' with AutoConfig
INFO 03-02 10:14:08 engine.py:88 engine ready
"""


def test_a_model_type_transformers_already_holds_is_a_release_mismatch() -> None:
    diagnosis = diagnose_text("ci/doctest.log", NAME_TAKEN)
    assert_reads(
        diagnosis,
        "config",
        first_error="'visionenc' is already used by a Transformers config",
        rule="cfg.auto_config_name_taken",
    )
    assert diagnosis.confidence >= 0.8


def test_a_registered_name_is_no_failure() -> None:
    diagnosis = diagnose_text("ci/doctest.log", NAME_REGISTERED)
    assert "cfg.auto_config_name_taken" not in rules_of(diagnosis)
