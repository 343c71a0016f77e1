"""Graph capture that cannot end, and operators or kernels that do not compile for a graph.

- A capture call that returns a code naming no label (`AclmdlRICaptureEnd(...), error code is
  N`), a serving framework's `Capture cuda graph failed: ...` around it, or a C++ runner's
  glog line saying its `capture_end` failed: the stream's failure (`stream_sync`), with the
  graph settings (`config`) as the alternative. Counterexamples: a capture whose block says
  the device ran out of stream queues keeps `config`, and a runner's INFO line about
  `capture_begin` is no error.
- The update of a captured graph's tasks before a replay failing with a code that names no
  label (`AclmdlRICaptureTaskUpdateEnd(stream), error code is 507000`) reads as a capture call
  that failed: `stream_sync`, the update line first, not the PTA summary printed above it.
- The graph engine's run of subgraph-compile trace lines: the earliest step that failed is
  the first error, its callers restate it (`operator`).
- A single-op build's `Compile op[X] failed` headline, followed by the fusion engine's
  bookkeeping of the failed compile task (`failed to recompile single op[X]`, `failed when
  processing the task that had failed to compile`): the headline is the first error.
  Counterexample: a subgraph step that failed before such a headline stays first.
- The same build in a plog, where the TBE fusion compiler reports the node first (`PrintOp
  Failed to compile node [name X, type Y]`, the task's `result[single op compile failed ...]`)
  and the graph engine's callers (`[GraphOpt][FusedGraph][RunCompile] Failed to compile graph`)
  come last: the compiler's node line is the first error, the callers restate it.
  Counterexample: the callers alone stay the op's failed compile.
- The TBE compiler refusing a dtype at an op's compile (`E90003 ... Template constraint,
  detailed information: bfloat16 of tbe.dsl.x is not supported`): `operator`, with `config`
  as the alternative like any dtype refusal; a template constraint that names no dtype
  offers no such alternative. Older releases print the headline alone (`E90003: Compile
  operator failed`) and the constraint on the lines below it: the same reading, with the
  constraint's line as the first error.
- torch_npu's inductor logging that a generated Triton kernel failed to compile: `operator`.
- A compiled kernel binary the runtime refuses to register (built for another chip): the
  registration line is the first error, not torch_npu's next ACL call that fails with the
  same code; `operator` (the corpus rule for registration failures), with `config` and
  `driver_env` as alternatives.

- A C++ runner's glog line at E level in words no signature knows is still a bare failure
  worth citing when nothing says more, as a CANN or logger ERROR line is; the same words at
  I or W level are not.

Fixtures are written here in the real shapes with their own values.

docs/labelling.md#calls-refused-during-graph-capture
docs/labelling.md#operator-installation-or-platform-limit
docs/labelling.md#wrappers
docs/labelling.md#first-causal-error
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SERVING_CAPTURE_END = """\
  File "/opt/venv/lib/python3.11/site-packages/srv/model_executor/model_runner.py", line 604, in init_device_graphs
    self.graph_runner = runners[self.device](self)
  File "/opt/venv/lib/python3.11/site-packages/srv/model_executor/graph_runner.py", line 388, in __init__
    raise Exception(
Exception: Capture cuda graph failed: capture_end:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:207 NPU function error: c10_npu::acl::AclmdlRICaptureEnd(capture_stream_, &model_ri), error code is 107033
"""

RUNNER_GLOG_CAPTURE_END = """\
I20260305 10:11:12.100200 7301 graph_runner.cpp:190] capture stream ready: bucket=8 stream=0x6a2c1000
I20260305 10:11:12.104400 7301 graph_runner.cpp:198] before capture_begin: bucket=8 stream=0x6a2c1000
I20260305 10:11:12.431900 7301 graph_runner.cpp:205] after forward (before capture_end): bucket=8
E20260305 10:11:12.466100 7301 graph_runner.cpp:219] decode graph capture_end during cleanup failed: capture_end:torch_npu/csrc/core/npu/NPUGraph.cpp:251
"""

CAPTURE_BEGIN_OUT_OF_STREAM_QUEUES = """\
RuntimeError: capture_begin:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:214 NPU function error: c10_npu::acl::AclmdlRICaptureBegin(capture_stream_, capture_mode), error code is 207005
[ERROR] 2026-03-05-10:20:30 (PID:7302, Device:1, RankID:-1) ERR00100 PTA call acl api failed
EE9999: Inner Error!
EE9999[PID: 7302] 2026-03-05-10:20:30.512.604 (EE9999):  [SqCqManage]Alloc sq cq fail, stream_id=2011, retCode=0x7020023.[FUNC:Setup][FILE:stream.cc][LINE:655]
"""

GRAPH_TASK_UPDATE_END = """\
[ERROR] 2026-03-05-10:20:30 (PID:7302, Device:2, RankID:-1) ERR00100 PTA call acl api failed.

    self.graphs[bs].update(
  File "/opt/venv/lib/python3.11/site-packages/torch_npu/npu/graphs.py", line 243, in update
    self.graph_dispatch_mode.update_capture_record(cpu_update_input)
Exception in thread Thread-212 (_update_inputs):
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/threading.py", line 1045, in _bootstrap_inner
    graph_task_update_end(self.update_stream)
  File "/opt/venv/lib/python3.11/site-packages/torch_npu/npu/graphs.py", line 75, in graph_task_update_end
    _graph_task_update_end(stream)
RuntimeError: graph_task_update_end:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:61 NPU function error: c10_npu::acl::AclmdlRICaptureTaskUpdateEnd(stream), error code is 507000
[ERROR] 2026-03-05-10:20:30 (PID:7302, Device:2, RankID:-1) ERR00100 PTA call acl api failed
[Error]: An internal error occurs in the runtime module on the host.
"""

INFO_ONLY_RUNNER = """\
I20260305 10:11:12.104400 7301 graph_runner.cpp:198] before capture_begin: bucket=8 stream=0x6a2c1000
I20260305 10:11:12.466100 7301 graph_runner.cpp:219] capture_end done: bucket=8
"""

SUBGRAPH_COMPILE_RUN = """\
ERROR 04-11 08:09:10 [engine.py:412]         [SubGraphOpt][ParseJson][PkgTvmJsInfo] Parse blockDim failed, the json file:/var/cache/ops/kernel_meta_51/te_gather_v2_3be1_1.json.[FUNC:PackageTvmJsonInfo][FILE:tbe_json_parse.cc][LINE:953]
ERROR 04-11 08:09:10 [engine.py:412]         [SubGraphOpt][Compile][Normal] Failed to parse json or compress op for graph[partition0_rank2_new_sub_graph4].[FUNC:ReCompileWithNoFusionStrategy][FILE:op_compiler_normal.cc][LINE:86]
ERROR 04-11 08:09:10 [engine.py:412]         [GraphOpt][FusedGraph][RunCompile] Failed to compile graph with compiler Normal mode Op Compiler[FUNC:SubGraphCompile][FILE:fe_graph_optimizer.cc][LINE:1385]
ERROR 04-11 08:09:10 [engine.py:412]         subgraph 0 optimize failed[FUNC:OptimizeSubGraphWithMultiThreads][FILE:graph_manager.cc][LINE:1021]
"""

SUBGRAPH_COMPILE_WITHOUT_ITS_STEP = """\
ERROR 04-11 08:09:10 [engine.py:412]         [GraphOpt][FusedGraph][RunCompile] Failed to compile graph with compiler Normal mode Op Compiler[FUNC:SubGraphCompile][FILE:fe_graph_optimizer.cc][LINE:1385]
ERROR 04-11 08:09:10 [engine.py:412]         Exception: An error occurred during compile phases of CompileStage.PRECOMPILE, msg is <built-in>:1:10: fatal error: 'kernel_tiling_runtime.h' file not found
"""

# A single-op build of a Cast kernel that fails: the headline first, then the fusion engine's
# bookkeeping of the failed compile task and the build headlines, all retelling it.
SINGLE_OP_BUILD_RUN = """\
ERROR 06-02 14:20:31 [runner.py:188]         TraceBack (most recent call last):
ERROR 06-02 14:20:31 [runner.py:188]         Compile op[trans_Cast_4,] failed, oppath[/opt/cann/opp/built-in/op_impl/ai_core/tbe/impl/dynamic/cast.py], optype[Cast], taskID[3]. Please check op's compilation error message.[FUNC:ReportBuildErrMessage][FILE:fusion_manager.cc][LINE:368]
ERROR 06-02 14:20:31 [runner.py:188]         [SubGraphOpt][Compile][ProcFailedCompTask] Thread[28144] failed to recompile single op[trans_Cast_4][FUNC:ProcessAllFailedCompileTasks][FILE:tbe_op_store_adapter.cc][LINE:1133]
ERROR 06-02 14:20:31 [runner.py:188]         [SubGraphOpt][Compile][ParalCompOp] Thread[28144] failed when processing the task that had failed to compile.[FUNC:ParallelCompileOp][FILE:tbe_op_store_adapter.cc][LINE:1180]
ERROR 06-02 14:20:31 [runner.py:188]         build op model failed, result = 500002[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:146]
"""

# A subgraph step that fails before a single-op headline keeps its place: it is a step of its
# own, and the headline after it is a wrapper.
SUBGRAPH_STEP_BEFORE_SINGLE_OP_HEADLINE = """\
ERROR 06-02 14:20:31 [runner.py:188]         [SubGraphOpt][ParseJson][PkgTvmJsInfo] Parse blockDim failed, the json file:/var/cache/ops/kernel_meta_7/te_cast_77a1_1.json.[FUNC:PackageTvmJsonInfo][FILE:tbe_json_parse.cc][LINE:953]
ERROR 06-02 14:20:31 [runner.py:188]         Compile op[trans_Cast_4,] failed, oppath[/opt/cann/opp/built-in/op_impl/ai_core/tbe/impl/dynamic/cast.py], optype[Cast], taskID[3]. Please check op's compilation error message.[FUNC:ReportBuildErrMessage][FILE:fusion_manager.cc][LINE:368]
"""

# A plog's ERROR lines for a single-op build: the fusion compiler's node report and its task
# result first, the headline, the task bookkeeping, then the graph engine's callers.
SINGLE_OP_BUILD_IN_PLOG = """\
[ERROR] TEFUSION(20410,python):2026-04-07-11:12:13.400.100 [fusion_op.cc:5504]20533 PrintOp Failed to compile node [name StridedSlice, type StridedSlice]. Detailed compilation info is:
[ERROR] TEFUSION(20410,python):2026-04-07-11:12:13.400.180 [fusion_op.cc:5857]20533 GetFinishedCompilationTask Index[0]: taskID[2814:31], status[1], kernel[te_stridedslice_41c2_1], File[/opt/cann/opp/built-in/op_impl/ai_core/tbe/impl/dynamic/strided_slice.py], result[single op compile failed. kernel[te_stridedslice_41c2_1] module[impl.dynamic.strided_slice] func[strided_slice]], key[], core type[].
[ERROR] TEFUSION(20410,python):2026-04-07-11:12:13.400.300 [fusion_op.cc:858]20533 ReportBuildErrMessage Compile op[StridedSlice] failed, oppath[/opt/cann/opp/built-in/op_impl/ai_core/tbe/impl/dynamic/strided_slice.py], optype[StridedSlice], taskID[31]. Please check op's compilation error message.
[ERROR] FE(20410,python):2026-04-07-11:12:13.406.010 [tbe_op_store_adapter.cc:907]20533 ProcessAllFailedCompileTasks:"[SubGraphOpt][Compile][ProcFailedCompTask] Thread[2814] recompile single op[StridedSlice] failed"
[ERROR] FE(20410,python):2026-04-07-11:12:13.406.200 [op_compiler.cc:994]20533 CompileOpOnly:"[SubGraphOpt][Compile][CompOpOnly] CompileOp failed."
[ERROR] FE(20410,python):2026-04-07-11:12:13.406.300 [fe_graph_optimizer.cc:1349]20533 SubGraphCompile:"[GraphOpt][FusedGraph][RunCompile] Failed to compile graph with compiler Normal mode Op Compiler"
[ERROR] GE(20410,python):2026-04-07-11:12:13.406.400 [graph_optimize.cc:126]20533 OptimizeSubGraph: ErrorNo: 4294967295(failed) Call OptimizeFusedGraph failed, ret:-1, engine_name:AIcoreEngine, graph_name:partition0_rank1_new_sub_graph3
"""

TBE_DTYPE_CONSTRAINT = """\
[rank0]: RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is Cast.
[rank0]: [ERROR] 2026-03-05-09:10:11 (PID:7120, Device:0, RankID:-1) ERR00100 PTA call acl api failed.
[rank0]: E90003: [PID: 7120] 2026-03-05-09:10:11.204.118 Compile operator failed, cause: Template constraint, detailed information: bfloat16 of tbe.dsl.vexp is not supported.
[rank0]:         TraceBack (most recent call last):
"""

TBE_SHAPE_CONSTRAINT = TBE_DTYPE_CONSTRAINT.replace(
    "bfloat16 of tbe.dsl.vexp is not supported", "the rank of tbe.dsl.vexp input is not supported"
)

TBE_DTYPE_CONSTRAINT_BELOW_ITS_HEADLINE = """\
  0%|          | 0/412 [00:00<?, ?it/s]
RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is TransData.
[ERROR] 2024-11-05-16:20:31 (PID:30512, Device:0, RankID:-1) ERR01100 OPS call acl api failed
E90003: Compile operator failed
        float16 of tbe.dsl.vconv is not supported.
        optype: [TransData]
"""

INDUCTOR_KERNEL = """\
loading model...
ERROR:torch_npu._inductor.config:Triton compilation failed: triton_unk_fused_mul_sigmoid_2
def triton_unk_fused_mul_sigmoid_2(in_ptr0, out_ptr0, x0_numel, X0BLOCK: tl.constexpr):
    x0_offset = tl.program_id(0) * X0BLOCK
"""

KERNEL_REGISTER_REFUSED = """\
init successful!
[ERROR] [Bisheng] Kernel binary register failure! ret 107000
[ERROR] [Bisheng] Get kernel function failure! ret 100000
Traceback (most recent call last):
  File "/home/dev/kernels/run_matmul.py", line 41, in <module>
    ref = x @ w
RuntimeError: SetPrecisionMode:torch_npu/csrc/framework/LazyInitAclops.cpp:175 NPU function error: at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 107000
[ERROR] 2026-03-05-11:12:13 (PID:7410, Device:0, RankID:-1) ERR00100 PTA call acl api failed
"""

PRECISION_MODE_ALONE = """\
Traceback (most recent call last):
  File "/home/dev/kernels/run_matmul.py", line 41, in <module>
    ref = x @ w
RuntimeError: SetPrecisionMode:torch_npu/csrc/framework/LazyInitAclops.cpp:175 NPU function error: at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001
[ERROR] 2026-03-05-11:12:13 (PID:7410, Device:0, RankID:-1) ERR00100 PTA call acl api failed
"""


def test_a_capture_end_with_an_unlabelled_code_is_the_streams() -> None:
    diagnosis = diagnose_text("serve/scheduler_tp0.log", SERVING_CAPTURE_END)
    assert_reads(
        diagnosis, "stream_sync", first_error="Capture cuda graph failed", beside=("config",)
    )


def test_a_runners_glog_line_that_capture_end_failed_is_the_first_error() -> None:
    diagnosis = diagnose_text("serve/engine.log", RUNNER_GLOG_CAPTURE_END)
    assert_reads(diagnosis, "stream_sync", first_error="capture_end during cleanup failed")


def test_a_capture_that_ran_out_of_stream_queues_keeps_its_reason() -> None:
    diagnosis = diagnose_text("serve/worker_1.log", CAPTURE_BEGIN_OUT_OF_STREAM_QUEUES)
    assert_reads(diagnosis, "config", first_error="Alloc sq cq fail")


def test_a_failed_update_of_a_captured_graphs_tasks_is_the_streams() -> None:
    diagnosis = diagnose_text("server.log", GRAPH_TASK_UPDATE_END)
    assert diagnosis.category == "stream_sync"
    assert diagnosis.first_error is not None
    assert (
        "AclmdlRICaptureTaskUpdateEnd(stream), error code is 507000" in diagnosis.first_error.text
    )


def test_info_lines_about_the_capture_are_no_error() -> None:
    diagnosis = diagnose_text("serve/engine.log", INFO_ONLY_RUNNER)
    assert diagnosis.first_error is None


def test_the_earliest_subgraph_compile_step_is_the_first_error() -> None:
    diagnosis = diagnose_text("serve/engine.log", SUBGRAPH_COMPILE_RUN)
    assert_reads(diagnosis, "operator", first_error="Parse blockDim failed")


def test_a_single_op_build_headline_is_not_outranked_by_its_task_bookkeeping() -> None:
    diagnosis = diagnose_text("serve/engine.log", SINGLE_OP_BUILD_RUN)
    assert_reads(diagnosis, "operator", first_error="Compile op[trans_Cast_4,] failed")


def test_a_subgraph_step_before_a_single_op_headline_stays_first() -> None:
    diagnosis = diagnose_text("serve/engine.log", SUBGRAPH_STEP_BEFORE_SINGLE_OP_HEADLINE)
    assert_reads(diagnosis, "operator", first_error="Parse blockDim failed")


def test_the_fusion_compilers_node_report_in_a_plog_is_the_first_error() -> None:
    diagnosis = diagnose_text("plog/plog-20410_20260407111000000.log", SINGLE_OP_BUILD_IN_PLOG)
    assert_reads(
        diagnosis, "operator", first_error="PrintOp Failed to compile node [name StridedSlice"
    )


def test_the_graph_engines_callers_alone_stay_the_ops_failed_compile() -> None:
    callers = "\n".join(SINGLE_OP_BUILD_IN_PLOG.splitlines()[-2:]) + "\n"
    diagnosis = diagnose_text("plog/plog-20410_20260407111000000.log", callers)
    assert_reads(diagnosis, "operator", first_error="[GraphOpt][FusedGraph][RunCompile]")


def test_a_missing_toolkit_header_outranks_the_subgraph_compile_line() -> None:
    diagnosis = diagnose_text("serve/engine.log", SUBGRAPH_COMPILE_WITHOUT_ITS_STEP)
    assert_reads(diagnosis, "driver_env", first_error="file not found")


def test_a_tbe_dtype_constraint_offers_the_dtype_setting() -> None:
    diagnosis = diagnose_text("train/rank_0.log", TBE_DTYPE_CONSTRAINT)
    assert_reads(diagnosis, "operator", first_error="bfloat16 of tbe.dsl.vexp", beside=("config",))


def test_a_tbe_dtype_constraint_below_a_bare_headline_is_read_with_it() -> None:
    diagnosis = diagnose_text("train/rank_0.log", TBE_DTYPE_CONSTRAINT_BELOW_ITS_HEADLINE)
    assert_reads(diagnosis, "operator", first_error="float16 of tbe.dsl.vconv", beside=("config",))
    assert diagnosis.confidence >= 0.5


def test_a_tbe_constraint_without_a_dtype_offers_no_setting() -> None:
    diagnosis = diagnose_text("train/rank_0.log", TBE_SHAPE_CONSTRAINT)
    assert diagnosis.category == "operator"
    assert "config" not in {alt.category for alt in diagnosis.alternatives}


def test_an_inductor_triton_kernel_that_does_not_compile_is_the_operators() -> None:
    diagnosis = diagnose_text("train/run.log", INDUCTOR_KERNEL)
    assert_reads(diagnosis, "operator", first_error="Triton compilation failed")


def test_a_refused_kernel_binary_is_read_before_the_next_acl_call() -> None:
    diagnosis = diagnose_text("kernels/run.log", KERNEL_REGISTER_REFUSED)
    assert_reads(
        diagnosis, "operator", first_error="Kernel binary register failure", beside=("config",)
    )


def test_the_compiler_environment_alone_keeps_its_reading() -> None:
    diagnosis = diagnose_text("kernels/run.log", PRECISION_MODE_ALONE)
    assert_reads(diagnosis, "driver_env", first_error="SetPrecisionMode")


RUNNER_GLOG_UNKNOWN = """\
I20260305 10:11:10.010200 7301 warmup.cpp:88] warming up prefill request: tokens=4096
E20260305 10:11:10.311700 7301 embedding_stage.cpp:140] token embedding stage run plan fail, status 5
"""


def test_a_glog_error_line_in_unknown_words_is_cited() -> None:
    diagnosis = diagnose_text("serve/engine.log", RUNNER_GLOG_UNKNOWN)
    assert diagnosis.first_error is not None
    assert "run plan fail" in diagnosis.first_error.text


def test_the_same_words_at_info_or_warning_level_are_not() -> None:
    for letter in "IW":
        quiet = RUNNER_GLOG_UNKNOWN.replace("E20260305", f"{letter}20260305")
        assert diagnose_text("serve/engine.log", quiet).first_error is None
