"""Numbers that went non-finite, in layouts the first rules did not know.

docs/labelling.md#numbers-that-went-non-finite: an older Megatron-style logger writes its
fields without colons (`lm loss NAN | loss scale 4.0 |`); an RL trainer's worker warns that
`grad_norm is not finite: nan` and skips the update; DeepSpeed's fused fp16 optimizer words the
collapse of its scale as `Reducing dynamic loss scale from 1 to 1`. Torch's sampler check on a
CUDA device is a kernel assertion, but its condition says the probabilities were non-finite,
so the numbers are the failure and not the device.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# An older fp16 fine-tuning logger: no colons, the third interval's loss is NaN.
COLONLESS_NAN = """\
 iteration      100/    2000 | elapsed time per iteration (ms): 9321.4 | learning rate 2.100E-06 | lm loss 7.112004E+00 | loss scale 128.0 |
 iteration      200/    2000 | elapsed time per iteration (ms): 9288.0 | learning rate 4.200E-06 | lm loss 6.530117E+00 | loss scale 16.0 |
 iteration      300/    2000 | elapsed time per iteration (ms): 9402.9 | learning rate 6.300E-06 | lm loss NAN | loss scale 8.0 |
 iteration      400/    2000 | elapsed time per iteration (ms): 9317.5 | learning rate 8.400E-06 | lm loss 5.902233E+00 | loss scale 0.5 |
"""

# Counterexample: the same logger with finite numbers throughout.
COLONLESS_FINITE = "\n".join(COLONLESS_NAN.splitlines()[:2]) + "\n"

# An RL trainer's critic workers on two nodes skip updates whose norm is not finite.
WORKER_NORM_WARN = """\
(WorkerDict pid=40211) step 12 critic/vf_loss: 0.4410
(WorkerDict pid=40211) WARN: grad_norm is not finite: nan
(WorkerDict pid=40217) WARN: grad_norm is not finite: nan
(WorkerDict pid=40219) WARN: grad_norm is not finite: inf
"""

# Counterexample: a worker that reports its finite norm.
WORKER_NORM_OK = """\
(WorkerDict pid=40211) step 12 critic/vf_loss: 0.4410
(WorkerDict pid=40211) INFO: grad_norm is finite: 0.8127
"""

# DeepSpeed's fused fp16 optimizer: the scale reaches 1 and keeps overflowing there.
FUSED_AT_ONE = """\
[2026-03-04 11:20:01,331] [INFO] [fused_optimizer.py:316:_update_scale] Reducing dynamic loss scale from 4.0 to 2.0
[2026-03-04 11:20:09,872] [INFO] [fused_optimizer.py:316:_update_scale] Reducing dynamic loss scale from 2.0 to 1.0
[2026-03-04 11:20:18,404] [INFO] [timer.py:166:stop] 0/540, SamplesPerSec=31.20
[2026-03-04 11:20:26,918] [INFO] [fused_optimizer.py:316:_update_scale] Reducing dynamic loss scale from 1.0 to 1.0
[2026-03-04 11:20:26,919] [INFO] [logging.py:60:log_dist] [Rank 0] Overflow detected. Skipping step. Attempted loss scale: 1.0, reducing to 1.0
"""

# Counterexample: halving down to 1 is routine.
FUSED_TO_ONE = "\n".join(FUSED_AT_ONE.splitlines()[:3]) + "\n"

# A policy's sampler on a CUDA rank meets NaN probabilities: torch's check is a kernel assert.
SAMPLER_KERNEL_ASSERT = """\
Rollout:  12%|█▏        | 31/256 [04:11<30:25,  8.11s/it]/opt/pytorch/aten/src/ATen/native/cuda/TensorCompare.cu:110: _assert_async_cuda_kernel: block: [0,0,0], thread: [0,0,0] Assertion `probability tensor contains either `inf`, `nan` or element < 0` failed.
[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/rl/train.py", line 88, in <module>
[rank3]:     main()
"""

# Counterexample: an index assertion in a kernel stays the device's fault.
INDEX_KERNEL_ASSERT = """\
/opt/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1290: indexSelectLargeIndex: block: [12,0,0], thread: [3,0,0] Assertion `srcIndex < srcSelectDimSize` failed.
[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/rl/train.py", line 88, in <module>
[rank3]:     main()
"""


def test_a_colonless_nan_field_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/train.log", COLONLESS_NAN)
    assert_reads(
        diagnosis, "other", first_error="iteration      300/", rule="num.iteration_line_nonfinite"
    )


def test_colonless_finite_fields_are_no_error() -> None:
    assert diagnose_text("logs/train.log", COLONLESS_FINITE).first_error is None


def test_a_worker_warning_of_a_non_finite_norm_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/console.log", WORKER_NORM_WARN)
    assert_reads(diagnosis, "other", first_error="grad_norm is not finite: nan")


def test_a_finite_norm_report_is_no_error() -> None:
    assert diagnose_text("logs/console.log", WORKER_NORM_OK).first_error is None


def test_the_fused_optimizer_stuck_at_one_is_the_collapse() -> None:
    diagnosis = diagnose_text("logs/train.log", FUSED_AT_ONE)
    assert_reads(diagnosis, "other", first_error="Reducing dynamic loss scale from 1.0 to 1.0")


def test_halving_down_to_one_is_no_error() -> None:
    assert diagnose_text("logs/train.log", FUSED_TO_ONE).first_error is None


def test_a_sampler_kernel_assert_is_the_numbers() -> None:
    diagnosis = diagnose_text("logs/train.log", SAMPLER_KERNEL_ASSERT)
    assert_reads(diagnosis, "other", first_error="probability tensor contains either")


def test_an_index_kernel_assert_stays_the_device() -> None:
    diagnosis = diagnose_text("logs/train.log", INDEX_KERNEL_ASSERT)
    assert_reads(diagnosis, "device_fault", first_error="srcIndex < srcSelectDimSize")
