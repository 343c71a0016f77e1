"""A tensor handed to an engine's communicator that is bound to another device.

Serving engines wrap NCCL (and HCCL on Ascend) in communicators of their own, bound to one
device, and assert that every tensor a collective gets lives there. A weight-transfer receive
buffer allocated on the host or on another device is refused before anything is sent: the
placement is the caller's (docs/labelling.md#a-ranks-device-placement). Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ROLLOUT = """\
INFO:     10.2.0.7:50412 - "POST /init_communicator/ HTTP/1.1" 200 OK
(Worker_TP0 pid=7310) ERROR 05-10 08:00:00 [worker.py:120] Traceback (most recent call last):
(Worker_TP0 pid=7310) ERROR 05-10 08:00:00 [worker.py:120]   File "/opt/rl/weight_sync.py", line 88, in update_flattened_params
(Worker_TP0 pid=7310) ERROR 05-10 08:00:00 [worker.py:120]     self._comm.broadcast(flat, src=self._src)
(Worker_TP0 pid=7310) ERROR 05-10 08:00:00 [worker.py:120] AssertionError: this hccl communicator is created to work on npu:0, but the input tensor is on cpu
"""


def test_a_tensor_on_another_device_than_the_communicator_is_the_placement() -> None:
    diagnosis = diagnose_text("rollout.log", ROLLOUT)
    assert_reads(
        diagnosis,
        "config",
        first_error="is created to work on npu:0",
        rule="cfg.communicator_tensor_device",
        beside=("hccl",),
    )


def test_the_nccl_wording_between_two_gpus_reads_the_same() -> None:
    text = "AssertionError: this nccl communicator is created to work on cuda:2, but the input tensor is on cuda:0\n"
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.category == "config"
    assert "cfg.communicator_tensor_device" in rules_of(diagnosis)


def test_a_line_that_names_the_communicators_device_is_no_failure() -> None:
    text = "INFO this nccl communicator is created on cuda:2 for the weight update group\n"
    diagnosis = diagnose_text("worker.log", text)
    assert "cfg.communicator_tensor_device" not in rules_of(diagnosis)
