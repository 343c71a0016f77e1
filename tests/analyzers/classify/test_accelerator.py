"""Reading the accelerator stack a job ran on from its bundle."""

from __future__ import annotations

import re

import pytest

from analyzers.classify.accelerator import accelerator_of, load_stacks, switches_for
from analyzers.core.types import Event, EventKind, FileInfo, FileKind, FileScan
from analyzers.formats.start_lines import START_LINES


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


def test_a_missing_ascend_runtime_library_reads_as_ascend():
    """A loader that cannot find one of CANN's or torch_npu's own shared libraries (the
    transformer boost `libatb.so`, `libascendcl.so`, `libhccl.so`) names the stack by the
    library alone; a missing CUDA or system library names none of Ascend's."""
    atb = rank_log("OSError: libatb.so: cannot open shared object file: No such file or directory")
    acl = rank_log(
        "ImportError: libascendcl.so: cannot open shared object file: No such file or directory"
    )
    cudart = rank_log("OSError: libcudart.so.12: cannot open shared object file")
    assert accelerator_of([atb]) == "ascend"
    assert accelerator_of([acl]) == "ascend"
    assert accelerator_of([cudart]) != "ascend"


GLOO_PEER_LOST = (
    "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553]"
    " Connection closed by peer [127.0.0.1]:63178. This is typically caused by a remote worker"
    " crashing."
)


def started(*folded: str, env: dict | None = None) -> FileScan:
    """A rank's log whose start lines the scan kept (folded: lower case, digits as 0)."""
    starts = [(i + 1, 0, text) for i, text in enumerate(folded)]
    facts = {START_LINES: starts, "env": env or {}}
    return FileScan(FileInfo("log_0.log", FileKind.RANK_LOG, 0), [], facts)


def test_a_gloo_job_that_names_no_accelerator_reads_as_cpu():
    monitored = rank_log(
        "[rank0]:[E1129 07:24:27.616993348 ProcessGroupGloo.cpp:2901] [Rank 0]: Rank 2 failed to "
        "pass monitoredBarrier in 5000 ms"
    )
    assert accelerator_of([rank_log(GLOO_PEER_LOST)]) == "cpu"
    assert accelerator_of([monitored]) == "cpu"


def test_a_gloo_backend_stated_at_start_or_in_the_env_dump_reads_as_cpu():
    """A job that failed outside the process group still said which backend it set up."""
    start = started(
        "0-0-0 0:0:0,0 [rank0] info init process group: backend=gloo rank=0 world_size=0 "
        "master=0.0.0.0:0 timeout=0s"
    )
    env = FileScan(
        FileInfo("env.txt", FileKind.ENV, None),
        [],
        {"env": {"GLOO_SOCKET_IFNAME": "lo", "TORCH_DISTRIBUTED_BACKEND": "gloo"}},
    )
    shape = rank_log("RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x512 and 256x64)")

    assert accelerator_of([start, shape]) == "cpu"
    assert accelerator_of([env, shape]) == "cpu"
    assert accelerator_of([shape]) is None


def test_the_gloo_interface_switch_alone_tells_no_stack():
    """GLOO_SOCKET_IFNAME is set for the CPU groups of NPU and GPU jobs as well."""
    env = FileScan(
        FileInfo("env.txt", FileKind.ENV, None), [], {"env": {"GLOO_SOCKET_IFNAME": "eth0"}}
    )
    assert accelerator_of([env]) is None


def test_an_ascend_serving_job_with_a_gloo_cpu_group_stays_ascend():
    """vLLM-Ascend connects its CPU group over gloo on every run, and a lost peer there
    raises gloo's error beside the NPU's own."""
    scan = rank_log(
        "[Gloo] Rank 0 is connected to 3 peer ranks. Expected number of connected peer ranks is : 3",
        "(VllmWorker rank=2 pid=4187) ERROR 07-15 09:43:29 [multiproc_executor.py:527] "
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 2; 60.97 GiB total "
        "capacity; 57.12 GiB already allocated)",
        GLOO_PEER_LOST,
    )
    assert accelerator_of([scan]) == "ascend"


def test_a_cuda_job_whose_monitored_barrier_ran_on_gloo_stays_cuda():
    """c10d's monitored barrier runs on a gloo group beside the NCCL one."""
    scan = rank_log(
        "[rank0]:[E1203 10:00:01.521 ProcessGroupGloo.cpp:2901] [Rank 0]: Rank 2 failed to pass "
        "monitoredBarrier in 600000 ms",
        "[rank2]: RuntimeError: CUDA error: an illegal memory access was encountered",
    )
    assert accelerator_of([scan]) == "cuda"


def test_a_gloo_job_whose_torch_build_lacks_cuda_reads_as_cpu():
    """torch's refusal names the device the code asked for; the build it has is CPU-only."""
    start = started("init process group: backend=gloo rank=0 world_size=0")
    refused = rank_log("[rank0]: AssertionError: Torch not compiled with CUDA enabled")
    assert accelerator_of([start, refused]) == "cpu"


@pytest.mark.parametrize(
    "beside",
    [
        rank_log(
            "[rank0]:[W1203 10:00:09.2 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group "
            "has NOT been destroyed before we destruct ProcessGroupNCCL."
        ),
        rank_log("UserWarning: torch.cuda.amp.GradScaler is enabled, but CUDA is not available."),
        started("init process group: backend=cpu:gloo,cuda:nccl rank=0 world_size=0"),
        started("init process group: backend=gloo rank=0 world_size=0 device=npu:0"),
        FileScan(FileInfo("env.txt", FileKind.ENV, None), [], {"env": {"DIST_BACKEND": "nccl"}}),
    ],
    ids=["nccl group", "cuda word", "mixed backends", "npu device", "nccl backend in env"],
)
def test_gloo_beside_any_accelerator_word_leaves_the_stack_unknown(beside):
    """Such a job ran gloo beside an accelerator's group, or the bundle cannot tell."""
    assert accelerator_of([rank_log(GLOO_PEER_LOST), beside]) is None


def test_a_cuda_job_sees_the_cuda_twin_of_a_switch_and_no_ascend_only_ones():
    written = ["PYTORCH_NPU_ALLOC_CONF=expandable_segments:True", "ASCEND_LAUNCH_BLOCKING=1"]
    written += ["HCCL_BUFFSIZE=512", "TORCH_DISTRIBUTED_DEBUG=DETAIL"]
    assert switches_for("cuda", written) == [
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
        "CUDA_LAUNCH_BLOCKING=1",
        "TORCH_DISTRIBUTED_DEBUG=DETAIL",
    ]


def test_a_cpu_job_sees_no_switch_written_for_an_accelerator():
    written = ["PYTORCH_NPU_ALLOC_CONF=expandable_segments:True", "ASCEND_LAUNCH_BLOCKING=1"]
    written += ["HCCL_CONNECT_TIMEOUT=600", "TORCH_DISTRIBUTED_DEBUG=DETAIL"]
    assert switches_for("cpu", written) == ["TORCH_DISTRIBUTED_DEBUG=DETAIL"]


def test_an_ascend_job_or_an_unknown_stack_keeps_the_switches_as_written():
    written = ["HCCL_CONNECT_TIMEOUT=600", "ASCEND_GLOBAL_LOG_LEVEL=1"]
    assert switches_for("ascend", written) == written
    assert switches_for(None, written) == written


@pytest.mark.parametrize("stack", ["unknown", "other"])
def test_a_job_on_no_known_stack_sees_only_the_switches_every_stack_names_alike(stack):
    """Its engineer may have no Ascend toolkit: the tree's text names each stack's switch."""
    written = ["PYTORCH_NPU_ALLOC_CONF=expandable_segments:True", "ASCEND_LAUNCH_BLOCKING=1"]
    written += ["HCCL_CONNECT_TIMEOUT=600", "TORCH_DISTRIBUTED_DEBUG=DETAIL"]
    assert switches_for(stack, written) == ["TORCH_DISTRIBUTED_DEBUG=DETAIL"]


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
