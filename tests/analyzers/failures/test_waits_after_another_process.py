"""A wait in a serving log whose writers are processes, not ranks.

docs/labelling.md#a-wait-printed-after-another-process-of-the-same-log-failed: vLLM's older
executor tags its workers' lines `(VllmWorkerProcess pid=N)` and leaves the driver's lines
untagged, so a log names processes but no ranks. A driver's HCCL wait printed well after a
worker's own failure is a cascade of it; printed together with it, or under the same tag, it
is not. Fixtures follow the vLLM v0 and torch_npu formats with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

WORKER = "(VllmWorkerProcess pid=40218) ERROR 03-05 {time} [multiproc_worker_utils.py:240] "
DRIVER = "ERROR 03-05 {time} [engine.py:460] "


def serving_log(worker_time: str, driver_time: str) -> str:
    """A worker dies unpickling an object a collective delivered; the driver later waits."""
    worker = WORKER.format(time=worker_time)
    driver = DRIVER.format(time=driver_time)
    return "".join(
        [
            worker + "Exception in worker VllmWorkerProcess while processing method load_model.\n",
            worker + "Traceback (most recent call last):\n",
            worker + '  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/'
            'distributed_c10d.py", line 2710, in _tensor_to_object\n',
            worker + "    return _unpickler(io.BytesIO(buf)).load()\n",
            worker + "_pickle.UnpicklingError: invalid load key, '\\x00'.\n",
            driver + "InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:290 OPS function "
            "error: HcclAllgather, error code is 6\n",
            driver + f"[ERROR] 2026-03-05-{driver_time} (PID:40177, Device:0, RankID:-1) "
            "ERR01100 OPS call acl api failed.\n",
            driver + f"EI0006: [PID: 40177] 2026-03-05-{driver_time}.204.511 Getting socket "
            "times out. Reason: Remote Rank did not send the data in time. Please check the "
            "reason for the rank being stuck\n",
        ]
    )


def test_a_driver_wait_after_a_worker_died_is_its_cascade() -> None:
    diagnosis = diagnose_text("serve/vllm.log", serving_log("10:21:10", "10:23:10"))
    assert_reads(diagnosis, "hccl", first_error="UnpicklingError")


def test_a_failure_printed_together_with_the_wait_does_not_demote_it() -> None:
    """Counterexample: within the clocks' tolerance the failure may be the wait's echo."""
    diagnosis = diagnose_text("serve/vllm.log", serving_log("10:23:10", "10:23:10"))
    assert diagnosis.first_error is not None
    assert "EI0006" in diagnosis.first_error.text


# Counterexample: one tag on both lines is one process; its earlier exception does not
# explain its own later wait.
ONE_PROCESS = """\
(TaskRunner pid=5120) ERROR 03-05 10:00:01 [trainer.py:88] ValueError: reward batch was empty
(TaskRunner pid=5120) ERROR 03-05 10:31:02 [trainer.py:88] EI0002: [PID: 5177] 2026-03-05-10:31:02.100.200 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank: [3].
"""


def test_lines_under_one_tag_are_one_process() -> None:
    diagnosis = diagnose_text("rl/driver.log", ONE_PROCESS)
    assert_reads(diagnosis, "hccl", first_error="EI0002")


# The unpickling failure alone: the object-collective frame above it names the layer.
ALONE = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 3104, in recv_object_list
    object_list[i] = _tensor_to_object(obj_view, obj_size, group)
  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2710, in _tensor_to_object
    return _unpickler(io.BytesIO(buf)).load()
_pickle.UnpicklingError: invalid load key, '\\x00'.
"""

# Counterexample: the same exception under torch.load is a file that does not unpickle.
FROM_A_FILE = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.10/site-packages/torch/serialization.py", line 1495, in _legacy_load
    magic_number = pickle_module.load(f, **pickle_load_args)
_pickle.UnpicklingError: invalid load key, '\\x00'.
"""


def test_an_object_collective_frame_makes_an_unpickling_error_hccl() -> None:
    diagnosis = diagnose_text("rank_1.log", ALONE)
    assert_reads(diagnosis, "hccl", first_error="UnpicklingError")


def test_an_unpickling_error_under_torch_load_is_not_a_collective() -> None:
    diagnosis = diagnose_text("rank_1.log", FROM_A_FILE)
    assert diagnosis.first_error is not None
    assert diagnosis.category != "hccl"
