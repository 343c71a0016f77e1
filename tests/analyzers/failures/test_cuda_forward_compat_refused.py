"""CUDA's forward-compatibility refusal (804) is a driver that does not fit the runtime.

docs/labelling.md#config-driver_env-or-weight_load: a container whose CUDA is newer than the
host driver, carrying the forward-compatibility libraries that only data-centre GPUs accept,
gets `Error 804: forward compatibility was attempted on non supported HW` at its first device
query. It is read like a driver too old for the runtime: `driver_env`, with `config` beside it.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of

ENGINE_START = """\
INFO 02-14 09:10:03 cuda.py:230] Using Flash Attention backend.
ERROR 02-14 09:10:03 engine.py:389] Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW
ERROR 02-14 09:10:03 engine.py:389] Traceback (most recent call last):
ERROR 02-14 09:10:03 engine.py:389]   File "/usr/local/lib/python3.10/dist-packages/vllm/engine/multiprocessing/engine.py", line 380, in run_mp_engine
ERROR 02-14 09:10:03 engine.py:389]     engine = MQLLMEngine.from_engine_args(engine_args=engine_args,
"""


def test_the_804_answer_at_an_engine_start_is_the_hosts_driver() -> None:
    diagnosis = diagnose_text("serve/engine.log", ENGINE_START)
    assert diagnosis.category == "driver_env"
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "Error 804: forward compatibility was attempted" in diagnosis.first_error.text
    assert "env.cuda_driver_unusable" in rules_of(diagnosis)
    assert "config" in {a.category for a in diagnosis.alternatives}


COMPAT_LIBRARIES_ENABLED = """\
INFO: CUDA forward compatibility libraries found in /usr/local/cuda/compat, enabling them
INFO 02-14 09:10:03 cuda.py:230] Using Flash Attention backend.
"""


def test_a_notice_about_the_compat_libraries_is_no_refusal() -> None:
    diagnosis = diagnose_text("serve/engine.log", COMPAT_LIBRARIES_ENABLED)
    assert "env.cuda_driver_unusable" not in rules_of(diagnosis)
