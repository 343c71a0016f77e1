"""An OpenMPI-style signal handler (also met in ModelArts training jobs) reports
`[host:pid] *** Process received signal ***`, the signal, then native frames
`[host:pid] [ 2] /lib64/libc.so.6(abort+0x..)[0x..]`. The frames name code, not a failure;
an abort only echoes the process's own earlier error, and stands as a crash only when nothing
else was logged. Scanned and diagnosed end to end.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

HOST = "[job-7f3a-worker-1:02214]"

SIGNAL_REPORT = f"""\
frame #11: Py_RunMain + 0xa4 (0xaaaac1d2c96c in /opt/conda/bin/python3)
frame #12: __libc_start_main + 0xe0 (0xffff9a736b20 in /lib64/libc.so.6)

{HOST} *** Process received signal ***
{HOST} Signal: Aborted (6)
{HOST} Signal code:  (-6)
{HOST} [ 0] linux-vdso.so.1(__kernel_rt_sigreturn+0x0)[0xffff9aa437c0]
{HOST} [ 1] /lib64/libc.so.6(gsignal+0xb0)[0xffff9a749140]
{HOST} [ 2] /lib64/libc.so.6(abort+0x154)[0xffff9a74a4ec]
{HOST} [ 3] /opt/conda/lib/libstdc++.so.6(_ZN9__gnu_cxx27__verbose_terminate_handlerEv+0x38)[0xffff90dc51e8]
"""

NPU_ERROR_THEN_ABORT = (
    """\
RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:467 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507035
[ERROR] 2026-03-11-09:20:31 (PID:2214, Device:1, RankID:1) ERR00100 PTA call acl api failed
[Error]: The vector core execution is abnormal.
terminate called after throwing an instance of 'c10::Error'
"""
    + SIGNAL_REPORT
)


def test_a_signal_report_alone_is_a_crash_and_its_frames_are_not_cited() -> None:
    diagnosis = diagnose_text("job/train.log", SIGNAL_REPORT)
    assert_reads(diagnosis, "device_fault", first_error="Signal: Aborted (6)")


def test_an_abort_after_the_process_own_error_only_echoes_it() -> None:
    diagnosis = diagnose_text("job/train.log", NPU_ERROR_THEN_ABORT)
    assert_reads(diagnosis, "aicore_timeout", first_error="error code is 507035")


# The same handler's report of a memory fault, as a paste keeps it: the faulting address and
# the frames, with the `Signal:` line above them cut (docs/labelling.md#native-only-crashes).
FAULT_ADDRESS_REPORT = """\
[pod-4c1d-worker-0:61502] Failing at address: 0x40
[pod-4c1d-worker-0:61502] [ 0] linux-vdso.so.1(__kernel_rt_sigreturn+0x0)[0xffff8c1e57c0]
[pod-4c1d-worker-0:61502] [ 1] /opt/vendor/lib64/libcomm_adaptor.so(_ZN4comm5Store9UnloadAllEv+0x3c)[0xffff51a2c4a0]
[pod-4c1d-worker-0:61502] [ 2] /opt/conda/lib/python3.9/site-packages/fw/lib/libfw_backend.so(+0x2a1c90)[0xffff6f31fc90]
"""


def test_a_fault_address_without_its_signal_line_is_still_a_crash() -> None:
    diagnosis = diagnose_text("job/train.log", FAULT_ADDRESS_REPORT)
    assert_reads(diagnosis, "device_fault", first_error="Failing at address: 0x40")
