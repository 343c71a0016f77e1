"""Normalisation layers that refuse the rank of the tensor they are handed.

docs/labelling.md#a-normalisation-layer-handed-a-tensor-of-another-rank: torch's norm layers
check their input's rank before any kernel runs; a tensor of another rank than the layer takes
is `shape_mismatch`, with `other` beside it. SyncBatchNorm of releases before 1.4 refused every
2-D input in a wording of its own: that is the release (`config`), with `shape_mismatch` beside
it, while the same old wording for a 1-D input keeps the shape reading.

Fixtures follow a torch 1.x traceback through `module.py`'s `__call__` into `batchnorm.py`'s
`_check_input_dim`, a rank-prefixed launcher copy and a bare one-line paste, with values and
paths of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

OLD_SYNC_BN_PROJECTION_HEAD = """\
Epoch: [0][  0/1251]	Time  4.102 ( 4.102)	Data  3.517 ( 3.517)
Traceback (most recent call last):
  File "main_pretrain.py", line 301, in main_worker
    train(train_loader, model, criterion, optimizer, epoch, args)
  File "main_pretrain.py", line 352, in train
    p1, p2, z1, z2 = model(x1=images[0], x2=images[1])
  File "/opt/envs/torch1.2/lib/python3.7/site-packages/torch/nn/modules/module.py", line 541, in __call__
    result = self.forward(*input, **kwargs)
  File "/srv/ssl/builder.py", line 64, in forward
    z1 = self.projector(self.backbone(x1))
  File "/opt/envs/torch1.2/lib/python3.7/site-packages/torch/nn/modules/container.py", line 92, in forward
    input = module(input)
  File "/opt/envs/torch1.2/lib/python3.7/site-packages/torch/nn/modules/module.py", line 541, in __call__
    result = self.forward(*input, **kwargs)
  File "/opt/envs/torch1.2/lib/python3.7/site-packages/torch/nn/modules/batchnorm.py", line 459, in forward
    self._check_input_dim(input)
  File "/opt/envs/torch1.2/lib/python3.7/site-packages/torch/nn/modules/batchnorm.py", line 444, in _check_input_dim
    .format(input.dim()))
ValueError: expected at least 3D input (got 2D input)
"""

BATCHNORM2D_GIVEN_3D = """\
[default3]:Traceback (most recent call last):
[default3]:  File "/srv/seg/train.py", line 188, in <module>
[default3]:    main()
[default3]:  File "/srv/seg/models/head.py", line 41, in forward
[default3]:    x = self.bn(x)
[default3]:  File "/opt/py3.8/site-packages/torch/nn/modules/batchnorm.py", line 140, in forward
[default3]:    self._check_input_dim(input)
[default3]:  File "/opt/py3.8/site-packages/torch/nn/modules/batchnorm.py", line 407, in _check_input_dim
[default3]:    raise ValueError("expected 4D input (got {}D input)".format(input.dim()))
[default3]:ValueError: expected 4D input (got 3D input)
"""

OLD_SYNC_BN_GIVEN_1D = """\
ValueError: expected at least 3D input (got 1D input)
"""


def test_old_sync_batchnorm_refusing_a_2d_input_is_the_release() -> None:
    diagnosis = diagnose_text("train.log", OLD_SYNC_BN_PROJECTION_HEAD)
    assert_reads(
        diagnosis,
        "config",
        first_error="expected at least 3D input (got 2D input)",
        beside=("shape_mismatch",),
    )
    assert "torch 1.4" in diagnosis.next_actions[0]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (BATCHNORM2D_GIVEN_3D, "expected 4D input (got 3D input)"),
        (OLD_SYNC_BN_GIVEN_1D, "expected at least 3D input (got 1D input)"),
    ],
    ids=["batchnorm2d-given-3d", "old-sync-bn-given-1d"],
)
def test_a_norm_layer_given_another_rank_is_a_shape_mismatch(text: str, line: str) -> None:
    diagnosis = diagnose_text("stdout.log", text)
    assert_reads(diagnosis, "shape_mismatch", first_error=line, beside=("other",))
    assert "normalisation layer" in diagnosis.next_actions[0]
