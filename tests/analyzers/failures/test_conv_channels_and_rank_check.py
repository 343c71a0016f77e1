"""A convolution refusing its input or weight, and Megatron's local-rank placement check.

docs/labelling.md#a-convolution-whose-channels-or-groups-do-not-fit: torch's convolution checks
(input channels against the weight, output channels against the groups) are `shape_mismatch`
with `other` beside it. docs/labelling.md#a-ranks-device-placement: Megatron's assertion that
the launcher's local rank equals rank % device count is the launch's placement, `config` with
`driver_env` beside it. Fixtures follow a bare pasted line, a rank-prefixed traceback and a
Megatron start-up traceback, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

GROUPED_WEIGHT = """\
RuntimeError: Given groups=3, expected weight to be divisible by 3 at dimension 0, but got weight of size [[2336, 4, 1]] instead
"""

INPUT_CHANNELS = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/train.py", line 88, in step
[rank1]:     out = model(images)
[rank1]:   File "/opt/py3.11/site-packages/torch/nn/modules/conv.py", line 549, in _conv_forward
[rank1]:     return F.conv2d(
[rank1]: RuntimeError: Given groups=1, weight of size [64, 3, 7, 7], expected input[16, 1, 224, 224] to have 3 channels, but got 1 channels instead
"""

MODULE_PRINT = """\
Conv2d(3, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), groups=1)
step 1 loss 2.10
"""

LOCAL_RANK_CHECK = """\
building GPT2BPETokenizer tokenizer ...
Traceback (most recent call last):
  File "/work/Megatron/pretrain_gpt.py", line 120, in main
    initialize_megatron(extra_args_provider=None,
  File "/work/Megatron/megatron/initialize.py", line 212, in _initialize_distributed
    assert args.local_rank == device, \\
AssertionError: expected local-rank to be the same as rank % device-count.
 > padded vocab (size: 50257) with 47 dummy tokens (new size: 50304)
"""


def test_a_grouped_convolution_weight_that_does_not_split_is_shape_mismatch() -> None:
    diagnosis = diagnose_text("train.log", GROUPED_WEIGHT)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="expected weight to be divisible by 3",
        beside=("other",),
    )


def test_a_convolution_input_with_other_channels_is_shape_mismatch() -> None:
    diagnosis = diagnose_text("stdout.log", INPUT_CHANNELS)
    assert_reads(diagnosis, "shape_mismatch", first_error="to have 3 channels, but got 1 channels")


def test_a_printed_convolution_module_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", MODULE_PRINT)
    assert diagnosis.category != "shape_mismatch"


def test_megatrons_local_rank_check_is_the_rank_placement() -> None:
    diagnosis = diagnose_text("stdout.log", LOCAL_RANK_CHECK)
    assert_reads(
        diagnosis,
        "config",
        first_error="expected local-rank to be the same as rank % device-count",
        beside=("driver_env",),
    )
