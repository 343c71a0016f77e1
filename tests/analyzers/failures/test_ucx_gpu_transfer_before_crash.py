"""A UCX transfer of GPU memory that fails, and the crash that follows it in the same rank.

docs/labelling.md#a-ucx-transfer-that-fails-before-a-crash: a CUDA driver call of UCX's own GPU
transports that fails (`... is failed. ret:<reason>`), or a peer's memory key that cannot be
unpacked, is the first error and `hccl`, with `device_fault` and `driver_env` beside it; the
segfault UCX reports afterwards in the same process is its aftermath. Values of our own in the
real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

CONTEXT_THEN_SEGFAULT = """\
2: [1690011223.104452] [gpu-n07:20411:0]    cuda_ipc_md.c:62   UCX  ERROR cuCtxGetDevice(&cu_device) is failed. ret:invalid device context
2: [1690011223.104499] [gpu-n07:20411:0]       ucp_rkey.c:250  UCX  ERROR Failed to unpack remote key from remote md[3]: Input/output error
2: [gpu-n07:20411:0:20533] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x18)
"""


def test_the_cuda_call_ucx_reports_comes_before_the_segfault() -> None:
    diagnosis = diagnose_text("slurm-7310.out", CONTEXT_THEN_SEGFAULT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="cuCtxGetDevice(&cu_device) is failed",
        rule="hccl.ucx_gpu_transfer_call_failed",
    )
    assert alternative_labels(diagnosis)[:2] == ["device_fault", "driver_env"]


def test_a_key_that_does_not_unpack_is_read_the_same_way() -> None:
    text = (
        "[1690011299.551020] [gpu-n12:9155:0]        ucp_rkey.c:250  UCX  ERROR Failed to unpack remote key from remote md[5]: Input/output error\n"
        "[gpu-n12:9155:0:9201] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7f00c0000000)\n"
    )
    diagnosis = diagnose_text("rank5.log", text)
    assert_reads(diagnosis, "hccl", first_error="Failed to unpack remote key")


def test_the_segfault_alone_stays_a_crash() -> None:
    text = CONTEXT_THEN_SEGFAULT.splitlines()[2] + "\n"
    diagnosis = diagnose_text("slurm-7310.out", text)
    assert diagnosis.category == "device_fault"


def test_a_cuda_transport_that_is_not_available_is_a_note() -> None:
    text = (
        "[1690011223.104452] [gpu-n07:20411:0]    ucp_context.c:1268 UCX  WARN  transports "
        "'cuda_ipc','cuda_copy' are not available, please use one or more of: posix, self, sysv, tcp\n"
    )
    diagnosis = diagnose_text("slurm-7310.out", text)
    assert "hccl.ucx_gpu_transfer_call_failed" not in rules_of(diagnosis)
