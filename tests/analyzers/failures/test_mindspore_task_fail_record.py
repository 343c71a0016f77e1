"""MindSpore's runtime record of a device task that failed.

docs/labelling.md#a-data-loader-that-waits-past-its-timeout: `DumpTaskExceptionInfo] Task
fail infos ... retcode: 507011 ( model execute failed)` is the first error, ahead of the graph
run's tail and of an earlier warning of another kind. When a line names the data channel (the
GetNext node, the pipeline's slow-batch warning, the runtime's hint) it is a data loader past its
wait: `other` with `hang` beside it. A code that names a label decides; a record of another node
with 507011 is `other` with `operator` beside it and no `hang`. Values of our own in the shape
MindSpore prints.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

HEAD = (
    "[{level}] {module}(6120,fffd2a3fb1e0,python):2024-05-06-07:08:{sec} [mindspore/ccsrc/{src}] "
)

SLOW_PIPELINE = (
    HEAD.format(
        level="WARNING",
        module="MD",
        sec="09.100.200",
        src="minddata/dataset/engine/datasetops/data_queue_op.cc:832",
    )
    + "DetectPerBatchTime] Bad performance attention, it takes more than 25 seconds to fetch a batch of data from dataset pipeline, which might result `GetNext` timeout problem. You may test dataset processing performance(with creating dataset iterator) and optimize it.\n"
)


def record(code: str, meaning: str) -> str:
    return (
        HEAD.format(
            level="ERROR",
            module="DEVICE",
            sec="10.300.400",
            src="plugin/device/ascend/hal/device/ascend_kernel_runtime.cc:745",
        )
        + f"DumpTaskExceptionInfo] Task fail infos task_id: 4, stream_id: 23, tid: 6120, device_id: 2, retcode: {code} ( {meaning})\n"
    )


def node(name: str) -> str:
    return (
        HEAD.format(
            level="ERROR",
            module="DEVICE",
            sec="10.300.500",
            src="plugin/device/ascend/hal/device/ascend_kernel_runtime.cc:770",
        )
        + f"DumpTaskExceptionInfo] Dump node ({name}) task error input/output data to: ./rank_2/node_dump\n"
    )


TAIL = "RuntimeError: Run task for graph:kernel_graph_5 error! The details refer to 'Ascend Error Message'.\n"


def test_a_getnext_task_after_a_slow_pipeline_is_the_input_that_stopped() -> None:
    text = (
        SLOW_PIPELINE
        + record("507011", "model execute failed")
        + node("Default/GetNext-op3")
        + TAIL
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "other", first_error="Task fail infos", beside=("hang",))


def test_the_record_leads_the_graph_runs_tail() -> None:
    diagnosis = diagnose_text("train.log", record("507011", "model execute failed") + TAIL)
    assert diagnosis.first_error is not None
    assert "Task fail infos" in diagnosis.first_error.text


def test_another_node_with_a_code_that_names_nothing_is_no_stalled_input() -> None:
    text = record("507011", "model execute failed") + node("Default/network-Net/MatMul-op41") + TAIL
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "other"
    alternatives = {alt.category for alt in diagnosis.alternatives}
    assert "operator" in alternatives
    assert "hang" not in alternatives


def test_a_code_that_names_a_core_exception_decides() -> None:
    text = record("507015", "aicore exception") + node("Default/network-Net/MatMul-op41")
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "aicore_timeout"
