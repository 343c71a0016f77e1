"""Horovod's coordinator refusing a collective, its collective thread failing, or shutting down.

docs/labelling.md#a-collective-horovod-refused-or-shut-down: a request the ranks disagree on is
refused by the coordinator (`hccl`, `config` beside it); an exception in the thread that runs the
collectives is the rank's own failure (`hccl`, `operator` and `device_fault` beside it); the
shutdown notice is a consequence that an earlier error outranks.
docs/labelling.md#ranks-that-horovod-saw-submit-only-part-of-a-step: the stalled-tensor list
pasted without its warning reads as the warning does. Paths, ranks and tensor names are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

MISMATCHED_DTYPE = """\
[1,0]<stdout>:epoch 1 step 40 loss 2.311
[1,2]<stderr>:Traceback (most recent call last):
[1,2]<stderr>:  File "fit.py", line 88, in <module>
[1,2]<stderr>:    hvd.allreduce(metric, name="val_acc")
[1,2]<stderr>:RuntimeError: Mismatched data types: One rank had type float64, but another rank had type float32.
"""

NCCL_ARGUMENT_CHECK = """\
node-3:2201:2201 [1] init.cc:1247 NCCL WARN Mismatched collective detected, please check your collective calls at and around rank 5.
"""

BACKGROUND_THREAD = """\
[1,0]<stdout>:batch 120 of 300
[1,3]<stderr>:[2025-01-09 03:12:44.551201: E /build/horovod/common/operations.cc:700] [3]: Horovod background loop uncaught exception: CUDA error: too many resources requested for launch
[1,3]<stderr>:Horovod has been shut down. This was caused by an exception on one of the ranks or an attempt to allreduce, allgather or broadcast a tensor after one of the ranks finished execution.
"""

SHUTDOWN_ALONE = """\
[1,1]<stderr>:  File "/srv/venv/lib/python3.10/site-packages/horovod/torch/mpi_ops.py", line 210, in synchronize
[1,1]<stderr>:    mpi_lib.horovod_torch_wait_and_clear(handle)
[1,1]<stderr>:horovod.common.exceptions.HorovodInternalError: Horovod has been shut down. This was caused by an exception on one of the ranks or an attempt to allreduce, allgather or broadcast a tensor after one of the ranks finished execution.
"""

SHUTDOWN_AFTER_ERROR = (
    """\
[1,0]<stderr>:Traceback (most recent call last):
[1,0]<stderr>:  File "fit.py", line 61, in <module>
[1,0]<stderr>:    batch = next(loader)
[1,0]<stderr>:FileNotFoundError: [Errno 2] No such file or directory: '/data/shard-0007.tfrecord'
"""
    + SHUTDOWN_ALONE
)

STALLED_LIST = """\
allreduce.encoder.layer3.weight [missing ranks: 2]
allreduce.encoder.layer3.bias [missing ranks: 2]
"""

STATUS_LINE = """\
run summary: workers started 4, missing ranks: [] , all finished
"""


def test_a_request_the_ranks_disagree_on_is_the_collective_layer_refusing_it() -> None:
    diagnosis = diagnose_text("train.log", MISMATCHED_DTYPE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Mismatched data types",
        rule="hccl.horovod_mismatched_request",
        beside=("config",),
    )


def test_nccl_s_own_argument_check_is_not_horovod_s_refusal() -> None:
    diagnosis = diagnose_text("train.log", NCCL_ARGUMENT_CHECK)
    assert "hccl.horovod_mismatched_request" not in rules_of(diagnosis)


def test_an_exception_in_the_collective_thread_comes_before_the_shutdown_it_causes() -> None:
    diagnosis = diagnose_text("train.log", BACKGROUND_THREAD)
    assert_reads(diagnosis, "hccl", first_error="background loop uncaught exception")
    alternatives = {alt.category for alt in diagnosis.alternatives}
    assert alternatives & {"operator", "device_fault"}


def test_a_device_fault_named_after_the_colon_keeps_its_own_label() -> None:
    text = BACKGROUND_THREAD.replace(
        "too many resources requested for launch", "an illegal memory access was encountered"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "device_fault", first_error="background loop uncaught exception")


def test_the_shutdown_notice_alone_is_the_first_error() -> None:
    diagnosis = diagnose_text("train.log", SHUTDOWN_ALONE)
    assert_reads(diagnosis, "hccl", first_error="Horovod has been shut down")


def test_an_error_printed_before_the_shutdown_notice_wins() -> None:
    diagnosis = diagnose_text("train.log", SHUTDOWN_AFTER_ERROR)
    assert "hccl.horovod_shut_down" in rules_of(diagnosis)
    assert "FileNotFoundError" in diagnosis.first_error.text


def test_the_stalled_tensor_list_alone_reads_as_the_stall_warning() -> None:
    diagnosis = diagnose_text("train.log", STALLED_LIST)
    assert_reads(
        diagnosis, "hang", first_error="[missing ranks: 2]", rule="hang.horovod_stalled_ops"
    )


def test_missing_ranks_in_another_sentence_is_no_stall() -> None:
    diagnosis = diagnose_text("train.log", STATUS_LINE)
    assert "hang.horovod_stalled_ops" not in rules_of(diagnosis)
