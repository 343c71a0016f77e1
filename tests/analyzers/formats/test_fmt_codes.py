"""Error codes come out of messages in a form the code table can look up."""

import pytest

from analyzers.formats.codes import extract_codes

CASES = [
    (
        "cann-headline",
        "EZ9999: [PID: 3011590] 2026-06-29-01:37:06.028.225 The error from device",
        ("EZ9999",),
    ),
    ("named-headline", "Device_Absent/Abnormal(EL0001): Device not found or invalid.", ("EL0001",)),
    (
        "pta",
        "[ERROR] 2025-05-16-20:08:19 (PID:1, Device:2, RankID:2) ERR00100 PTA call acl api failed",
        ("ERR00100",),
    ),
    (
        "acl",
        "NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507015",
        ("507015",),
    ),
    (
        "runtime-result",
        "query event recorded status failed, runtime result = 507014[FUNC:ReportCallError]",
        ("507014",),
    ),
    ("result", "build op model failed, result = 500001[FUNC:ReportInnerError]", ("500001",)),
    ("errno", "launch failed for FlashAttentionScore, errno:561103.", ("561103",)),
    (
        "op-library-errno",
        "[nnopbase_executor.cpp:1006][NNOP][NnopbasePrintSupportInfo][4410] errno[161002] "
        "OpName:[GroupedMatmul_0] Io input dtype or format not support",
        ("161002",),
    ),
    (
        "registration-ret",
        "[E] RegisterAscendBinary aiv ret 107000, kernel add_custom",
        ("107000",),
    ),
    ("registration-ret-success", "[I] RegisterAscendBinary aic ret 0", ()),
    (
        "harness-failed-with-code",
        "board_worker dev=3 init: RuntimeError: runtime_setup failed with code 507033",
        ("507033",),
    ),
    ("exit-status-failed-with-code", "job step 4 failed with code 137", ()),
    ("ret-not-six-digits", "step 42 ret 1234567 samples", ()),
    ("retcode-hex", "Kernel task happen error, retCode=0x25, [aicore timeout].", ("0x25",)),
    ("hccl-ops", "OPS function error: HcclAllreduce, error code is 6", ("HCCL_E_NOT_FOUND",)),
    (
        "hccl-init",
        "HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 4",
        ("HCCL_E_INTERNAL",),
    ),
    (
        "helper-library-acl-error",
        "acl Error, code: 207001 at /build/vllm-ascend/csrc/camem_allocator.cpp:71",
        ("207001",),
    ),
    (
        "workspace-status",
        "RuntimeError: aclnnGroupNormSiluGetWorkspaceSize failed with aclnnStatus=161002.",
        ("161002",),
    ),
    (
        "runtime-call-in-op",
        "[PID: 4021] 2026-03-01-08:12:40.118.204 AclNN_Runtime_Error(EZ9903): rtKernelLaunchWithHandleV2 failed: 507015",
        ("EZ9903", "507015"),
    ),
    ("not-a-runtime-call", "download failed: 404040 bytes left", ()),
    ("colon-after-is", "OSError: (External) ACL error, the error code is : 500002.", ("500002",)),
    ("glog-is-no-code", "E1129 07:25:37.499000 26576 api.py:1002] failed (exitcode: -11)", ()),
    (
        "bare-headline",
        "E10001: Value [1,3,-1,-1] for parameter [--input_shape] is invalid. Reason: ...",
        ("E10001",),
    ),
    (
        "mindx-bracketed",
        "E20231116 09:50:41.157967  2326 MxOmModelDesc.cpp:855] [507011][Error code unknown] "
        "Failed to model infer execute, details seen in CANN document.",
        ("507011",),
    ),
    ("error-colon", "Failed to execute model, error:507011", ("507011",)),
    ("ret-equals", "aclmdlExecute failed, ret=507011, modelId=1", ("507011",)),
    (
        "pid-before-module-tag",
        "[ERROR] HCCL(114725,python):2026-03-12-07:49:36.326.808 [hccl_socket.cc:532] "
        "[114725][HcclSocket][Listen] listen on ip[192.0.2.10] fail",
        (),
    ),
    ("pid-before-time", "[227098] [2027-10-14 15:24:01:938] torch.distributed: [ERROR] x", ()),
    ("ret-seven-digits", "send failed, ret=5070112", ()),
    ("ret-hex-address", "map failed, ret=0x507011", ()),
    ("error-in-a-word", "OSError:507011 bytes left", ()),
    ("small-number-no-hccl", "worker exited, error code is 1", ()),
]


@pytest.mark.parametrize(("name", "message", "expected"), CASES, ids=[c[0] for c in CASES])
def test_codes(name, message, expected):
    assert extract_codes(message) == expected


def test_hccl_plog_return_code_needs_the_hccl_module():
    line = "[Wait][LinksEstablishCompleted] is failed. ret[9]."
    assert extract_codes(line) == ()
    assert extract_codes(line, hccl=True) == ("HCCL_E_TIMEOUT",)
