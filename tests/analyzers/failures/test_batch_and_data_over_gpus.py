"""Vision trainers whose batch or data set does not fit the GPUs they start.

docs/labelling.md#a-batch-the-controller-cannot-split-evenly-over-its-workers: a trainer's
check that the total batch divides over the GPUs (detectron2, YOLOv5, ultralytics, option
parsers) and ultralytics' refusal of AutoBatch with several GPUs are the settings against the
launch: `config`. docs/labelling.md#a-data-set-smaller-than-the-ranks-sampler-can-pad: torch's
DistributedSampler asserting on a data set it cannot pad over the ranks is `config`, with
`other` beside it.

Fixtures are a launcher's command with the trainer's assertion, an ultralytics export after
multi-GPU training, and two ranks' loader tracebacks, with values and paths of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text

DETECTRON_STYLE_BATCH = """\
python train_net.py --config-file configs/ade20k/maskformer_r50.yaml --num-gpus 8
AssertionError: Total batch size (12) must be divisible by the number of gpus (8)
"""

YOLO_STYLE_BATCH = """\
Traceback (most recent call last):
  File "train.py", line 612, in <module>
    main(opt)
  File "/srv/yolo/utils/torch_utils.py", line 71, in select_device
    assert batch_size % n == 0, f'batch-size {batch_size} not multiple of GPU count {n}'
AssertionError: batch-size 20 not multiple of GPU count 3
"""

AUTO_BATCH_EXPORT = """\
Results saved to runs/detect/train7
Traceback (most recent call last):
  File "/srv/exp/train_and_export.py", line 19, in <module>
    model.export(format="onnx")
ValueError: AutoBatch with batch<1 not supported for Multi-GPU training, please specify a valid batch size, i.e. batch=16.
"""

SAMPLER_TOO_FEW_SAMPLES = """\
Scanning labels ../toy/labels/train.cache (2 found, 0 missing, 0 empty, 0 duplicate, for 2 images): 2it [00:00, 3120.55it/s]
Traceback (most recent call last):
  File "train.py", line 402, in <module>
    train(hyp, opt, device)
  File "/opt/py36/site-packages/torch/utils/data/sampler.py", line 208, in __iter__
    for idx in self.sampler:
  File "/opt/py36/site-packages/torch/utils/data/distributed.py", line 80, in __iter__
    assert len(indices) == self.total_size
AssertionError
Traceback (most recent call last):
  File "train.py", line 402, in <module>
    train(hyp, opt, device)
  File "/opt/py36/site-packages/torch/utils/data/distributed.py", line 80, in __iter__
    assert len(indices) == self.total_size
AssertionError
"""


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            DETECTRON_STYLE_BATCH,
            "Total batch size (12) must be divisible by the number of gpus (8)",
        ),
        (YOLO_STYLE_BATCH, "batch-size 20 not multiple of GPU count 3"),
    ],
    ids=["total-batch-over-gpus", "batch-size-not-multiple"],
)
def test_a_total_batch_the_gpus_do_not_divide_is_the_setting(text: str, line: str) -> None:
    diagnosis = diagnose_text("console.txt", text)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert line in diagnosis.first_error.text
    assert "shape_mismatch" in {alt.category for alt in diagnosis.alternatives}
    assert "multiple of the GPU count" in diagnosis.next_actions[0]


def test_auto_batch_with_several_gpus_is_the_batch_setting() -> None:
    diagnosis = diagnose_text("error.txt", AUTO_BATCH_EXPORT)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "AutoBatch with batch<1" in diagnosis.first_error.text
    assert "explicit batch size" in diagnosis.next_actions[0]


def test_a_sampler_that_cannot_pad_a_small_data_set_is_the_data_set() -> None:
    diagnosis = diagnose_text("train.log", SAMPLER_TOO_FEW_SAMPLES)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("AssertionError")
    assert "other" in {alt.category for alt in diagnosis.alternatives}
    assert "fewer samples than the sampler can pad" in diagnosis.next_actions[0]


def test_a_batch_report_is_no_failure() -> None:
    text = "INFO total batch size 16 split over 4 gpus (4 per gpu)\nINFO epoch 1/100 started\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None or "split over" not in diagnosis.first_error.text
