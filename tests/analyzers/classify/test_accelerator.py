"""Reading the accelerator stack a job ran on from its bundle."""

from __future__ import annotations

import re

import pytest

from analyzers.classify.accelerator import accelerator_of, load_stacks, switches_for
from analyzers.core.types import Event, EventKind, FileInfo, FileKind, FileScan


def rank_log(*lines: str, env: dict | None = None) -> FileScan:
    events = [Event("log_0.log", i + 1, t, EventKind.ERROR, message=t) for i, t in enumerate(lines)]
    return FileScan(FileInfo("log_0.log", FileKind.RANK_LOG, 0), events, {"env": env or {}})


@pytest.mark.parametrize("stack", load_stacks(), ids=lambda s: s.name)
def test_the_line_patterns_keep_their_examples_and_counterexamples(stack):
    assert all(stack.lines.search(line) for line in stack.examples)
    assert not any(stack.lines.search(line) for line in stack.counterexamples)


def test_a_cuda_runtime_failure_alone_reads_as_cuda():
    scan = rank_log("RuntimeError: CUDA error: device-side assert triggered")
    assert accelerator_of([scan]) == "cuda"


def test_any_ascend_evidence_wins_over_cuda_words():
    """torch_npu patches torch.cuda and serving engines say "cuda graph" on NPUs."""
    scan = rank_log(
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "[W compiler_depend.ts:51] torch_npu: device npu:3 is busy",
    )
    assert accelerator_of([scan]) == "ascend"


def test_cann_log_files_and_env_dumps_tell_without_any_error_line():
    plog = FileScan(FileInfo("plog/plog-1_1.log", FileKind.PLOG, None))
    env = FileScan(FileInfo("env.txt", FileKind.ENV, None), [], {"env": {"NCCL_DEBUG": "INFO"}})
    assert accelerator_of([plog]) == "ascend"
    assert accelerator_of([env]) == "cuda"


def test_the_nccl_process_groups_watchdog_line_alone_reads_as_cuda():
    """Only a GPU job runs collectives in torch's NCCL process group; torch_npu's group
    prints the same watchdog sentence about a WorkHCCL record instead."""
    gpu = rank_log(
        "[E ProcessGroupNCCL.cpp:910] [Rank 1] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=5, OpType=ALLREDUCE, Timeout(ms)=300000) ran for 300120 milliseconds "
        "before timing out."
    )
    npu = rank_log(
        "[Rank 1] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=5, "
        "OpType=ALLREDUCE, Timeout(ms)=300000) ran for 300120 milliseconds before timing out."
    )
    assert accelerator_of([gpu]) == "cuda"
    assert accelerator_of([npu]) != "cuda"


def test_the_ascend_runtimes_own_device_error_records_alone_read_as_ascend():
    """A pasted device block often keeps only the runtime's records of the failed core, with
    no torch_npu wrapper or error-manager code around them."""
    core_record = rank_log(
        "       The error from device(chipId:6, dieId:0), serial number is 23, there is an aivec "
        "error exception, core id is 15, error code = 0x800000, dump info: pc start: 0x1248375879, "
        "para base: 0x124100433000.[FUNC:ProcessStarsCoreErrorInfo][FILE:device_error_proc.cc][LINE:1434]"
    )
    kernel_task = rank_log(
        "        Kernel task happen error, retCode=0x31, [vector core exception]."
        "[FUNC:PreCheckTaskErr][FILE:davinic_kernel_task.cc][LINE:1201] ",
        "        rtKernelLaunchWithHandleV2 failed: 507035 ",
        "[ERROR] 2026-07-15-09:43:29 (PID:27467, Device:2, RankID:-1) ERR01005 OPS internal error ",
    )
    assert accelerator_of([core_record]) == "ascend"
    assert accelerator_of([kernel_task]) == "ascend"


def test_an_import_that_misses_a_torch_npu_symbol_reads_as_ascend():
    """An extension built against another torch_npu release fails to load with an undefined
    symbol; its mangled name (torch_npu's c10_npu / at_npu namespaces) is the only Ascend
    word. torch's own missing symbol names no stack."""
    npu_ext = rank_log(
        "OSError: /opt/app/vendor/npu/fused_ext.so: undefined symbol: "
        "_ZN7c10_npu3acl18AclrtGetDeviceInfoEjPv"
    )
    torch_ext = rank_log(
        "OSError: /opt/app/vendor/cpu/fused_ext.so: undefined symbol: "
        "_ZN5torch8autograd12VariableInfoC1ERKN2at6TensorE"
    )
    assert accelerator_of([npu_ext]) == "ascend"
    assert accelerator_of([torch_ext]) is None


def test_a_gloo_job_on_cpus_tells_neither():
    scan = rank_log(
        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer"
    )
    assert accelerator_of([scan]) is None


def test_a_cuda_job_sees_the_cuda_twin_of_a_switch_and_no_ascend_only_ones():
    written = ["PYTORCH_NPU_ALLOC_CONF=expandable_segments:True", "ASCEND_LAUNCH_BLOCKING=1"]
    written += ["HCCL_BUFFSIZE=512", "TORCH_DISTRIBUTED_DEBUG=DETAIL"]
    assert switches_for("cuda", written) == [
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
        "CUDA_LAUNCH_BLOCKING=1",
        "TORCH_DISTRIBUTED_DEBUG=DETAIL",
    ]


def test_an_ascend_job_or_an_unknown_stack_keeps_the_switches_as_written():
    written = ["HCCL_CONNECT_TIMEOUT=600", "ASCEND_GLOBAL_LOG_LEVEL=1"]
    assert switches_for("ascend", written) == written
    assert switches_for(None, written) == written


def test_every_stack_pattern_starts_each_alternative_at_a_word() -> None:
    """The pattern is searched on every error and warning line; an alternative that opens with
    punctuation defeats the regex engine's quick skip and slows each search about tenfold."""
    for stack in load_stacks():
        branches = [b for b in re.split(r"\|(?![^()]*\))", stack.lines.pattern) if b]
        assert all(b.startswith(r"\b") for b in branches), stack.name


def test_a_cuda_header_or_the_cuda_runtimes_prefix_alone_reads_as_cuda():
    """C++ extensions' checks often name CUDA only this way: a `.cuh` place, `CUDART error:`,
    or a kernel library's capitalised `CUDA Error:`."""
    for line in (
        "Failed: /opt/build/csrc/custom_all_reduce.cuh:291 'invalid argument'",
        "RuntimeError: CUDART error: invalid resource handle",
        "CUDA Error: invalid argument (1) /opt/kernels/include/attn/decode.cuh: line 88",
    ):
        assert accelerator_of([rank_log(line)]) == "cuda", line


def test_a_cuda_source_file_in_a_build_warning_tells_no_stack():
    scan = rank_log("WARNING compiled 12 kernels from attention_kernels.cu in 4.1 s")
    assert accelerator_of([scan]) is None
