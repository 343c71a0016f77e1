"""A saved optimizer state without the two parts every optimizer state has.

torch's optimizers all keep `state` and `param_groups` in their state dict; a loader that
finds either missing was handed something else under the checkpoint's optimizer entry. The
excerpts are written in the shapes the loaders print (a plain traceback, a rank-prefixed one,
rich's boxed traceback cut at its top) with paths and values of our own. Guide section:
docs/labelling.md#an-optimizer-state-kept-under-another-optimizers-names.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

PLAIN_RESUME = """\
=> resuming from /data/runs/detr-r50/checkpoint_0049.pth
Traceback (most recent call last):
  File "/home/user/detr/main.py", line 212, in main
    optimizer.load_state_dict(checkpoint["optimizer"])
  File "/opt/conda/lib/python3.10/site-packages/torch/optim/optimizer.py", line 812, in load_state_dict
    groups = self.param_groups
  File "/opt/conda/lib/python3.10/site-packages/torch/optim/optimizer.py", line 816, in load_state_dict
    saved_groups = deepcopy(state_dict["param_groups"])
KeyError: 'param_groups'
"""

RANKED_FSDP_RESUME = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/workspace/train/resume.py", line 141, in restore
[rank3]:     osd = FSDP.optim_state_dict_to_load(model, optimizer, saved["optim"])
[rank3]:   File "/usr/local/lib/python3.11/site-packages/torch/distributed/fsdp/fully_sharded_data_parallel.py", line 1944, in optim_state_dict_to_load
[rank3]:     result = FullyShardedDataParallel._optim_state_dict_to_load_impl(
[rank3]:   File "/usr/local/lib/python3.11/site-packages/torch/distributed/fsdp/_optim_utils.py", line 461, in _flatten_optim_state_dict
[rank3]:     unflat_osd_state = unflat_osd["state"]
[rank3]: KeyError: 'state'
"""

RICH_BOX_TAIL = """\
[rank12]: │    459 │   # Construct the "state" part                                      │
[rank12]: │ ❱  460 │   unflat_osd_state = unflat_osd["state"]                            │
[rank12]: ╰──────────────────────────────────────────────────────────────────────────────╯
[rank12]: KeyError: 'state'
"""


@pytest.mark.parametrize(
    "text", [PLAIN_RESUME, RANKED_FSDP_RESUME, RICH_BOX_TAIL], ids=["plain", "ranked", "rich"]
)
def test_an_optimizer_state_without_its_parts_is_the_checkpoint(text: str) -> None:
    diagnosis = diagnose_text("logs/train_rank3.log", text)
    assert_reads(diagnosis, "weight_load", first_error="KeyError: '")
    assert {"config", "other"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence >= 0.5


def test_another_optimizers_state_name_keeps_its_own_reading() -> None:
    """Neighbour: a per-parameter name is the optimizer that wrote the state (config)."""
    diagnosis = diagnose_text("logs/convert.log", "[rank0]: KeyError: 'exp_avg_sq'\n")
    assert diagnosis.category == "config"


def test_a_model_checkpoints_entry_is_not_an_optimizer_part() -> None:
    """Counterexample: `state_dict` is a checkpoint's model entry, not this rule's."""
    diagnosis = diagnose_text("logs/eval.log", "KeyError: 'state_dict'\n")
    assert "wl.optimizer_state_dict_without_its_parts" not in {
        e.rule for e in diagnosis.evidence if e.rule
    }


def test_a_progress_line_counting_param_groups_is_no_error() -> None:
    text = "restored optimizer: state for 291 params, 2 param_groups\nstep 1201 loss 2.31\n"
    diagnosis = diagnose_text("logs/train.log", text)
    assert diagnosis.first_error is None
