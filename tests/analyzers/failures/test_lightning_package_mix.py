"""Lightning's override check handed a module of the other Lightning package.

Lightning ships under two import names, `lightning` and the older `pytorch_lightning`, whose
classes are distinct. When a trainer is built from one and its helpers inspect a module
derived from the other's `LightningModule`, the override check finds no parent class of its
own and stops (`ValueError: Expected a parent`), before any step and on every rank. The code
of the job is fine; the installed packages (or a framework release that imports the other
name) do not fit together (docs/labelling.md#config-driver_env-or-weight_load): `config`,
with `other` beside it, and the line is the first error. Excerpts follow the real shapes with
values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of

PACKAGE_MIX = """\
[rank1]:   File "/opt/venv/lib/python3.10/site-packages/pytorch_lightning/trainer/call.py", line 108, in _call_configure_model
[rank1]:     if is_overridden("configure_model", trainer.lightning_module):
[rank1]:   File "/opt/venv/lib/python3.10/site-packages/pytorch_lightning/utilities/model_helpers.py", line 42, in is_overridden
[rank1]:     raise ValueError("Expected a parent")
[rank1]: ValueError: Expected a parent
"""


def test_the_override_check_without_a_parent_is_a_package_mix() -> None:
    diagnosis = diagnose_text("rank1.log", PACKAGE_MIX)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("ValueError: Expected a parent")
    assert "cfg.lightning_package_mix" in rules_of(diagnosis)


def test_a_sentence_about_a_parent_directory_is_no_package_mix() -> None:
    text = "ValueError: Expected a parent directory for the checkpoint path, got 'ckpt.pt'\n"
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.lightning_package_mix" not in rules_of(diagnosis)
