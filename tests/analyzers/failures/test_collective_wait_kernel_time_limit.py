"""CUDA's `the launch timed out and was terminated` (a kernel ran past the GPU's run-time limit)
raised where a rank waits in one of torch's collectives.

A rank that reaches a barrier or a broadcast early waits inside NCCL's kernel until its peers
arrive; when the others are still busy (an evaluation on one rank, a slow shard), that kernel
outlives the card's kernel time limit and the runtime ends it. The collective's wait is what
failed (`hccl`); the device-side reading stays beside it. The same sentence under a model's own
kernel keeps the failed-device reading. The fixtures are written here with our own values.
docs/labelling.md#a-collective-wait-ended-by-the-kernel-time-limit
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

RULE = "hccl.collective_wait_kernel_time_limit"

BARRIER_AFTER_EVALUATION = """\
[>>>>>>>>>>>>>>>>>>>>>>>>>>>>>] 8120/8116, 9.7 task/s, elapsed: 840s, ETA:     0s
Traceback (most recent call last):
  File "tools/train.py", line 96, in <module>
    main()
  File "/srv/det/detlib/apis/train.py", line 141, in train_detector
    runner.run(data_loaders, cfg.workflow, cfg.total_epochs)
  File "/srv/env/lib/python3.7/site-packages/mmcv/runner/runner.py", line 229, in call_hook
    getattr(hook, fn_name)(self)
  File "/srv/det/detlib/core/evaluation/eval_hooks.py", line 61, in after_train_epoch
    dist.barrier()
  File "/srv/env/lib/python3.7/site-packages/torch/distributed/distributed_c10d.py", line 1402, in barrier
    work.wait()
RuntimeError: CUDA error: the launch timed out and was terminated
"""

BROADCAST_DURING_VALIDATION = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/home/demo/venv/lib/python3.11/site-packages/demo_yolo/engine/trainer.py", line 402, in _do_train
[rank3]:     dist.broadcast_object_list(broadcast_list, 0)
[rank3]:   File "/home/demo/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2301, in broadcast_object_list
[rank3]:     broadcast(object_sizes_tensor, src=src, group=group)
[rank3]:   File "/home/demo/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 1620, in broadcast
[rank3]:     work.wait()
[rank3]: RuntimeError: CUDA error: the launch timed out and was terminated
"""

MODEL_KERNEL = """\
Traceback (most recent call last):
  File "train.py", line 88, in <module>
    out = model(images)
  File "/opt/env/lib/python3.9/site-packages/torch/nn/modules/conv.py", line 456, in _conv_forward
    return F.conv2d(input, weight, bias, self.stride,
RuntimeError: CUDA error: the launch timed out and was terminated
"""


def test_a_barrier_that_outlived_the_kernel_time_limit_is_the_collective_wait() -> None:
    diagnosis = diagnose_text("train.log", BARRIER_AFTER_EVALUATION)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="the launch timed out and was terminated",
        rule=RULE,
        beside=["device_fault"],
    )


def test_a_broadcast_waiting_on_a_validating_rank_reads_the_same() -> None:
    diagnosis = diagnose_text("rank3.log", BROADCAST_DURING_VALIDATION)
    assert_reads(diagnosis, "hccl", first_error="launch timed out", rule=RULE)
    assert "device_fault" in alternative_labels(diagnosis)


def test_the_same_sentence_under_a_model_kernel_keeps_the_device_reading() -> None:
    diagnosis = diagnose_text("train.log", MODEL_KERNEL)
    assert diagnosis.category == "device_fault"
    assert RULE not in rules_of(diagnosis)
