"""Excerpts pasted from serving logs: colour codes that lost their escape byte, crash banners
and a supervisor's exit status.

The fixtures follow the shapes vLLM-on-Ascend prints (process-name prefixes, the engine's
start-up summary, a fault handler's banner) with values and wording of our own.
"""

from __future__ import annotations

import pytest

from analyzers.ingest.textio import clean_line
from tests.analyzers.excerpts import assert_reads, diagnose_text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"[1;36m(Worker_TP2 pid=811)[0;0m INFO ready", "(Worker_TP2 pid=811) INFO ready"),
        (b"[32mok[0m done", "ok done"),
        (b"retry in [5m] window", "retry in [5m] window"),
    ],
    ids=["vllm-prefix", "plain-reset", "no-reset-kept"],
)
def test_colour_codes_without_their_escape_byte_are_dropped(raw: bytes, expected: str) -> None:
    assert clean_line(raw) == expected


def test_a_colour_prefixed_engine_line_reads_like_a_plain_one() -> None:
    prefix = "[0;36m(EngineCore_DP0 pid=4410)[0;0m ERROR 05-11 14:02:09 [core.py:902] "
    text = (
        prefix
        + "Traceback (most recent call last):\n"
        + prefix
        + '  File "/opt/vllm/vllm/v1/worker/gpu_worker.py", line 233, in load_model\n'
        + prefix
        + "RuntimeError: NPU out of memory. Tried to allocate 1.50 GiB (NPU 2; 29.50 GiB total "
        "capacity; 28.90 GiB already allocated; 28.90 GiB current active; 0.31 GiB free; "
        "29.00 GiB reserved in total by PyTorch)\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert diagnosis.category == "oom"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("(EngineCore_DP0 pid=4410) ERROR")
    assert "[0;36m" not in diagnosis.first_error.text


def test_a_fault_handler_banner_is_the_crash_and_the_exit_status_confirms_it() -> None:
    text = (
        "(EngineCore pid=9021) INFO 02-03 11:40:12 [core.py:95] Initializing a V1 LLM engine\n"
        "\n"
        "!!!!!!! Segfault encountered !!!!!!!\n"
        "\n"
        "RuntimeError: Engine core initialization failed. See root cause above. "
        "Failed core proc(s): {'EngineCore': -11}\n"
        "[ERROR] 2026-02-03-11:40:20 (PID:9001, Device:-1, RankID:-1) ERR99999 UNKNOWN "
        "applicaiton exception\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert_reads(diagnosis, "device_fault", first_error="Segfault encountered")


def test_a_core_process_killed_by_a_signal_is_a_crash_not_a_summary() -> None:
    text = (
        "RuntimeError: Engine core initialization failed. See root cause above. "
        "Failed core proc(s): {'EngineCore_DP0': -9}\n"
    )
    assert diagnose_text("issue/serve.log", text).category == "device_fault"


def test_a_framework_refusing_the_chip_is_a_configuration_problem() -> None:
    worker = "(EngineCore_DP0 pid=702) ERROR 04-09 16:20:31 [multiproc_executor.py:700] "
    text = (
        worker
        + '  File "/opt/vllm_ascend/utils.py", line 610, in check_ascend_device_type\n'
        + worker
        + "RuntimeError: Can not support soc_version: 231.\n"
        + "(EngineCore_DP0 pid=702) ERROR 04-09 16:20:33 [core.py:66] EngineCore failed to start.\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert_reads(diagnosis, "config", first_error="Can not support soc_version: 231.")


# docs/labelling.md#wrappers: a block whose line breaks were lost in pasting is read line by
# line, so the device's reason is the first error rather than the whole pasted line.
FLATTENED_AICPU_FAILURE = (
    'Traceback (most recent call last): File "/srv/job/train.py", line 52, in <module> main() '
    'File "/opt/py/lib/python3.9/site-packages/torch/nn/init.py", line 155, in uniform_ return '
    "tensor.uniform_(a, b) RuntimeError: Run:/opt/build/torch_npu/csrc/framework/"
    "OpParamMaker.cpp:131 NPU error,NPU error code is:100000 EZ9999: Inner Error, Please "
    "contact support engineer! EZ9999 Kernel task happen error, retCode=0x2a, [aicpu "
    "exception].[FUNC:PreCheckTaskErr][FILE:task.cc][LINE:1071] TraceBack (most recent call "
    "last): Aicpu kernel execute failed, device_id=1, stream_id=2, task_id=7."
    "[FUNC:PrintAicpuErrorInfo][FILE:task.cc][LINE:780]\n"
)


def test_a_block_pasted_without_its_line_breaks_cites_the_device_reason() -> None:
    diagnosis = diagnose_text("issue.txt", FLATTENED_AICPU_FAILURE)
    assert diagnosis.category == "aicore_timeout"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("EZ9999 Kernel task happen error")
