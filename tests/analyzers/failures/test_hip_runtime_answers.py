"""HIP's answers in the words a ROCm torch build prints, and a sampler generator on the host.

- `HIP error: no ROCm-capable device is detected` (and the status name `hipErrorNoDevice`) is
  HIP's sentence for what CUDA calls `no CUDA-capable device is detected`: the process sees no
  device (a container or vGPU plugin that passed none in), `driver_env`.
  docs/labelling.md#config-driver_env-or-weight_load
- Older ROCm builds print the HIP status by its enum name (`HIP error: hipErrorLaunchFailure`)
  where CUDA builds print the sentence (`unspecified launch failure`); either is a launch the
  device failed, `device_fault`, with the machine's set-up beside it.
- torch refusing a sampler generator made on the CPU for a job on an accelerator (`Expected a
  'musa' device type for generator but found 'cpu'`) is a framework path written for CUDA
  that leaves the generator behind: `config`, like a tensor left on the CPU.
  docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job

Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

NO_ROCM_DEVICE = """\
Could not open /var/log/hylog/.
terminate called after throwing an instance of 'c10::Error'
  what():  HIP error: no ROCm-capable device is detected
HIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing AMD_SERIALIZE_KERNEL=3
Exception raised from c10_hip_check_implementation at /src/pytorch/c10/hip/HIPException.cpp:45 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x99 (0x7f21aa1c56e9 in /opt/venv/lib/python3.10/site-packages/torch/lib/libc10.so)
"""


def test_no_rocm_capable_device_is_a_device_the_process_cannot_see() -> None:
    assert_reads(
        diagnose_text("worker/stderr.log", NO_ROCM_DEVICE),
        "driver_env",
        first_error="no ROCm-capable device is detected",
        rule="env.cuda_driver_unusable",
    )


def test_the_hip_no_device_status_name_is_read_alike() -> None:
    text = (
        'Traceback (most recent call last):\n  File "fit.py", line 12, in <module>\n'
        "    learner.fit(3)\nRuntimeError: HIP error: hipErrorNoDevice\n"
    )
    assert_reads(
        diagnose_text("fit.log", text),
        "driver_env",
        first_error="hipErrorNoDevice",
        rule="env.cuda_driver_unusable",
    )


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: HIP error: hipErrorLaunchFailure",
        "[rank3]: RuntimeError: HIP error: unspecified launch failure",
        "torch.AcceleratorError: HIP error: hipErrorIllegalInstruction",
    ],
)
def test_a_launch_failure_in_hips_words_is_a_device_fault(line: str) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "probe.py", line 5, in <module>\n'
        "    a = torch.randn(100, device=device)\n" + line + "\n"
    )
    assert_reads(
        diagnose_text("probe.log", text),
        "device_fault",
        first_error=line.split(": ", 1)[1][:30],
        rule="dev.cuda_device_failure",
    )


def test_a_hip_warning_or_a_status_in_a_note_is_no_device_fault() -> None:
    text = (
        "note: search for hipErrorLaunchFailure in the HIP docs for more information\n"
        "step 12 loss 2.31\n"
        "training finished\n"
    )
    assert diagnose_text("note.log", text).category != "device_fault"


GENERATOR_ON_CPU = """\
  0%|          | 0/375 [00:00<?, ?it/s]Traceback (most recent call last):
  File "/work/tune_phi.py", line 48, in <module>
    trainer.train()
  File "/opt/venv/lib/python3.9/site-packages/torch/utils/data/sampler.py", line 132, in __iter__
    yield from torch.randperm(n, generator=generator).tolist()
RuntimeError: Expected a 'musa' device type for generator but found 'cpu'
"""


def test_a_generator_left_on_the_cpu_is_a_framework_path_for_cuda_only() -> None:
    assert_reads(
        diagnose_text("tune.log", GENERATOR_ON_CPU),
        "config",
        first_error="device type for generator but found 'cpu'",
        rule="cfg.generator_device_mismatch",
        beside=["operator"],
    )
