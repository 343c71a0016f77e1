"""Normalisation layers whose training run does not give them what they need.

docs/labelling.md#a-normalisation-layer-given-one-value-per-channel: BatchNorm in training
refuses one value per channel (a per-device batch of one after a pooling branch); the setting
changes, so `config`, with `shape_mismatch` beside it.
docs/labelling.md#syncbatchnorm-outside-a-distributed-device-run: SyncBatchNorm refuses an input
on the host, or (older releases) a module outside DistributedDataParallel; `config`, with
`other` beside it.

Fixtures follow an mmcv-style runner and a segmentation head on two ranks whose tracebacks
interleave, and a detector's test script, with paths, values and names of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

ONE_IMAGE_PER_GPU = """\
2026-03-02 10:20:31,118 - segkit - INFO - Iter [1/80000]	lr: 1.000e-02
Traceback (most recent call last):
  File "tools/train.py", line 166, in <module>
    main()
  File "/srv/segkit/segkit/apis/train.py", line 120, in train_segmentor
    runner.run(data_loaders, cfg.workflow)
  File "/opt/py38/site-packages/mmcv/runner/iter_based_runner.py", line 61, in train
    outputs = self.model.train_step(data_batch, self.optimizer, **kwargs)
Traceback (most recent call last):
  File "tools/train.py", line 166, in <module>
  File "/srv/segkit/segkit/models/decode_heads/aspp_head.py", line 93, in forward
    self.image_pool(x),
  File "/opt/py38/site-packages/torch/nn/functional.py", line 2404, in _verify_batch_size
    raise ValueError("Expected more than 1 value per channel when training, got input size {}".format(size))
ValueError: Expected more than 1 value per channel when training, got input size torch.Size([1, 256, 1, 1])
    main()
ValueError: Expected more than 1 value per channel when training, got input size torch.Size([1, 256, 1, 1])
"""

OLD_SYNC_BN_SINGLE_VALUE = """\
[rank1]: ValueError: Expected more than 1 value per channel when training, got input size 1
"""

SYNC_BN_INPUT_ON_HOST = """\
Convert to SyncBatchNorm
[>>                                                ] 0/4120, elapsed: 0s, ETA:Traceback (most recent call last):
  File "./tools/test.py", line 212, in <module>
    main()
  File "/srv/occ3d/occ3d/apis/test.py", line 77, in multi_gpu_test
    result = model(return_loss=False, rescale=True, **data)
  File "/opt/py38/site-packages/torch/nn/modules/batchnorm.py", line 731, in forward
    raise ValueError("SyncBatchNorm expected input tensor to be on GPU")
ValueError: SyncBatchNorm expected input tensor to be on GPU
"""

OLD_SYNC_BN_WITHOUT_DDP = """\
=> building model hrnet_w32
Traceback (most recent call last):
  File "tools/eval.py", line 88, in <module>
    main()
  File "/opt/py37/site-packages/torch/nn/modules/batchnorm.py", line 459, in forward
    raise AttributeError('SyncBatchNorm is only supported within torch.nn.parallel.DistributedDataParallel')
AttributeError: SyncBatchNorm is only supported within torch.nn.parallel.DistributedDataParallel
"""


@pytest.mark.parametrize(
    "text",
    [ONE_IMAGE_PER_GPU, OLD_SYNC_BN_SINGLE_VALUE],
    ids=["aspp-head-one-image-per-gpu", "old-sync-bn-count-only"],
)
def test_one_value_per_channel_in_training_is_the_batch_setting(text: str) -> None:
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="Expected more than 1 value per channel when training",
        beside=("shape_mismatch",),
    )
    assert "at least two samples" in diagnosis.next_actions[0]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (SYNC_BN_INPUT_ON_HOST, "SyncBatchNorm expected input tensor to be on GPU"),
        (OLD_SYNC_BN_WITHOUT_DDP, "SyncBatchNorm is only supported within"),
    ],
    ids=["input-left-on-host", "older-release-without-ddp"],
)
def test_sync_batchnorm_outside_a_distributed_device_run_is_the_setup(text: str, line: str) -> None:
    diagnosis = diagnose_text("dist_test.log", text)
    assert_reads(diagnosis, "config", first_error=line, beside=("other",))
    assert "SyncBatchNorm needs the distributed launch" in diagnosis.next_actions[0]


def test_a_norm_layer_given_another_rank_keeps_the_shape_reading() -> None:
    diagnosis = diagnose_text("train.log", "ValueError: expected 4D input (got 2D input)\n")
    assert diagnosis.category == "shape_mismatch", diagnosis.root_cause


def test_a_conversion_report_is_no_failure() -> None:
    text = "INFO Convert to SyncBatchNorm: 53 layers replaced\nINFO Iter [10/80000] loss: 1.2031\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None or "SyncBatchNorm" not in diagnosis.first_error.text
