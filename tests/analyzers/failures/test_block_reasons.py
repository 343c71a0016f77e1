"""A block's reason line is the first error, not the headline or the callers around it.

Each writer prints its failure as a block: a headline that says a stage or call failed, then
the line that says why, then callers restating it. The reason line wins whatever the writer:
an aclnn runtime error under the torch_npu wrapper, a kernel compiler's located diagnostic or
option refusal under the Triton-Ascend block headlines (the located `Failed to run BiShengHIR
pipeline` at the module's first line is one of those headlines), a kernel compiler pass's bare
`PassManager::run failed` or the compiler driver's report that its frontend died under the same
headlines, the located diagnostics behind pytest's `E` failure marker, an MC2 op's HCCL resource failure
before its TraceBack callers (also when HCCL's code makes it a symptom and nothing HCCL logged
explains it), a MindIE runner's communicator-pool restatement after the HCCL
init failure, a driver's refusal inside an exception repr whose newlines are escaped (also
the runtime's refusal of the peer-access query asked before it), the error manager's line
under an HCCL call's return code (ranks that never reached the root, a socket that timed
out) even when the code alone reads as a root failure, an aclnn op's tiling failure under
a wrapper whose detail is only the bare `EZ9999: Inner Error!` headline, and the check in the
TraceBack of an error-manager "failed to execute tiling function" headline (an MC2 op's HCCL
window, named by a per-group buffer variable, too small for the batch).
Counterexamples: a headline alone stays the first error; a compiler warning is no reason; an
ordinary copy's rejected argument inside the same repr is no device-pair refusal; an HCCL
call's code with no error-manager line, or an aclnn wrapper with no op line under it, stays
the first error; a tiling failure that restates an earlier tiling check leaves the check first;
an aclnn run-time headline (`AclNN_Runtime_Error(EZ9903): InitTilingParseCtx failed`) yields to
the TraceBack line naming the compile-info key the op's tiling could not read, and stays the
first error when its TraceBack holds only callers;
a tiling-function headline with no check under it stays the first error, the operator's.

docs/labelling.md#wrappers, docs/labelling.md#config-driver_env-or-weight_load
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

ACLNN_RUNTIME_ERROR_UNDER_WRAPPER = """\
[rank2]: RuntimeError: InnerRunOpApi:../torch_npu/csrc/framework/OpParamMaker.cpp:287 OPS function error: aclnnChunkGatedDeltaFwd, error code is 561000
[rank2]: [ERROR] (PID:51200, Device:2, RankID:2) ERR01100 OPS call acl api failed.
[rank2]: AclNN_Runtime_Error(EZ9903): InitTilingParseCtx failed

op[ChunkGatedDeltaFwd], compile info not contain [_pattern][FUNC:ParseAutoTilingRun][FILE:auto_tiling_rt2.cc][LINE:120]
Op [ChunkGatedDeltaFwd] tiling compile info parse failed
Kernel GetWorkspace failed. opType: 12
"""

# the same headline whose TraceBack holds only callers' restatements: the headline says most
ACLNN_RUNTIME_HEADLINE_OVER_CALLERS = """\
[rank2]: RuntimeError: InnerRunOpApi:../torch_npu/csrc/framework/OpParamMaker.cpp:287 OPS function error: aclnnChunkGatedDeltaFwd, error code is 561000
[rank2]: [ERROR] (PID:51200, Device:2, RankID:2) ERR01100 OPS call acl api failed.
[rank2]: AclNN_Runtime_Error(EZ9903): InitTilingParseCtx failed

Kernel GetWorkspace failed. opType: 12
ADD_TO_LAUNCHER_LIST_AICORE failed.
"""

# the error manager's named form pasted without its `[PID: n] time` prefix, no error word in it
NAMED_REASON_WITHOUT_PID = """\
RuntimeError: npu_moe_distribute_dispatch_v2: build/CMakeFiles/torch_npu.dir/compiler_depend.ts:88 NPU function error: call aclnnMoeDistributeDispatchV2 failed, error code is 561002
[ERROR] 2026-07-02-10:11:12 (PID:8812, Device:3, RankID:-1) ERR00100 PTA call acl api failed.
Invalid_Input(EZ0004): Parameter scales of MoeDistributeDispatchV2 is required, but it is empty.
"""

# an MC2 combine's window check under the error manager's tiling-function headline; the
# variable it names is the EP group's own buffer setting
TILING_HEADLINE_OVER_WINDOW_CHECK = """\
[ERROR] 2026-04-02-08:12:40 (PID:3310, Device:5, RankID:-1) ERR00100 PTA call acl api failed.
[PID: 3310] 2026-04-02-08:12:40.551.102 Execution_Error(EZ1008): Failed to execute operator MoeDistributeCombineV2_88. Reason: Failed to execute tiling function.
        Solution: 1.If the tiling function does not exist, check whether the tiling function is registered successfully. 2.If the tiling function fails to be executed, check the implementation logic of the tiling function.
TraceBack (most recent call last):
        HCCL_BUFFSIZE_EP is too SMALL, maxBs = 128, h = 7168, HCCL_BUFFSIZE=300MB.[FUNC:CheckActualWinSize][FILE:moe_distribute_combine_v2_tiling.cpp][LINE:104]
        Tiling check actual window size failed.[FUNC:CheckWinSize][FILE:moe_distribute_combine_v2_tiling.cpp][LINE:165]
"""

TILING_HEADLINE_ALONE = """\
[ERROR] 2026-04-02-08:12:40 (PID:3310, Device:5, RankID:-1) ERR00100 PTA call acl api failed.
[PID: 3310] 2026-04-02-08:12:40.551.102 Execution_Error(EZ1008): Failed to execute operator GroupedMatmul_7. Reason: Failed to execute tiling function.
"""

TRITON_BLOCK_WITHOUT_PREFIX = """\
  File "/usr/local/python3.11.13/lib/python3.11/site-packages/triton/compiler/compiler.py", line 320, in compile
    raise MLIRCompilationError(stage_name, error_detail)
triton.compiler.errors.MLIRCompilationError: 
///------------------[ERROR][Triton][BEG]------------------
[ConvertLinalgRToBinary] encounters error:
bishengir-compile: for the --target option: Cannot find option named 'Ascend910B2C-3'!

[INFO]: The compiled kernel cache is in /root/.triton/cache/Zq1x
///------------------[ERROR][Triton][END]------------------
"""

TRITON_IR_DIAGNOSTICS = """\
///------------------[ERROR][Triton][BEG]------------------
[ConvertLinalgRToBinary] encounters error:
loc("/tmp/tmp7c1/kernel.ttadapter.mlir":1:1): error: Failed to run BiShengHIR pipeline

loc("/tmp/tmp7c1/kernel.ttadapter.mlir":22:9): error: 'memref.alloc' op Failed to propagate memory scope ub for allocOp
loc("/tmp/tmp7c1/kernel.ttadapter.mlir":61:13): error: 'arith.select' op Unsupported user for root alloc op.
///------------------[ERROR][Triton][END]------------------
"""

# MLIR's verifier prints an op it rejects without a location when the op carries none (the
# reporter's copy also wraps the long sentence): the line still says why the stage stopped.
TRITON_UNLOCATED_OP_DIAGNOSTIC = """\
[inductor] compiling triton_poi_fused_pow_sub_7 for npu:0
error: 'hivm.hir.vsub' op failed to verify that operand at idx 0 and 1 should
have element type 16-bit float or 32-bit float
[ERROR] Failed to run BiShengIR pipeline
torch._inductor.runtime.triton_heuristics.NoTritonConfigsError: No valid triton configs. MLIRCompilationError
"""

# A pass of the kernel compiler failed and printed only the pass manager's report under the
# stage's headline (raised through inductor's autotuner, which sums the configs up first).
TRITON_PASS_MANAGER_ALONE = """\
torch._inductor.exc.InductorError: SubprocException: An exception occurred in a subprocess:
torch._inductor.runtime.triton_heuristics.NoTritonConfigsError: No valid triton configs.
All configs failed compilation (including small-block fallback). Last error: MLIRCompilationError:
///------------------[ERROR][Triton][BEG]------------------
[ConvertTritonIRToLinalgIR] encounters error:
PassManager::run failed

///------------------[ERROR][Triton][END]------------------
"""

# The compiler driver reports that its frontend process died (exit code 128 + the signal).
TRITON_COMPILER_FRONTEND_DIED = """\
[kernels] compiling _rms_norm_fwd ...
[kernels] FAILED: MLIRCompilationError:
///------------------[ERROR][Triton][BEG]------------------
[ConvertLinalgRToBinary] encounters error:
bisheng: error: clang frontend command failed with exit code 134 (use -v to see invocation)
///------------------[ERROR][Triton][END]------------------
"""

# LLVM stops the kernel compiler with a bare fatal error under the stage's headline.
TRITON_LLVM_FATAL_ERROR = """\
[kernels] compiling _softplus_fwd ...
///------------------[ERROR][Triton][BEG]------------------
[ConvertLinalgRToBinary] encounters error:
LLVM ERROR: unsupported datatype for arith::TruncFOp to hfusion
///------------------[ERROR][Triton][END]------------------
"""

# A kernel compiled inside a pytest run: the compiler's diagnostics arrive behind pytest's `E`
# failure marker, after the CalledProcessError that only says the compiler exited non-zero.
PYTEST_MARKED_IR_DIAGNOSTICS = """\
  subprocess.CalledProcessError: Command '['/opt/cann/bin/bishengir-compile', '/tmp/tmpk2/kernel.ttadapter.mlir', '--target=Ascend910B4', '-o', '/tmp/tmpk2/kernel']' returned non-zero exit status 1.
/usr/lib/python3.11/subprocess.py:571: CalledProcessError
E       loc("/tmp/bishengir-compile-77a1/module.hivm.mlir":88:11): error: 'hivm.hir.vadd' op Unsupported op for finding the root alloc.
E       loc("/tmp/bishengir-compile-77a1/module.hivm.mlir":140:9): error: 'hivm.hir.load' op Unsupported op for finding the root alloc.
"""

MC2_RESOURCE_BEFORE_TRACEBACK_CALLERS = """\
[rank1]:[E901 10:00:02.100000000 compiler_depend.ts:444] operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:162 NPU function error: call aclnnMoeDistributeCombineV3 failed, error code is 561000
[ERROR] 2026-09-01-10:00:02 (PID:8100, Device:1, RankID:-1) ERR00100 PTA call acl api failed.
EZ9999: Inner Error!
EZ9999[PID: 8100] 2026-09-01-10:00:02.100.200 AclNN_Inner_Error(EZ9999):  Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 7, comm = 0xfffe00001000.
        TraceBack (most recent call last):
       Check NnopbaseGetHcomResource(executor, stream) failed
       Check NnopbaseExecutorGetMc2Num(executor, stream, &argsAddr, &mc2Num) failed
"""

# The resource step returned 9 (a wait that timed out), which makes it a symptom; the callers
# traced under it carry no code and must not outrank the socket timeout that opens the block.
MC2_SOCKET_TIMEOUT_OVER_CALLERS = """\
[rank3]:[E1102 08:14:20.512000000 compiler_depend.ts:444] operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:162 NPU function error: call aclnnMoeDistributeDispatchV2 failed, error code is 561000
[ERROR] 2026-11-02-08:14:20 (PID:6620, Device:3, RankID:-1) ERR00100 PTA call acl api failed.
EZ9999: Inner Error!
EZ9999[PID: 6620] 2026-11-02-08:14:20.511.870 (EZ9999):  Communication_Error_Get_Socket(EI0006): Getting socket times out. Reason: the peer rank never connected.
        TraceBack (most recent call last):
       Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 9, comm = 0xfffd10002000.
       Check nnopbase::IndvHcclWrapper::GetInstance().HcclAllocComResourceByTiling(commHandle, stream, tilingData, &contextAddr) failed
       Check NnopbaseGetHcomResource(executor, stream) failed
       Check NnopbaseExecutorGetMc2Num(executor, stream, &argsAddr, &mc2Num) failed
"""

# HCCL's return code makes the resource step a symptom (4, an internal error; 9, a wait that
# timed out) and nothing HCCL logged before it is in the paste: the step's line is still what the
# call's aclnn code sums up, so it is the first error and the label is the communication layer's.
MC2_SYMPTOM_CODE_RESOURCE_ALONE = """\
[rank6]:[E315 14:02:11.204000000 compiler_depend.ts:444] operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:162 NPU function error: call aclnnMoeDistributeCombineV2 failed, error code is 561000
[ERROR] 2026-03-15-14:02:11 (PID:4410, Device:6, RankID:-1) ERR00100 PTA call acl api failed.
EZ9999: Inner Error!
EZ9999[PID: 4410] 2026-03-15-14:02:11.203.512 AclNN_Inner_Error(EZ9999):  Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 4, comm = 0xfffe3c0a1000.
        TraceBack (most recent call last):
       Check NnopbaseGetHcomResource(executor, stream) failed
       Check NnopbaseExecutorGetMc2Num(executor, stream, &argsAddr, &mc2Num) failed
"""

MC2_TIMEOUT_CODE_RESOURCE_ALONE = MC2_SYMPTOM_CODE_RESOURCE_ALONE.replace("ret = 4", "ret = 9")

# With the resource step's own line lost, a caller is the only record of it.
MC2_CALLERS_ALONE = """\
[rank3]:[E1102 08:14:20.512000000 compiler_depend.ts:444] operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:162 NPU function error: call aclnnMoeDistributeDispatchV2 failed, error code is 561000
[ERROR] 2026-11-02-08:14:20 (PID:6620, Device:3, RankID:-1) ERR00100 PTA call acl api failed.
EZ9999: Inner Error!
        TraceBack (most recent call last):
       Check NnopbaseGetHcomResource(executor, stream) failed
       Check NnopbaseExecutorGetMc2Num(executor, stream, &argsAddr, &mc2Num) failed
"""

MINDIE_COMM_POOL_RESTATES_INIT = """\
[ERROR] HCCL(7001,mindie_llm_backend_connector):2026-05-02-08:00:10.100.200 [op_base.cc:974][7020][Init][CommRootInfoConfig]errNo[0x0000000005000002]HcclCommInitRootInfo failed.
[2026-05-02 08:00:10.10301] [error] [7015] [hccl_runner.cpp:132] AllGatherHcclRunner:0 HcclCommInitRootInfo fail, error:2, rank:3, rankSize:8
[2026-05-02 08:00:10.10330] [error] [7015] [comm_pool.h:43] CommPool commCreateFunc fail
[2026-05-02 08:00:10.10333] [error] [7015] [hccl_runner.cpp:72] AllGatherHcclRunner:0 get hccl comm fail by rank:3
[2026-05-02 08:00:10.10702] [error] [7041] [runner.cpp:115] AllGatherHcclRunner_1_1:1 Execute Failed. st: 3
"""

P2P_REFUSED_INSIDE_ESCAPED_REPR = (
    '[rank9]: \tWhile copying the parameter named "model.layers.3.self_attn.o_proj.weight", '
    "whose dimensions in the model are torch.Size([4096, 512]) and whose dimensions in the "
    "checkpoint are torch.Size([4096, 512]), an exception occurred : ('enable_peer_access:"
    "torch_npu/csrc/core/npu/NPUPeerToPeerAccess.cpp:39 NPU function error: "
    "aclrtDeviceEnablePeerAccess(dest_dev, enable_flag_value), error code is 507899\\n"
    "[ERROR] 2026-07-01-09:00:00 (PID:3300, Device:1, RankID:9) ERR00100 PTA call acl api "
    "failed\\n[Error]: An internal error occurs in the Driver module. \\nEL9999: Inner Error!\\n"
    "EL9999[PID: 3300] 2026-07-01-09:00:00.001.100 (EL9999):  [drv api] halDeviceEnableP2P "
    "failed: drv devId=1, phyIdSrc=4, drvRetCode=17![FUNC:EnableP2P][FILE:npu_driver.cc]"
    "[LINE:4088]\\n        TraceBack (most recent call last):\\n       rtEnableP2P execution "
    "failed, reason=driver error:internal error[FUNC:FuncErrorReason]',)\n"
)

PEER_QUERY_REFUSED_INSIDE_ESCAPED_REPR = (
    '\tWhile copying the parameter named "base_model.model.model.layers.11.mlp.down_proj.lora_A.'
    'default.weight", whose dimensions in the model are torch.Size([16, 11008]) and whose '
    "dimensions in the checkpoint are torch.Size([16, 11008]), an exception occurred : "
    "('get_p2p_access:torch_npu/csrc/core/npu/NPUPeerToPeerAccess.cpp:80 NPU error, error code "
    "is 107000\\n[ERROR] 2026-02-14-17:20:31 (PID:6120, Device:1, RankID:-1) ERR00100 PTA call "
    "acl api failed\\n[Error]: Parameter verification failed.\\nEE1001: The argument is invalid."
    "Reason: rtDeviceCanAccessPeer execute failed, reason=[invalid value]\\n        TraceBack "
    "(most recent call last):\\n        call rtDeviceCanAccessPeer failed, deviceId = 1, "
    "peerPhyId = 6, runtime result = 107000[FUNC:ReportCallError]\\n',).\n"
)

# Counterexample: the same loader repr around a parameter rejection of an ordinary copy is
# not a device-pair refusal.
COPY_ARGUMENT_REJECTED_INSIDE_ESCAPED_REPR = PEER_QUERY_REFUSED_INSIDE_ESCAPED_REPR.replace(
    "get_p2p_access:torch_npu/csrc/core/npu/NPUPeerToPeerAccess.cpp:80", "copy_:CopyKernel.cpp:96"
).replace("rtDeviceCanAccessPeer", "rtMemcpyAsync")

# Counterexample: a compile block whose headlines are all that was pasted keeps its headline.
TRITON_HEADLINE_ONLY = """\
triton.compiler.errors.MLIRCompilationError: 
///------------------[ERROR][Triton][BEG]------------------
[ConvertLinalgRToBinary] encounters error:
///------------------[ERROR][Triton][END]------------------
"""

# Communicator setup fails with HCCL_E_PARA (a code that alone reads as a root failure); the
# error manager's line under it says the root never heard from half of the ranks.
HCCL_SETUP_CODE_EXPLAINED_BY_ROOT_WAIT = """\
  File "/srv/engine/moe/dispatch.py", line 88, in __init__
    self.group_name = backend.get_hccl_comm_name(local_rank)
RuntimeError: create_config:../torch_npu/csrc/distributed/HCCLUtils.cpp:140 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 1
[ERROR] 2026-05-04-09:10:11 (PID:4410, Device:5, RankID:-1) ERR02200 DIST call hccl api failed.
[PID: 4410] 2026-05-04-09:10:11.120.330 Communication_Error_Ranktable_Detect(EI0015): Failed to collect cluster information of the communicator based on rootInfo detection. Reason: No rank in the communicator can connect to the root node within the timeout period. List of unconnected ranks: "[4,5,6,7,]".
"""

# Counterexample: the same call's code with nothing printed under it is all there is.
HCCL_SETUP_CODE_ALONE = HCCL_SETUP_CODE_EXPLAINED_BY_ROOT_WAIT.split("[PID: 4410]")[0]

# A serving worker's logger prefix on every line; the wrapper's detail is the bare headline.
TILING_FAILURE_UNDER_BARE_WRAPPER = """\
(Worker_TP2 pid=912) ERROR 03-09 08:01:02 [multiproc_executor.py:700] RuntimeError: call aclnnRmsNormQuant failed, detail:EZ9999: Inner Error!
(Worker_TP2 pid=912) ERROR 03-09 08:01:02 [multiproc_executor.py:700] EZ9999[PID: 912] 2026-03-09-08:01:02.411.502 AclNN_Inner_Error(EZ9999):  RmsNormQuant do tiling failed, ret is -1.
(Worker_TP2 pid=912) ERROR 03-09 08:01:02 [multiproc_executor.py:700]         TraceBack (most recent call last):
(Worker_TP2 pid=912) ERROR 03-09 08:01:02 [multiproc_executor.py:700]        Check NnopbaseExecutorDoTiling(executor) failed
"""

# Counterexample: the wrapper alone.
BARE_WRAPPER_ALONE = TILING_FAILURE_UNDER_BARE_WRAPPER.splitlines(keepends=True)[0]

# Counterexample: the tiling failure restates a check that said why a line earlier.
TILING_FAILURE_AFTER_ITS_CHECK = """\
RuntimeError: call aclnnRmsNormQuant failed, detail:EZ9999: Inner Error!
E89999[PID: 912] 2026-03-09-08:01:02.411.500 (E89999):  gamma's last dim 4096 must equal x's last dim 5120.[FUNC:CheckShape][FILE:rms_norm_quant_tiling.cpp][LINE:77]
EZ9999[PID: 912] 2026-03-09-08:01:02.411.502 AclNN_Inner_Error(EZ9999):  RmsNormQuant do tiling failed, ret is -1.
"""

CASES = [
    # (name, text, label, first error says)
    (
        "HCCL call's code explained by the root's wait for the ranks",
        HCCL_SETUP_CODE_EXPLAINED_BY_ROOT_WAIT,
        "hccl",
        "Failed to collect cluster information of the communicator",
    ),
    (
        "HCCL call's code alone",
        HCCL_SETUP_CODE_ALONE,
        "hccl",
        "hcclCommInitRootInfoConfig",
    ),
    (
        "op tiling failure under a bare aclnn wrapper",
        TILING_FAILURE_UNDER_BARE_WRAPPER,
        "operator",
        "RmsNormQuant do tiling failed",
    ),
    (
        "bare aclnn wrapper alone",
        BARE_WRAPPER_ALONE,
        "operator",
        "call aclnnRmsNormQuant failed",
    ),
    (
        "tiling check before the tiling failure that restates it",
        TILING_FAILURE_AFTER_ITS_CHECK,
        "operator",
        "gamma's last dim 4096 must equal",
    ),
    (
        "compile-info key under an aclnn runtime headline under the wrapper",
        ACLNN_RUNTIME_ERROR_UNDER_WRAPPER,
        "operator",
        "compile info not contain [_pattern]",
    ),
    (
        "aclnn runtime headline whose TraceBack names no reason",
        ACLNN_RUNTIME_HEADLINE_OVER_CALLERS,
        "operator",
        "AclNN_Runtime_Error(EZ9903): InitTilingParseCtx failed",
    ),
    (
        "aclnn input check under the wrapper, pasted without its PID",
        NAMED_REASON_WITHOUT_PID,
        "operator",
        "Invalid_Input(EZ0004): Parameter scales",
    ),
    (
        "compiler refuses the chip name with no error word",
        TRITON_BLOCK_WITHOUT_PREFIX,
        "config",
        "Cannot find option named 'Ascend910B2C-3'",
    ),
    (
        "first located IR diagnostic that names a reason, under the pipeline's located headline",
        TRITON_IR_DIAGNOSTICS,
        "operator",
        "'memref.alloc' op Failed to propagate memory scope ub for allocOp",
    ),
    (
        "pass manager's bare report under the stage headline",
        TRITON_PASS_MANAGER_ALONE,
        "operator",
        "PassManager::run failed",
    ),
    (
        "compiler driver reports its frontend died",
        TRITON_COMPILER_FRONTEND_DIED,
        "operator",
        "clang frontend command failed with exit code 134",
    ),
    (
        "LLVM's bare fatal error under the stage headline",
        TRITON_LLVM_FATAL_ERROR,
        "operator",
        "LLVM ERROR: unsupported datatype for arith::TruncFOp to hfusion",
    ),
    (
        "located diagnostics behind pytest's failure marker",
        PYTEST_MARKED_IR_DIAGNOSTICS,
        "operator",
        "'hivm.hir.vadd' op Unsupported op for finding the root alloc.",
    ),
    (
        "MC2 resource failure before its TraceBack callers",
        MC2_RESOURCE_BEFORE_TRACEBACK_CALLERS,
        "hccl",
        "fails to invoke the HcclAllocComResourceByTiling function",
    ),
    (
        "MC2 callers under a resource step that timed out yield to the socket timeout",
        MC2_SOCKET_TIMEOUT_OVER_CALLERS,
        "hccl",
        "Getting socket times out",
    ),
    (
        "MC2 resource step with an internal-error code alone under the call",
        MC2_SYMPTOM_CODE_RESOURCE_ALONE,
        "hccl",
        "HcclAllocComResourceByTiling function of the hccl module. ret = 4",
    ),
    (
        "MC2 resource step with a timeout code and no link failure before it",
        MC2_TIMEOUT_CODE_RESOURCE_ALONE,
        "hccl",
        "HcclAllocComResourceByTiling function of the hccl module. ret = 9",
    ),
    (
        "MC2 caller alone is the only record of the resource failure",
        MC2_CALLERS_ALONE,
        "hccl",
        "Check NnopbaseGetHcomResource(executor, stream) failed",
    ),
    (
        "MindIE communicator pool restates the init failure",
        MINDIE_COMM_POOL_RESTATES_INIT,
        "hccl",
        "HcclCommInitRootInfo failed.",
    ),
    (
        "driver refuses peer access inside an escaped repr",
        P2P_REFUSED_INSIDE_ESCAPED_REPR,
        "driver_env",
        "halDeviceEnableP2P failed",
    ),
    (
        "runtime refuses a peer-access query inside an escaped repr",
        PEER_QUERY_REFUSED_INSIDE_ESCAPED_REPR,
        "driver_env",
        "rtDeviceCanAccessPeer execute failed",
    ),
    (
        "window check under a tiling-function headline",
        TILING_HEADLINE_OVER_WINDOW_CHECK,
        "hccl",
        "HCCL_BUFFSIZE_EP is too SMALL",
    ),
    (
        "tiling-function headline alone",
        TILING_HEADLINE_ALONE,
        "operator",
        "Failed to execute operator GroupedMatmul_7",
    ),
    (
        "unlocated op diagnostic above the pipeline headline",
        TRITON_UNLOCATED_OP_DIAGNOSTIC,
        "operator",
        "'hivm.hir.vsub' op failed to verify",
    ),
    (
        "compile headline alone",
        TRITON_HEADLINE_ONLY,
        "operator",
        "MLIRCompilationError",
    ),
]


@pytest.mark.parametrize(
    ("text", "label", "says"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_blocks_reason_line_is_the_first_error(text: str, label: str, says: str) -> None:
    diagnosis = diagnose_text("job/rank0.log", text)
    assert_reads(diagnosis, label, first_error=says)


def test_a_compiler_that_does_not_know_the_chip_offers_the_toolkit_and_the_kernel() -> None:
    """docs/labelling.md#operator-installation-or-platform-limit: the chip rule's neighbours."""
    diagnosis = diagnose_text("serve.log", TRITON_BLOCK_WITHOUT_PREFIX)
    assert diagnosis.category == "config"
    assert {"driver_env", "operator"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_located_diagnostic_in_the_same_block_offers_no_toolkit() -> None:
    diagnosis = diagnose_text("serve.log", TRITON_IR_DIAGNOSTICS)
    assert diagnosis.category == "operator"
    assert "driver_env" not in {alt.category for alt in diagnosis.alternatives}


def test_a_compiler_warning_is_not_a_reason() -> None:
    text = TRITON_HEADLINE_ONLY.replace(
        "[ConvertLinalgRToBinary] encounters error:\n",
        "[ConvertLinalgRToBinary] encounters error:\n"
        'loc("/tmp/tmp7c1/kernel.ttadapter.mlir":8:3): warning: value is never used\n',
    )
    diagnosis = diagnose_text("job/rank0.log", text)
    assert diagnosis.first_error is not None
    assert "warning" not in diagnosis.first_error.text


def test_llvm_out_of_host_memory_keeps_the_memory_reading() -> None:
    text = TRITON_LLVM_FATAL_ERROR.replace(
        "LLVM ERROR: unsupported datatype for arith::TruncFOp to hfusion",
        "LLVM ERROR: out of memory",
    )
    diagnosis = diagnose_text("job/rank0.log", text)
    assert_reads(diagnosis, "oom", first_error="out of memory")


def test_a_number_in_brackets_before_a_colon_is_not_an_error_manager_line() -> None:
    diagnosis = diagnose_text("job/rank0.log", "model server (port 8000): ready\n")
    assert diagnosis.first_error is None


def test_an_ordinary_copy_rejected_inside_a_loader_repr_is_not_a_device_pair_refusal() -> None:
    diagnosis = diagnose_text("job/rank0.log", COPY_ARGUMENT_REJECTED_INSIDE_ESCAPED_REPR)
    assert diagnosis.category != "driver_env"


# torch_npu glues the error manager's bare headline to the call: the detail says nothing
INNER_ERROR_CALL_OVER_TILING = """\
(Worker_TP2 pid=4410) ERROR 03-04 05:06:07 [multiproc_executor.py:962] RuntimeError: call aclnnRmsNormQuant failed, detail:EZ9999: Inner Error!
(Worker_TP2 pid=4410) ERROR 03-04 05:06:07 [multiproc_executor.py:962] EZ9999[PID: 4410] 2026-03-04-05:06:07.118.400 AclNN_Inner_Error(EZ9999):  RmsNormQuant do tiling failed, ret is -1.
(Worker_TP2 pid=4410) ERROR 03-04 05:06:07 [multiproc_executor.py:962]         TraceBack (most recent call last):
(Worker_TP2 pid=4410) ERROR 03-04 05:06:07 [multiproc_executor.py:962]        Check NnopbaseExecutorDoTiling(executor) failed
"""

# the same call whose detail states its own reason keeps its place before the TraceBack
REASONED_CALL_OVER_TILING = """\
RuntimeError: call aclnnAdd failed, detail:EZ1001: [PID: 812] 2026-03-04-05:06:07.118.400 the dtype of self is not supported
        TraceBack (most recent call last):
        Add do tiling failed, ret is -1.
"""

INNER_ERROR_CALL_ALONE = """\
[rank0]: RuntimeError: call aclnnGroupedMatmul failed, detail:EZ9999: Inner Error!
[rank0]: [ERROR] 2026-03-04-05:06:07 (PID:812, Device:0, RankID:0) ERR00100 PTA call acl api failed.
"""


def test_a_call_whose_detail_is_only_the_inner_error_headline_yields_to_the_block() -> None:
    """docs/labelling.md#wrappers"""
    diagnosis = diagnose_text("worker.log", INNER_ERROR_CALL_OVER_TILING)
    assert_reads(diagnosis, "operator", first_error="RmsNormQuant do tiling failed")


def test_a_call_that_states_its_reason_is_not_demoted_by_the_traceback() -> None:
    """docs/labelling.md#wrappers"""
    diagnosis = diagnose_text("train.log", REASONED_CALL_OVER_TILING)
    assert diagnosis.first_error is not None
    assert "the dtype of self is not supported" in diagnosis.first_error.text


def test_an_inner_error_call_with_no_block_under_it_stays_the_first_error() -> None:
    """docs/labelling.md#wrappers"""
    diagnosis = diagnose_text("train.log", INNER_ERROR_CALL_ALONE)
    assert_reads(diagnosis, "operator", first_error="call aclnnGroupedMatmul failed")
