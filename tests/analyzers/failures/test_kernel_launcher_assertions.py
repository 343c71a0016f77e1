"""A kernel launcher's own C assertion: the host code that starts a GPU kernel checks the
arguments it was handed and stops the process on glibc's assert.

docs/labelling.md#a-kernel-library-that-refuses-a-tensor-it-was-handed
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

# A MoE training rank whose token-unpermute launcher found no output buffer, a few steps in.
LAUNCHER_ASSERT = """\
 [2026-05-02 11:20:14] iteration        6/    2000 | consumed samples:         3072 | lm loss: 9.8713E+00
 [2026-05-02 11:20:19] iteration        7/    2000 | consumed samples:         3584 | lm loss: 9.7741E+00
python3: /opt/moe_kernels/csrc/token_shuffle/unpermute.cu:233: void unpermute_launcher(UnpermuteArgs) [with T = __nv_bfloat16; Prob = float]: Assertion `args.dst_ptr != nullptr' failed.
"""

# The same launcher check as an issue quotes it in Markdown inline code: straight quotes.
LAUNCHER_ASSERT_PASTED = """\
python: /workspace/grouped_gemm/csrc/launch.cuh:58: void launch_grouped_gemm(const GemmParams&) [with Tile = Tile128]: Assertion 'params.num_groups > 0' failed.
"""

# A device-side assertion in a kernel whose name also mentions launching: the device raised it.
DEVICE_SIDE = """\
[rank3]:/opt/kernels/csrc/route.cu:91: route_launch_kernel: block: [4,0,0], thread: [17,0,0] Assertion `slot < capacity` failed.
"""

# glibc's assert in native code that starts no kernel keeps the generic reading.
OTHER_NATIVE = """\
python3: /build/ringcomm/src/ring_buffer.cpp:212: void RingBuffer::push(size_t): Assertion `used + n <= capacity' failed.
"""


def test_a_launcher_assert_is_the_op_refusing_what_it_was_handed() -> None:
    diagnosis = diagnose_text("logs/rank14.log", LAUNCHER_ASSERT)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Assertion `args.dst_ptr != nullptr' failed",
        rule="op.kernel_launcher_assertion",
        beside=("config",),
    )


def test_a_launcher_assert_pasted_with_straight_quotes_reads_the_same() -> None:
    diagnosis = diagnose_text("logs/train.log", LAUNCHER_ASSERT_PASTED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Assertion 'params.num_groups > 0' failed",
        rule="op.kernel_launcher_assertion",
    )


def test_a_device_side_assert_in_a_launch_named_kernel_stays_the_devices() -> None:
    diagnosis = diagnose_text("logs/rank3.log", DEVICE_SIDE)
    assert diagnosis.category == "device_fault"
    assert "op.kernel_launcher_assertion" not in rules_of(diagnosis)


def test_an_assert_in_native_code_that_launches_nothing_keeps_the_generic_reading() -> None:
    diagnosis = diagnose_text("logs/rank5.log", OTHER_NATIVE)
    assert diagnosis.category == "other"
    assert "op.kernel_launcher_assertion" not in rules_of(diagnosis)
    assert "device_fault" in alternative_labels(diagnosis)
