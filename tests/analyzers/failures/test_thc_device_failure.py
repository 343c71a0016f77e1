"""The THC layer's words for a failed device (torch releases before 1.5).

Older torch reports CUDA runtime answers as `THCudaCheck FAIL file=... line=N error=30 :
unknown error` and `cuda runtime error (30) : unknown error at ...`, often at the first call
that touches the device. They are the same device failures as today's `CUDA error: unknown
error` (signature dev.cuda_device_failure), except where the THC state itself was being set
up (`THCGeneral.c`/`.cpp`): that is the machine not starting CUDA, read by the set-up rule.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

THC_UNKNOWN = """\
THCudaCheck FAIL file=/pytorch/aten/src/THC/generic/THCTensorCopy.cpp line=20 error=30 : unknown error
Traceback (most recent call last):
  File "/home/asr/recipes/bin/asr_train.py", line 203, in <module>
    main()
  File "/home/asr/recipes/asr/asr_pytorch.py", line 176, in train
    model.cuda()
  File "/usr/lib/python2.7/site-packages/torch/nn/modules/module.py", line 146, in _apply
    module._apply(fn)
"""


def test_a_thc_unknown_error_is_a_device_failure() -> None:
    diagnosis = diagnose_text("train.log", THC_UNKNOWN)
    assert_reads(diagnosis, "device_fault", first_error="error=30 : unknown error")


def test_the_same_answer_while_the_thc_state_is_set_up_is_the_machines() -> None:
    set_up = THC_UNKNOWN.replace(
        "/pytorch/aten/src/THC/generic/THCTensorCopy.cpp line=20",
        "/pytorch/torch/lib/THC/THCGeneral.c line=70",
    )
    diagnosis = diagnose_text("train.log", set_up)
    assert_reads(diagnosis, "driver_env", first_error="error=30 : unknown error")


def test_a_thc_runtime_error_line_is_a_device_failure() -> None:
    text = (
        "RuntimeError: cuda runtime error (4) : unspecified launch failure at "
        "/pytorch/aten/src/THC/THCCachingHostAllocator.cpp:265\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "device_fault"


def test_a_thc_out_of_memory_is_not_a_device_failure() -> None:
    text = (
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCCachingAllocator.cpp line=510 "
        "error=2 : out of memory\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category != "device_fault"
