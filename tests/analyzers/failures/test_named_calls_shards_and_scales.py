"""Three wordings from multi-GPU speech, recommendation and science training jobs.

Horovod names the NCCL call that failed instead of torch's `NCCL error in:` form
(docs/labelling.md#nccl-failures-named-by-the-call). A sharded embedding table whose local
shard sits on another GPU than the plan placed it on is the rank's device placement
(docs/labelling.md#a-ranks-device-placement). A trainer that warns about its collapsing fp16
grad scale and then stops is a numerical failure, first seen at the warning
(docs/labelling.md#numbers-that-went-non-finite,
docs/labelling.md#a-failure-warned-about-before-it-was-raised).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

HOROVOD_INIT = """\
[0] MDKIT rank:0  INFO    broadcast global variables to other tasks
[1] MDKIT rank:1  INFO    receive global variables from task#0
[1] Traceback (most recent call last):
[1]   File "/opt/env/lib/python3.10/site-packages/tensorflow/python/client/session.py", line 1377, in _do_call
[1]     return fn(*args)
[1] tensorflow.python.framework.errors_impl.UnknownError: ncclCommInitRank failed: unhandled system error
[1] \t [[{{node HorovodBroadcast_embed_0_weight_0}}]]
"""

HOROVOD_RETRY_NOTE = """\
[1,0]<stdout>:ncclCommInitRank failed: retrying after the first attempt timed out (attempt 1 of 3)
[1,0]<stdout>:epoch 1 step 20 loss 0.412
"""

SHARD_ON_OTHER_DEVICE = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/rec/train.py", line 88, in <module>
[rank3]:     model = DistributedModelParallel(module=net, device=torch.device(f"cuda:{local_rank}"))
[rank3]:   File "/opt/env/lib/python3.11/site-packages/torchrec/distributed/model_parallel.py", line 380, in _shard_modules_impl
[rank3]:     module = self._sharder_map[sharder_key].shard(
[rank3]: ValueError: Local shard tensor device does not match with local Shard's placement! Found local shard tensor device: cuda:1, local shard metadata placement device: cuda:3
"""

SHARD_OF_OTHER_SIZE = SHARD_ON_OTHER_DEVICE.replace(
    "Local shard tensor device does not match with local Shard's placement! Found local shard "
    "tensor device: cuda:1, local shard metadata placement device: cuda:3",
    "Local shard tensor size does not match with local Shard metadata!",
)

SCALE_WARNED_THEN_RAISED = """\
2025-03-02 04:11:09,301 INFO [train.py:1090] (1/8) Epoch 5, batch 1200, loss[loss=0.2210], tot_loss[loss=0.2301], lr: 2.1e-02, grad_scale: 0.5
2025-03-02 04:11:31,877 WARNING [train.py:1112] (1/8) Grad scale is small: 6.103515625e-05
2025-03-02 04:11:31,878 INFO [checkpoint.py:75] (1/8) Saving checkpoint to exp/bad-model-1.pt
Traceback (most recent call last):
  File "/srv/asr/train.py", line 1330, in train_one_epoch
    raise RuntimeError(
RuntimeError: grad_scale is too small, exiting: 7.62939453125e-06
"""

OTHER_WARNING_THEN_RAISED = """\
2025-03-02 04:11:31,877 WARNING [dataset.py:51] (1/8) Slow data loading: 2.4 s for one batch
Traceback (most recent call last):
  File "/srv/asr/train.py", line 1330, in train_one_epoch
    raise RuntimeError(
RuntimeError: grad_scale is too small, exiting: 7.62939453125e-06
"""


def test_an_nccl_call_named_by_horovod_is_the_collective_layer() -> None:
    diagnosis = diagnose_text("worker.log", HOROVOD_INIT)
    assert_reads(diagnosis, "hccl", first_error="ncclCommInitRank failed: unhandled system error")


def test_a_retry_note_naming_the_call_is_no_failure() -> None:
    diagnosis = diagnose_text("worker.log", HOROVOD_RETRY_NOTE)
    assert diagnosis.category != "hccl"


def test_a_shard_on_another_gpu_than_planned_is_the_placement() -> None:
    diagnosis = diagnose_text("rank3.log", SHARD_ON_OTHER_DEVICE)
    assert_reads(
        diagnosis,
        "config",
        first_error="Local shard tensor device does not match",
        beside=("other",),
    )


def test_a_shard_of_another_size_is_not_read_as_the_placement() -> None:
    diagnosis = diagnose_text("rank3.log", SHARD_OF_OTHER_SIZE)
    assert diagnosis.category != "config"


def test_a_grad_scale_warned_about_and_then_raised_starts_at_the_warning() -> None:
    diagnosis = diagnose_text("train.log", SCALE_WARNED_THEN_RAISED)
    assert_reads(diagnosis, "other", first_error="Grad scale is small")


def test_a_warning_of_another_kind_does_not_take_the_exceptions_place() -> None:
    diagnosis = diagnose_text("train.log", OTHER_WARNING_THEN_RAISED)
    assert_reads(diagnosis, "other", first_error="grad_scale is too small")
