"""Host memory the CUDA runtime would not pin, reported only as `invalid argument`.

Offloaded optimizer or parameter state and a DataLoader's pin-memory thread pin host memory
through the CUDA runtime; a host that will not lock that much answers with a bare `invalid
argument`, and only the `pin_memory` frame the error was raised in says which call it was
(docs/labelling.md#memory-shared-with-or-registered-for-another-process). The excerpts follow
the real shapes with paths and sizes of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

RULE = "env.host_pin_refused_invalid_argument"


OFFLOAD_PIN_REFUSED = """\
[2026-03-02 10:14:07,311] [INFO] [stage_1_and_2.py:151:__init__] CPU Offload: True
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/ft/train.py", line 211, in <module>
[rank2]:     engine, optimizer, _, _ = deepspeed.initialize(model=model, config=ds_cfg)
[rank2]:   File "/srv/ft/.venv/lib/python3.11/site-packages/deepspeed/runtime/zero/stage_1_and_2.py", line 421, in __init__
[rank2]:     self.single_partition_of_fp32_groups.append(get_accelerator().pin_memory(part))
[rank2]:   File "/srv/ft/.venv/lib/python3.11/site-packages/deepspeed/accelerator/cuda_accelerator.py", line 301, in pin_memory
[rank2]:     return tensor.pin_memory()
[rank2]: RuntimeError: CUDA error: invalid argument
[rank2]: CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
"""

LOADER_THREAD_PIN_REFUSED = """\
Traceback (most recent call last):
  File "/home/dev/seg/train.py", line 140, in <module>
    for images, masks in loader:
  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1372, in _process_data
    data.reraise()
RuntimeError: Caught RuntimeError in pin memory thread for device 1.
Original Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/_utils/pin_memory.py", line 37, in do_one_step
    data = pin_memory(data, device)
  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/_utils/pin_memory.py", line 58, in pin_memory
    return data.pin_memory(device)
RuntimeError: CUDA error: invalid argument
"""

ELSEWHERE = """\
Traceback (most recent call last):
  File "/srv/ft/train.py", line 88, in <module>
    out = model(batch)
  File "/srv/ft/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1751, in _call_impl
    return forward_call(*args, **kwargs)
  File "/srv/ft/.venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py", line 96, in _flash_attn_forward
    out, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(
RuntimeError: CUDA error: invalid argument
"""


def test_an_offload_pin_the_runtime_refused_is_the_host() -> None:
    diagnosis = diagnose_text("rank2.log", OFFLOAD_PIN_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="CUDA error: invalid argument", rule=RULE)
    assert {"oom", "config"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.8


def test_a_loader_pin_thread_refused_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", LOADER_THREAD_PIN_REFUSED)
    assert diagnosis.category == "driver_env"
    assert RULE in rules_of(diagnosis)


def test_invalid_argument_raised_elsewhere_keeps_the_bare_reading() -> None:
    diagnosis = diagnose_text("train.log", ELSEWHERE)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category != "driver_env"
