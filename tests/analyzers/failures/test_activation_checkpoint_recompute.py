"""Activation checkpointing whose recomputation saves other tensors than the forward did.

docs/labelling.md#activation-checkpointing-whose-recomputation-differs-from-the-forward:
non-reentrant checkpointing reruns a region during backward and stops when the rerun saves a
tensor of another shape (or another number of tensors). The region is not replayable as
wrapped, so the label is `config`, with `shape_mismatch` and `other` beside it; the
`CheckpointError` headline is the first error and the metadata lines belong to it. The word
`checkpoint` in `torch.utils.checkpoint` is no evidence of a weights checkpoint.

The fixtures are written in the shape of a multi-rank trainer's stderr, with paths, ranks and
numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

RECOMPUTE_MISMATCH = """\
[rank5]:   File "/env/lib/python3.11/site-packages/torch/autograd/graph.py", line 829, in _engine_run_backward
[rank5]:     return Variable._execution_engine.run_backward(
[rank5]:   File "/env/lib/python3.11/site-packages/torch/utils/checkpoint.py", line 1130, in unpack_hook
[rank5]:     frame.check_recomputed_tensors_match(gid)
[rank5]:   File "/env/lib/python3.11/site-packages/torch/utils/checkpoint.py", line 905, in check_recomputed_tensors_match
[rank5]:     raise CheckpointError(
[rank5]: torch.utils.checkpoint.CheckpointError: torch.utils.checkpoint: Recomputed values for the following tensors have different metadata than during the forward pass.
[rank5]: tensor at position 9:
[rank5]: saved metadata: {'shape': torch.Size([2, 640, 4096]), 'dtype': torch.bfloat16, 'device': device(type='cuda', index=5)}
[rank5]: recomputed metadata: {'shape': torch.Size([0]), 'dtype': torch.bfloat16, 'device': device(type='cuda', index=5)}
"""


def test_a_recompute_mismatch_is_the_checkpointing_setup_not_a_weight_file() -> None:
    diagnosis = diagnose_text("worker.log", RECOMPUTE_MISMATCH)
    assert_reads(diagnosis, "config", first_error="Recomputed values for the following tensors")
    alternatives = {alt.category for alt in diagnosis.alternatives}
    assert {"shape_mismatch", "other"} & alternatives


SAVED_COUNT_DIFFERS = """\
Traceback (most recent call last):
  File "/srv/vlm/train.py", line 212, in <module>
    loss.backward()
torch.utils.checkpoint.CheckpointError: torch.utils.checkpoint: A different number of tensors was saved during the original forward and recomputation.
Number of tensors saved during forward: 31
Number of tensors saved during recomputation: 27
"""


def test_a_different_count_of_saved_tensors_is_the_same_finding() -> None:
    diagnosis = diagnose_text("stderr.log", SAVED_COUNT_DIFFERS)
    assert_reads(diagnosis, "config", first_error="A different number of tensors was saved")


def test_a_progress_line_about_recomputed_layers_is_no_failure() -> None:
    text = "INFO recomputed 12 layers during backward (activation checkpointing on)\nstep 40 done\n"
    diagnosis = diagnose_text("stderr.log", text)
    assert diagnosis.first_error is None


UNKNOWN_RERUN_FAILURE = """\
  File "/env/lib/python3.11/site-packages/torch/utils/checkpoint.py", line 1130, in unpack_hook
    frame.rerun_region(gid)
  File "/env/lib/python3.11/site-packages/torch/utils/checkpoint.py", line 917, in rerun_region
    raise RuntimeError(
RuntimeError: torch.utils.checkpoint: the rerun of block 7 returned 3 outputs, the forward 4
"""


def test_the_activation_checkpoint_module_name_is_no_weight_loading_evidence() -> None:
    # an error no rule knows, raised from torch.utils.checkpoint: the module's name says
    # activation recomputation, so the fallback must not read it as a weights checkpoint
    diagnosis = diagnose_text("stderr.log", UNKNOWN_RERUN_FAILURE)
    assert diagnosis.first_error is not None
    assert diagnosis.category != "weight_load", diagnosis.root_cause
