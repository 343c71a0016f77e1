"""A parallel layout that needs more devices than the process sees.

vLLM asserts before it starts its workers that the devices visible to the process cover one
node's share of the layout. The number it saw decides the label: none at all is the machine
(`driver_env`: nothing was mounted or made visible), some but too few is the job's settings
(`config`: a parallel size or visible-devices list that does not fit). Each is the other's
alternative. docs/labelling.md#workers-for-more-devices-than-the-process-sees
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

TRACE = """\
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708] EngineCore failed to start.
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708] Traceback (most recent call last):
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708]   File "/vllm-workspace/vllm/vllm/v1/executor/uniproc_executor.py", line 54, in _init_executor
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708]     self.driver_worker.init_device()
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708]   File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/worker.py", line 212, in init_device
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708]     assert self.parallel_config.local_world_size <= visible_device_count, (
(EngineCore_DP0 pid=3120) ERROR 08-21 09:14:55 [core.py:708] AssertionError: local_world_size ({want}) must be less than or equal to the number of visible devices ({seen}).
"""


def test_no_visible_device_at_all_is_the_machine() -> None:
    diagnosis = diagnose_text("engine.log", TRACE.format(want=8, seen=0))
    assert_reads(
        diagnosis, "driver_env", first_error="number of visible devices (0)", beside=("config",)
    )


def test_too_few_visible_devices_for_the_layout_is_the_settings() -> None:
    diagnosis = diagnose_text("engine.log", TRACE.format(want=4, seen=2))
    assert_reads(
        diagnosis, "config", first_error="number of visible devices (2)", beside=("driver_env",)
    )


# A data-parallel launcher hands each engine on a node its slice of the visible devices (local
# DP rank x world size, as wide as the world size) and refuses when the slice runs past the
# list; it raises from the IndexError of the lookup, so Python prints that first. The refusal
# names the variable, the slice and the list: the layout asks more of the node than it was
# given, as above, `config` with the machine beside it, and the refusal is the first error.
# Newer releases say "computing device indices for" where older ones say "setting".
DP_SLICE = """\
(EngineCore_DP2 pid=6410) Process EngineCore_DP2:
(EngineCore_DP2 pid=6410) Traceback (most recent call last):
(EngineCore_DP2 pid=6410)   File "/opt/vllm/vllm/v1/engine/utils.py", line 152, in get_device_indices
(EngineCore_DP2 pid=6410)     str(current_platform.device_id_to_physical_device_id(i))
(EngineCore_DP2 pid=6410)   File "/opt/vllm/vllm/platforms/interface.py", line 190, in device_id_to_physical_device_id
(EngineCore_DP2 pid=6410)     physical_device_id = device_ids[device_id]
(EngineCore_DP2 pid=6410) IndexError: list index out of range
(EngineCore_DP2 pid=6410)
(EngineCore_DP2 pid=6410) The above exception was the direct cause of the following exception:
(EngineCore_DP2 pid=6410)
(EngineCore_DP2 pid=6410) Traceback (most recent call last):
(EngineCore_DP2 pid=6410)   File "/opt/vllm/vllm/v1/engine/utils.py", line 161, in __init__
(EngineCore_DP2 pid=6410)     with set_device_control_env_var(vllm_config, local_dp_rank):
{refusal}"""


def _slice_refusal(cls: str, verb: str, var: str, start: int, stop: int, base: str) -> str:
    return (
        f"(EngineCore_DP2 pid=6410) {cls}: Error {verb} {var}: "
        f'local range: [{start}, {stop}) base value: "{base}"\n'
    )


def test_a_data_parallel_slice_beyond_the_visible_devices_is_the_settings() -> None:
    refusal = _slice_refusal(
        "Exception", "setting", "ASCEND_RT_VISIBLE_DEVICES", 8, 12, "0,1,2,3,4,5,6,7"
    )
    diagnosis = diagnose_text("engine.log", DP_SLICE.format(refusal=refusal))
    assert_reads(diagnosis, "config", first_error="local range: [8, 12)", beside=("driver_env",))


def test_the_newer_wording_of_the_slice_refusal_reads_the_same() -> None:
    refusal = _slice_refusal(
        "ValueError", "computing device indices for", "CUDA_VISIBLE_DEVICES", 4, 8, "0,1,2,3"
    )
    diagnosis = diagnose_text("engine.log", DP_SLICE.format(refusal=refusal))
    assert_reads(diagnosis, "config", first_error="local range: [4, 8)")


def test_the_lookup_error_without_the_refusal_is_not_read_as_a_slice() -> None:
    # the same IndexError re-raised as something else names no slice and no device list
    refusal = "(EngineCore_DP2 pid=6410) RuntimeError: Engine core initialization failed.\n"
    diagnosis = diagnose_text("engine.log", DP_SLICE.format(refusal=refusal))
    assert diagnosis.category != "config", diagnosis.root_cause
    assert "device slice" not in diagnosis.root_cause
