"""A loader's own shape check on one rank's piece of a named weight, and a save that refuses a
checkpoint folder that is already there.

docs/labelling.md#config-driver_env-or-weight_load: a weight loader that cuts each checkpoint
tensor into the piece a rank holds asserts the piece's size against the parameter's and quotes
both sizes with the weight's name (`... != ... for <name>.weight`); the split of a weight per
rank failed, which is `weight_load` even though the message is two shapes (`shape_mismatch` and
`config` offered). The same two sizes with no weight named stay an assertion between tensors.

A checkpoint writer that will not save into a folder holding an earlier save refuses it with a
`FileExistsError` whose message speaks of the checkpoint; the output path the job chose has to
change: `config`, with `weight_load` and `other` offered, also when the paste cuts the sentence
short. Fixtures are tracebacks with paths, names and sizes of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SPLIT_CHECK = """\
[rank61]:   File "/srv/rl/policy/models/moe_vl/__init__.py", line 512, in load_hf_weights
[rank61]:     assert local_view.shape == sharded_weight.shape, (
[rank61]:            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank61]: AssertionError: Shape mismatch: torch.Size([251, 2048]) != torch.Size([250, 2048]) for output_head.weight with original shape torch.Size([64007, 2048])
"""

SPLIT_CHECK_BIAS = """\
Traceback (most recent call last):
  File "/opt/trainer/weights/shard_load.py", line 88, in copy_shard
    assert piece.shape == target.shape, f"{piece.shape} != {target.shape} for {name}"
AssertionError: torch.Size([1536]) != torch.Size([1520]) for encoder.layers.7.attn.qkv.bias
"""

# Counterexample: the same two sizes compared in model code, no weight named.
ACTIVATIONS = """\
Traceback (most recent call last):
  File "/opt/trainer/model/blocks.py", line 140, in forward
    assert h.shape == r.shape, f"{h.shape} != {r.shape}"
AssertionError: torch.Size([4, 1024, 64]) != torch.Size([4, 512, 64])
"""

SAVE_REFUSED = """\
  File "/opt/envs/fsdp/lib/python3.11/site-packages/lightning/fabric/fabric.py", line 760, in save
    self._strategy.save_checkpoint(path=path, state=_unwrap_objects(state), filter=filter)
  File "/opt/envs/fsdp/lib/python3.11/site-packages/lightning/fabric/strategies/fsdp.py", line 470, in save_checkpoint
    raise FileExistsError(f"The checkpoint directory already exists and is not empty: {path}")
FileExistsError: The checkpoint directory already exists and is not empty: /runs/seg/best.ckpt
"""

# The same refusal with the paste cut inside the exception's sentence.
SAVE_REFUSED_CUT = """\
  File "/opt/envs/fsdp/lib/python3.11/site-packages/lightning/fabric/strategies/fsdp.py", line 470, in save_checkpoint
    raise FileExistsError(f"The checkpoint directory already exists and is not empty: {path}")
FileExistsError: The checkpoint d
"""


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (SPLIT_CHECK, "!= torch.Size([250, 2048]) for output_head.weight"),
        (SPLIT_CHECK_BIAS, "!= torch.Size([1520]) for encoder.layers.7.attn.qkv.bias"),
    ],
)
def test_a_loaders_size_check_on_a_named_weight_is_weight_load(text: str, first: str) -> None:
    diagnosis = diagnose_text("rank61.log", text)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error=first,
        rule="wl.weight_piece_size_asserted",
        beside=("shape_mismatch",),
    )


def test_two_sizes_with_no_weight_named_stay_a_shape_assertion() -> None:
    diagnosis = diagnose_text("train.log", ACTIVATIONS)
    assert "wl.weight_piece_size_asserted" not in rules_of(diagnosis)
    assert_reads(diagnosis, "shape_mismatch", first_error="torch.Size([4, 512, 64])")


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (SAVE_REFUSED, "already exists and is not empty: /runs/seg/best.ckpt"),
        (SAVE_REFUSED_CUT, "FileExistsError: The checkpoint d"),
    ],
)
def test_a_save_refusing_an_existing_checkpoint_folder_is_config(text: str, first: str) -> None:
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error=first,
        rule="cfg.checkpoint_folder_exists_on_save",
        beside=("weight_load",),
    )


def test_the_raise_statement_alone_is_no_save_refusal() -> None:
    diagnosis = diagnose_text(
        "train.log",
        '    raise FileExistsError(f"The checkpoint directory already exists and is not empty: {path}")\n',
    )
    assert "cfg.checkpoint_folder_exists_on_save" not in rules_of(diagnosis)
