"""A module copied over several GPUs that is not on the first of them.

docs/labelling.md#a-ranks-device-placement: torch 1.x's DataParallel, and DDP built without
`device_ids` in a process that sees several GPUs, replicate the module over a device list and
refuse a module that sits on another card than the list's first (`all tensors must be on
devices[0]`, DataParallel's `... (device_ids[0]) but found one of them on device: cuda:1`). The
placement is `config`, with `other` beside it. The fixtures are in the shapes torch printed;
paths and values are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A detector's distributed launch on torch 1.4, one rank's traceback.
BROADCAST_REFUSED = """\
2020-05-11 10:02:13,411 - mmdet - INFO - Distributed training: True
Traceback (most recent call last):
  File "tools/train.py", line 142, in <module>
    main()
  File "/srv/det/mmdet/apis/train.py", line 230, in _dist_train
    model = MMDistributedDataParallel(model.cuda())
  File "/opt/conda/lib/python3.7/site-packages/torch/nn/parallel/distributed.py", line 323, in _ddp_init_helper
    self._module_copies = replicate(self.module, self.device_ids, detach=True)
  File "/opt/conda/lib/python3.7/site-packages/torch/cuda/comm.py", line 39, in broadcast_coalesced
    return torch._C._broadcast_coalesced(tensors, devices, buffer_size)
RuntimeError: all tensors must be on devices[0]
"""

# torch 1.8 appends the index.
BROADCAST_REFUSED_INDEXED = """\
Traceback (most recent call last):
  File "run_resnet_cifar10.py", line 88, in <module>
    engine = build_engine(model)
RuntimeError: All tensors must be on devices[0]: 0
"""

# DataParallel's own check before the copy, on a machine where the model was moved to cuda:2.
DATAPARALLEL_OFF_FIRST = """\
Traceback (most recent call last):
  File "train.py", line 77, in <module>
    out = model(batch)
  File "/opt/conda/lib/python3.8/site-packages/torch/nn/parallel/data_parallel.py", line 156, in forward
    raise RuntimeError("module must have its parameters and buffers "
RuntimeError: module must have its parameters and buffers on device cuda:0 (device_ids[0]) but found one of them on device: cuda:2
"""

# Counterexample: the replication itself reported at INFO is no failure.
REPLICATION_REPORTED = """\
2020-05-11 10:02:13,411 - mmdet - INFO - Distributed training: True
2020-05-11 10:02:14,002 - mmdet - INFO - replicating the model onto devices [0, 1, 2, 3]
"""


def test_the_copy_refusing_a_module_off_the_first_device_is_placement() -> None:
    diagnosis = diagnose_text("logs/train.log", BROADCAST_REFUSED)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == "RuntimeError: all tensors must be on devices[0]"
    assert "cfg.replicas_not_on_first_device" in rules_of(diagnosis)
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_the_later_wording_with_the_index_is_the_same_placement() -> None:
    diagnosis = diagnose_text("logs/train.log", BROADCAST_REFUSED_INDEXED)
    assert diagnosis.category == "config"
    assert "cfg.replicas_not_on_first_device" in rules_of(diagnosis)


def test_dataparallels_check_before_the_copy_is_the_same_placement() -> None:
    diagnosis = diagnose_text("logs/train.log", DATAPARALLEL_OFF_FIRST)
    assert_reads(
        diagnosis,
        "config",
        first_error="(device_ids[0]) but found one of them on device: cuda:2",
        rule="cfg.replicas_not_on_first_device",
    )


def test_replication_reported_at_info_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", REPLICATION_REPORTED)
    assert diagnosis.first_error is None
