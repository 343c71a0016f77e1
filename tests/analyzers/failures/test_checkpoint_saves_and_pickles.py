"""Checkpoint saves and loads that stop for a reason no load planner words.

docs/labelling.md#a-checkpoint-file-that-is-not-there (a distributed checkpoint whose metadata
could not be read, raised as a bare assertion), #a-checkpoint-pickled-by-another-release (a
pickled object whose class the installed package no longer defines) and
#config-driver_env-or-weight_load (a framework feature still under development; FSDP's
state-dict hook missing a name while a job saves).

Fixtures are written in the shapes of torch's tracebacks and of a trainer's logger records,
with paths, names and numbers of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SITE = "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint"

METADATA_ASSERT = f"""\
[rank2]: Traceback (most recent call last): (RANK 2)
[rank2]:   File "{SITE}/utils.py", line 192, in reduce_scatter
[rank2]:     local_data = map_fun()
[rank2]:                  ^^^^^^^^^
[rank2]:   File "{SITE}/state_dict_loader.py", line 250, in local_step
[rank2]:     assert metadata is not None
[rank2]:            ^^^^^^^^^^^^^^^^^^^^
[rank2]: AssertionError
"""

# The same records written by a trainer's logger and pasted with their breaks lost: several
# records share one physical line, so the statement sits in an earlier piece of that line.
R = "2026-03-02 07:15:41,118 - Trainer - INFO - [rank0]:"
GLUED_METADATA_ASSERT = (
    f'{R}   File "{SITE}/state_dict_loader.py", line 250, in local_step          '
    f"{R}     assert metadata is not None          "
    f"{R}            ^^^^^^^^^^^^^^^^^^^^          "
    f"{R} AssertionError          "
    f"{R} Traceback (most recent call last): (RANK 3)\n"
    f'{R}   File "{SITE}/utils.py", line 192, in reduce_scatter\n'
)


@pytest.mark.parametrize("text", [METADATA_ASSERT, GLUED_METADATA_ASSERT])
def test_a_bare_assertion_that_no_metadata_was_read_is_an_incomplete_checkpoint(text: str) -> None:
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "weight_load", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.rstrip().endswith("AssertionError")
    assert {alt.category for alt in diagnosis.alternatives} >= {"config"}


def test_another_bare_assertion_in_the_loader_is_not_read_as_missing_metadata() -> None:
    text = METADATA_ASSERT.replace("assert metadata is not None", "assert planner is not None")
    diagnosis = diagnose_text("train.log", text)
    assert "metadata could not be read" not in diagnosis.root_cause


UNPICKLED = """\
Traceback (most recent call last):
  File "/srv/tools/inspect_optim.py", line 9, in <module>
    state = torch.load(path, weights_only=False)
  File "/opt/venv/lib/python3.10/site-packages/torch/serialization.py", line 1049, in _load
    result = unpickler.load()
  File "/opt/venv/lib/python3.10/site-packages/torch/serialization.py", line 1042, in find_class
    return super().find_class(mod_name, name)
AttributeError: Can't get attribute '{name}' on {module}
"""


def test_a_pickled_name_the_installed_package_lacks_is_a_release_mismatch() -> None:
    module = (
        "<module 'trainer.runtime.zero_optimizer' from"
        " '/opt/venv/lib/python3.10/site-packages/trainer/runtime/zero_optimizer.py'>"
    )
    diagnosis = diagnose_text("load.log", UNPICKLED.format(name="shard_record", module=module))
    assert_reads(
        diagnosis,
        "config",
        first_error="Can't get attribute 'shard_record'",
        beside=("weight_load",),
    )


def test_a_class_of_the_saving_script_is_not_read_as_a_package_release() -> None:
    module = "<module '__main__' from '/srv/tools/inspect_optim.py'>"
    diagnosis = diagnose_text("load.log", UNPICKLED.format(name="TinyNet", module=module))
    assert "installed package does not define" not in diagnosis.root_cause


def test_a_feature_still_under_development_is_what_the_release_lacks() -> None:
    text = (
        "[rank0]: Traceback (most recent call last):\n"
        '[rank0]:   File "/srv/trainer/ckpt.py", line 88, in save\n'
        "[rank0]:     state = get_state_dict(model, optimizer)\n"
        "[rank0]: NotImplementedError: 2D state_dict is under development. Please check the"
        " tracking issue for more details.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "config", first_error="under development")


def test_a_warning_that_a_feature_is_under_development_is_no_failure() -> None:
    text = (
        "UserWarning: context parallel support is under development and may change\n"
        "step 10 loss 2.31\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category != "config"


# FSDP's assertion, its message wrapped over the next lines as a terminal printed it.
FSDP_SAVE = """\
AssertionError: FSDP assumes _fsdp_wrapped_module.layers.3.mlp.fc1.weight is in the state_dict
but the state_dict only has odict_keys(['_fsdp_wrapped_module._flat_param',
'_fsdp_wrapped_module.layers.3._flat_param']). prefix=_fsdp_wrapped_module.layers.3., module_name=mlp.fc1. param_name=weight rank=2.
Traceback (most recent call last):
  File "/srv/trainer/main.py", line 301, in <module>
    save_checkpoint(model, step)
  File "/srv/trainer/ckpt.py", line 40, in save_checkpoint
    cpu_state = model.state_dict()
"""


def test_fsdps_state_dict_hook_missing_a_name_on_save_is_not_a_load() -> None:
    diagnosis = diagnose_text("train.log", FSDP_SAVE)
    assert_reads(diagnosis, "config", first_error="FSDP assumes", beside=("other",))


HF = "/opt/venv/lib/python3.11/site-packages/transformers"

# The Trainer's own loader refusing a folder it finds no checkpoint in.
RESUME_REFUSED = f"""\
  File "{HF}/trainer.py", line 2311, in _load_from_checkpoint
    raise ValueError(f"Can't find a valid checkpoint at {{resume_from_checkpoint}}")
ValueError: Can't find a valid checkpoint at /scratch/runs/sft-13b/checkpoint-800
"""

# The DeepSpeed helper's refusal, pasted up to the raise statement only.
RESUME_REFUSED_SOURCE_ONLY = f"""\
[rank3]:   File "{HF}/trainer.py", line 2402, in _inner_training_loop
[rank3]:     deepspeed_load_checkpoint(
[rank3]:   File "{HF}/integrations/deepspeed.py", line 511, in deepspeed_load_checkpoint
[rank3]:     raise ValueError(f"Can't find a valid checkpoint at {{checkpoint_path}}")
"""

RESUME_NOTE = """\
[INFO|trainer.py:2201] 2026-12-05 09:00:01,118 >> Loading model from /scratch/runs/sft-13b/checkpoint-800, a valid checkpoint at step 800.
step 801 loss 1.902
"""


@pytest.mark.parametrize("text", [RESUME_REFUSED, RESUME_REFUSED_SOURCE_ONLY])
def test_a_resume_that_finds_no_checkpoint_in_its_folder_is_a_failed_load(text: str) -> None:
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "weight_load", first_error="find a valid checkpoint at")
    assert "wl.resume_finds_no_checkpoint" in rules_of(diagnosis)
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_resume_that_reports_its_checkpoint_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", RESUME_NOTE)
    assert "wl.resume_finds_no_checkpoint" not in rules_of(diagnosis)
    assert diagnosis.first_error is None
