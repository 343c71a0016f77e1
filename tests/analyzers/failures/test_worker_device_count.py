"""A parallel layout that needs more devices than the process sees.

vLLM asserts before it starts its workers that the devices visible to the process cover one
node's share of the layout. The number it saw decides the label: none at all is the machine
(`driver_env`: nothing was mounted or made visible), some but too few is the job's settings
(`config`: a parallel size or visible-devices list that does not fit). Each is the other's
alternative. docs/labelling.md#workers-for-more-devices-than-the-process-sees
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

TRACE = """\
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708] EngineCore failed to start.
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708] Traceback (most recent call last):
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708]   File "/vllm-workspace/vllm/vllm/v1/executor/uniproc_executor.py", line 54, in _init_executor
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708]     self.driver_worker.init_device()
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708]   File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/worker.py", line 212, in init_device
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708]     assert self.parallel_config.local_world_size <= visible_device_count, (
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708] AssertionError: local_world_size ({want}) must be less than or equal to the number of visible devices ({seen}).
"""


def _alternatives(diagnosis) -> list[str]:
    return [alternative.category for alternative in diagnosis.alternatives]


def test_no_visible_device_at_all_is_the_machine() -> None:
    diagnosis = diagnose_text("engine.log", TRACE.format(want=8, seen=0))
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "number of visible devices (0)" in diagnosis.first_error.text
    assert "config" in _alternatives(diagnosis)


def test_too_few_visible_devices_for_the_layout_is_the_settings() -> None:
    diagnosis = diagnose_text("engine.log", TRACE.format(want=4, seen=2))
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "number of visible devices (2)" in diagnosis.first_error.text
    assert "driver_env" in _alternatives(diagnosis)
