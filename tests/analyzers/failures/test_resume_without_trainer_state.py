"""A resume pointed at a file that holds weights but no trainer state.

docs/labelling.md#checkpoint-saves-the-sharding-setup-cannot-serve: a trainer that resumes reads
its own bookkeeping back from the checkpoint (the step counter, the release that wrote it)
before it touches the weights; a file saved as weights only, or exported for inference, has
none, and the lookup fails with a bare `KeyError` on the trainer's key. The file and the
resume do not combine: `config`, with `weight_load` and `other` beside it, and the `KeyError`
is the first error. Counterexamples: a key with a longer name, and a progress line that
reports the restored step, are not this gap. Fixtures are our own, in the trainers' shapes.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.resume_checkpoint_lacks_trainer_state"

# A two-rank fit resumed from an exported weights file; the loop restore reads the step.
STEP_MISSING = """\
Restoring states from the checkpoint path at /runs/demo/export/model_only.ckpt
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/job/train.py", line 88, in <module>
[rank1]:     trainer.fit(module, datamodule=data, ckpt_path=args.resume)
[rank1]:   File "/opt/env/lib/python3.10/site-packages/pytorch_lightning/trainer/connectors/checkpoint_connector.py", line 211, in restore_loops
[rank1]:     self.trainer.fit_loop.global_step = self._loaded_checkpoint["global_step"]
[rank1]: KeyError: 'global_step'
"""

# The same resume from a plain state dict: the first key the trainer reads is its release.
RELEASE_MISSING = """\
Traceback (most recent call last):
  File "/opt/env/lib/python3.11/site-packages/lightning/pytorch/trainer/connectors/checkpoint_connector.py", line 96, in _restore_quantization_callbacks
    _pl_migrate_checkpoint(self._loaded_checkpoint, checkpoint_path)
  File "/opt/env/lib/python3.11/site-packages/lightning/pytorch/utilities/migration/utils.py", line 62, in migrate_checkpoint
    ckpt_version = _get_version(checkpoint)
KeyError: 'pytorch-lightning_version'
"""


@pytest.mark.parametrize(
    ("text", "first"),
    [
        pytest.param(STEP_MISSING, "KeyError: 'global_step'", id="step"),
        pytest.param(RELEASE_MISSING, "KeyError: 'pytorch-lightning_version'", id="release"),
    ],
)
def test_a_resume_from_a_file_without_trainer_state_is_config(text: str, first: str) -> None:
    diagnosis = diagnose_text("fit.log", text)
    assert_reads(diagnosis, "config", first_error=first, rule=RULE, beside=["weight_load"])


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("KeyError: 'global_step_offset'\n", id="longer-key"),
        pytest.param("INFO restored global_step 1200 from /runs/demo/last.ckpt\n", id="progress"),
    ],
)
def test_other_lines_about_the_step_are_not_this_gap(line: str) -> None:
    assert RULE not in rules_of(diagnose_text("fit.log", line))
