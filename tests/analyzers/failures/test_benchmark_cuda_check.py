"""A collective benchmark's own CUDA check that the runtime refused with a generic answer.

docs/labelling.md#a-benchmarks-own-cuda-call-that-the-runtime-refuses: nccl-tests and
rccl-tests check the runtime calls they make themselves (buffers, copies, their own kernels)
and stop with `<host>: Test CUDA failure <file>:<line> '<answer>'`. An answer that names no
input of the run (`invalid argument`, `invalid device function`, too many resources for a
launch) says the benchmark's build does not fit the card or the driver: `config`, with
`driver_env` and `hccl` beside it. Answers with a reading of their own keep it. Values of our
own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

REFUSED = """\
# nThread 1 nGpus 2 minBytes 1048576 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid  71220 on    ws-2 device  0 [0x01] NVIDIA GeForce RTX 5080
#  Rank  1 Group  0 Pid  71220 on    ws-2 device  1 [0x41] NVIDIA GeForce RTX 5080
#
ws-2: Test CUDA failure sendrecv.cu:61 'invalid argument'
 .. ws-2 pid 71220: Test failure common.cu:377
 .. ws-2 pid 71220: Test failure common.cu:890
"""


def test_a_benchmarks_own_cuda_call_refused_reads_the_build() -> None:
    diagnosis = diagnose_text("bench/ws-2.log", REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Test CUDA failure sendrecv.cu:61 'invalid argument'",
        rule="cfg.bench_cuda_call_refused",
        beside=["driver_env"],
    )


HIP_FUNCTION = """\
# Using devices
#  Rank  0 Group  0 Pid   3301 on  mi-ws device  0 [0000:03:00] AMD Radeon PRO W7900
mi-ws: Test HIP failure /opt/rccl-tests/src/common.cu.cpp:688 'invalid device function'
 .. mi-ws pid 3301: Test failure /opt/rccl-tests/src/common.cu.cpp:1090
"""


def test_the_hip_spelling_reads_the_same() -> None:
    diagnosis = diagnose_text("bench/mi-ws.log", HIP_FUNCTION)
    assert_reads(
        diagnosis,
        "config",
        first_error="'invalid device function'",
        rule="cfg.bench_cuda_call_refused",
    )


def test_an_ordinal_keeps_the_placement_reading() -> None:
    text = "gpu-b7: Test CUDA failure common.cu:1032 'invalid device ordinal'\n"
    diagnosis = diagnose_text("bench/gpu-b7.log", text)
    assert "cfg.bench_cuda_call_refused" not in rules_of(diagnosis)
    assert_reads(
        diagnosis,
        "config",
        first_error="'invalid device ordinal'",
        rule="cfg.rank_device_placement",
    )


def test_out_of_memory_in_the_benchmark_is_not_this_rule() -> None:
    text = "gpu-b7: Test CUDA failure common.cu:1032 'out of memory'\n"
    diagnosis = diagnose_text("bench/gpu-b7.log", text)
    assert "cfg.bench_cuda_call_refused" not in rules_of(diagnosis)
