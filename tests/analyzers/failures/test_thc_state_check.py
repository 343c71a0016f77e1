"""torch's older CUDA set-up (THC) failing a runtime call on the installed build and card.

docs/labelling.md#a-cuda-state-check-of-an-older-torch-release: a generic runtime answer to a
check in `THCGeneral.cpp` (`invalid argument`, `unknown error`) says the build, the driver and
the card do not work together: `driver_env`, with `config` beside it. A bare `THCudaCheck FAIL`
line can be only a warning, so any later failure outranks it; the raised `cuda runtime error`
is the job's own failure. Fixtures in torch 1.0's real shapes, with paths and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of


def test_a_lone_thc_set_up_check_is_the_machine() -> None:
    text = (
        "THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1552201234567/work/aten/src/THC/"
        "THCGeneral.cpp line=383 error=11 : invalid argument\n"
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert_reads(
        diagnosis, "driver_env", first_error="error=11 : invalid argument", beside=("config",)
    )
    assert diagnosis.confidence < 0.8


RAISED = """\
THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=51 error=30 : unknown error
Traceback (most recent call last):
  File "tools/train_net.py", line 88, in <module>
    main()
  File "tools/train_net.py", line 52, in main
    model.to(torch.device("cuda"))
RuntimeError: cuda runtime error (30) : unknown error at /pytorch/aten/src/THC/THCGeneral.cpp:51
"""


def test_the_raised_thc_set_up_error_is_the_jobs_failure() -> None:
    diagnosis = diagnose_text("worker_0.log", RAISED)
    assert_reads(
        diagnosis, "driver_env", first_error="unknown error", rule="env.thc_state_call_raised"
    )


WARNED_THEN_OOM = """\
THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=405 error=11 : invalid argument
2019-03-02 10:14:07,512 - INFO - Epoch [1][50/7330]	lr: 0.00398, loss: 1.2214
Traceback (most recent call last):
  File "tools/train.py", line 95, in <module>
    main()
RuntimeError: CUDA out of memory. Tried to allocate 120.00 MiB (GPU 1; 10.73 GiB total capacity; 9.61 GiB already allocated; 56.56 MiB free; 378.45 MiB cached)
"""


def test_a_later_failure_outranks_the_warning_check() -> None:
    diagnosis = diagnose_text("stdout.log", WARNED_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


def test_a_kernel_files_invalid_argument_is_not_the_set_up() -> None:
    text = (
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/generic/THCTensorMath.cu line=26 "
        "error=11 : invalid argument\n"
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert not {"env.thc_state_check_failed", "env.thc_state_call_raised"} & rules_of(diagnosis)
