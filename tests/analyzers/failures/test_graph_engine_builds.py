"""Graph-engine builds driven by an inference library or a custom-op project, and torch_npu's
check of a graph capture's state.

- The fusion engine that cannot load the toolkit's plugins while GE starts is the toolkit's
  environment, not an op that failed to compile.
  docs/labelling.md#the-operator-compilers-environment-does-not-start
- A library that does not know the status GE's IR build returned was built for another CANN.
  docs/labelling.md#the-operator-compilers-environment-does-not-start
- An op prototype's verify refusal in the plog is the op refusing the node, with the caller's
  tensors beside it. docs/labelling.md#shape-inference-that-finds-the-inputs-disagree
- GE's build headline alone (`Graph manager build graph failed`) is the graph's ops that did not
  build, below the confident band; a node's verify refusal printed with it is the reason and
  leads. docs/labelling.md#shape-inference-that-finds-the-inputs-disagree
- torch_npu's assertion that a capture is active is a capture-state failure.
  docs/labelling.md#calls-refused-during-graph-capture
- An Ascend C op project whose op generator step fails under make is releases that do not fit.
  docs/labelling.md#an-extension-built-against-headers-that-do-not-fit
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# The fusion engine's start on an edge card: the op plugins of the installed opp tree do not
# load, then the fusion-pass directory cannot be opened.
FE_PLUGINS_DO_NOT_LOAD = """\
[EVENT] DVPP(20418,infer):2026-05-06-10:11:12.100.200 [dvpp_engine.cc:79][ENGINE][GetGraphOptimizerObjs:79][tid:20418]dvpp graph optimizer do not support
[ERROR] FE(20418,infer):2026-05-06-10:11:13.004.118 [plugin_manager.cc:62]20418 OpenPlugin:"[FEInit][OpPluginSo] Fail to load so file /opt/cann/6.3/arm64-linux/opp/fusion_pass/built_in/libops_fusion_pass_aicore.so, error message is (null)."
[ERROR] FE(20418,infer):2026-05-06-10:11:13.004.260 [fusion_pass_manager.cc:164]20418 OpenPassPath:"[GraphOpt][Init][OpenPassPath] Failed to open the fusion pass so [/opt/cann/6.3/arm64-linux/opp/fusion_pass/built_in/libops_fusion_pass_aicore.so]."
"""

# Counterexample: a compile step of a subgraph failed; the op is what did not build.
SUBGRAPH_COMPILE_STEP_FAILS = """\
[ERROR] FE(20418,python):2026-05-06-10:11:13.004.118 [op_compiler_normal.cc:86]20418 ReCompileWithNoFusionStrategy:"[SubGraphOpt][Compile][Normal] Failed to parse json or compress op for graph[partition0_rank1_new_sub_graph3]."
"""


def test_plugins_the_fusion_engine_cannot_load_are_the_toolkit() -> None:
    diagnosis = diagnose_text("infer/plog.log", FE_PLUGINS_DO_NOT_LOAD)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="[FEInit][OpPluginSo] Fail to load so file",
        beside=("config",),
    )


def test_a_failed_subgraph_compile_step_stays_the_operator() -> None:
    diagnosis = diagnose_text("infer/plog.log", SUBGRAPH_COMPILE_STEP_FAILS)
    assert diagnosis.category == "operator"


# An inference library's Ascend driver builds its model with GE's IR API and does not know the
# code it gets back; its device lookup and uncaught exception follow.
LIBRARY_DOES_NOT_KNOW_THE_CODE = """\
[F  5/ 6 10:11:12.300 ...nnadapter/driver/ascend/utility.cc:230 BuildOMModelToBuffer] Check failed: (reinterpret_cast<ge::graphStatus>(aclgrphBuildModel(ir_graph, options, om_buffer)) == ge::GRAPH_SUCCESS): 1343266830!==0 1343266830 Unknown ATC error code(1343266830)

[F  5/ 6 10:11:12.301 ...nnadapter/runtime/compilation.cc:80 ~Compilation] Check failed: device_context: No device found.

terminate called after throwing an instance of 'nnadapter::logging::NNAdapterException'
  what():  NNAdapter C++ Exception:
"""

# Counterexample: the same library's uncaught exception alone names no release.
UNCAUGHT_EXCEPTION_ALONE = """\
terminate called after throwing an instance of 'nnadapter::logging::NNAdapterException'
  what():  NNAdapter C++ Exception:
"""


def test_a_status_the_library_does_not_know_is_a_release_mismatch() -> None:
    diagnosis = diagnose_text("demo/run.log", LIBRARY_DOES_NOT_KNOW_THE_CODE)
    assert_reads(diagnosis, "config", first_error="Unknown ATC error code(1343266830)")
    assert {"driver_env", "operator"} <= {alt.category for alt in diagnosis.alternatives}


def test_an_uncaught_exception_alone_is_no_release_mismatch() -> None:
    diagnosis = diagnose_text("demo/run.log", UNCAUGHT_EXCEPTION_ALONE)
    assert diagnosis.category != "config"


# GE's shape inference on a graph an inference library built: the Conv2D prototype refuses a
# node whose input has no shape, and GE's pass chain restates it.
PROTO_VERIFY_REFUSES_A_NODE = """\
[ERROR] TBE(30117,infer):2026-05-06-10:11:12.400.100 [nn_calculation_ops.cc:3921][OP_PROTO] Conv2DVerify:3921 OpName:[conv_5_0x55aa10] "input x shape is empty."
[ERROR] GE(30117,infer):2026-05-06-10:11:12.400.188 [shape_refiner.cc:730]30117 InferShapeAndType: ErrorNo: -1(failed) [COMP][PRE_OPT]Verifying conv_5_0x55aa10 failed.
[ERROR] GE(30117,infer):2026-05-06-10:11:12.400.301 [infershape_pass.cc:42]30117 Run: ErrorNo: 1343242270(Prepare Graph infershape failed) [COMP][PRE_OPT]infershape failed. node: conv_5_0x55aa10
"""

# Counterexample: an InferShape check that names two dimensions that disagree is the caller's
# tensors, as before.
INFERSHAPE_DIMS_DISAGREE = """\
[ERROR] GE(30117,infer):2026-05-06-10:11:12.400.100 [infershape.cc:88]30117 [InferShape] shapes of input x and input y do not match
"""


def test_a_prototype_verify_refusal_is_the_op_refusing_the_node() -> None:
    diagnosis = diagnose_text("infer/plog.log", PROTO_VERIFY_REFUSES_A_NODE)
    assert_reads(diagnosis, "operator", first_error="Conv2DVerify:3921", beside=("shape_mismatch",))


def test_an_infershape_check_naming_dimensions_stays_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("infer/plog.log", INFERSHAPE_DIMS_DISAGREE)
    assert diagnosis.category == "shape_mismatch"


# An inference demo builds its model through GE's IR API and the build stops; the paste kept
# only the engine's headlines, not the stage that failed.
GE_BUILD_HEADLINES_ALONE = """\
[EVENT] GE(7311,det_demo):2026-05-06-10:11:12.300.010 [graph_manager.cc:919]7311 PreRun:PreRun start: graph node size 210, session id 1, graph id 1, graph name graph
[ERROR] GE(7311,det_demo):2026-05-06-10:11:12.410.220 [ge_generator.cc:630]7311 GenerateModel: ErrorNo: 1343266819(Graph manager build graph failed.) [COMP][DEFAULT]Build model failed.
[ERROR] GE(7311,det_demo):2026-05-06-10:11:12.410.480 [ge_ir_build.cc:540]7311 BuildModel: ErrorNo: 1343266819(Graph manager build graph failed.) [COMP][DEFAULT]GenerateOnlineModel failed!
"""

# The same build with the node's verify refusal before the headlines: the refusal leads.
GE_BUILD_AFTER_A_VERIFY_REFUSAL = """\
[ERROR] TBE(7311,det_demo):2026-05-06-10:11:12.400.100 [nn_calculation_ops.cc:3921][OP_PROTO] Conv2DVerify:3921 OpName:[conv_9] "input filter shape is empty."
[ERROR] GE(7311,det_demo):2026-05-06-10:11:12.410.220 [ge_generator.cc:630]7311 GenerateModel: ErrorNo: 1343266819(Graph manager build graph failed.) [COMP][DEFAULT]Build model failed.
"""


def test_a_graph_build_headline_alone_is_the_ops_that_did_not_build() -> None:
    diagnosis = diagnose_text("demo/plog.log", GE_BUILD_HEADLINES_ALONE)
    assert_reads(
        diagnosis, "operator", first_error="Build model failed.", rule="op.ge_graph_build_failed"
    )
    assert {"driver_env", "config"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_a_verify_refusal_leads_the_graph_build_headline() -> None:
    diagnosis = diagnose_text("demo/plog.log", GE_BUILD_AFTER_A_VERIFY_REFUSAL)
    assert_reads(diagnosis, "operator", first_error="Conv2DVerify:3921")


# A serving engine's start in graph mode: torch_npu asserts that a capture is active.
CAPTURE_STATE_ASSERT = """\
ERROR 05-06 10:11:12 [core.py:590] RuntimeError: status == aclmdlRICaptureStatus::ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE INTERNAL ASSERT FAILED at "build/CMakeFiles/torch_npu.dir/compiler_depend.ts":170, please report a bug to PyTorch.
Process EngineCore_0:
Traceback (most recent call last):
  File "/usr/lib/python3.11/multiprocessing/process.py", line 314, in _bootstrap
    self.run()
"""

# Counterexample: an internal assert of the process group names no capture.
OTHER_INTERNAL_ASSERT = """\
RuntimeError: world_size > 0 INTERNAL ASSERT FAILED at "../torch/csrc/distributed/c10d/ProcessGroup.cpp":52, please report a bug to PyTorch.
"""


def test_an_assert_on_the_capture_state_is_a_capture_failure() -> None:
    diagnosis = diagnose_text("engine/core.log", CAPTURE_STATE_ASSERT)
    assert_reads(
        diagnosis,
        "stream_sync",
        first_error="ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE",
        beside=("config",),
    )


def test_another_internal_assert_is_no_capture_failure() -> None:
    diagnosis = diagnose_text("engine/core.log", OTHER_INTERNAL_ASSERT)
    assert diagnosis.category != "stream_sync"


# An Ascend C custom-op project built with pip: the op generator fails for two ops; only
# make's report was kept.
OPBUILD_GENERATOR_FAILS = """\
/src/plugin/csrc/fused_norm/op_host/fused_norm_def.cpp:40:50: warning: conversion from 'double' to 'float' changes value from '1.0000000000000001e-5' to '9.99999975e-6f' [-Wfloat-conversion]
  make[3]: *** [CMakeFiles/opbuild_gen_exc.dir/build.make:77: /src/plugin/csrc/build/autogen/exc/fused_topk_custom_proto.cpp] Error 1
  make[2]: *** [CMakeFiles/Makefile2:801: CMakeFiles/opbuild_gen_exc.dir/all] Error 2
  make[2]: *** Waiting for unfinished jobs....
  make[3]: *** [CMakeFiles/opbuild_gen_default.dir/build.make:82: /src/plugin/csrc/build/autogen/aclnn_fused_norm.cpp] Error 1
"""

# Counterexample: the compiler names an undeclared name of the kernel's own code before make's
# report; that error decides and stays the kernel source's.
KERNEL_SOURCE_ERROR_BEFORE_MAKE = """\
/src/plugin/csrc/fused_norm/op_kernel/fused_norm.cpp:88:9: error: use of undeclared identifier 'tileLength'
1 error generated.
  make[3]: *** [CMakeFiles/opbuild_gen_default.dir/build.make:82: /src/plugin/csrc/build/autogen/aclnn_fused_norm.cpp] Error 1
"""


def test_the_first_failed_op_generator_step_is_a_release_mismatch() -> None:
    diagnosis = diagnose_text("build/pip.log", OPBUILD_GENERATOR_FAILS)
    assert_reads(diagnosis, "config", first_error="opbuild_gen_exc.dir/build.make:77")


def test_a_compiler_error_before_the_generator_step_decides() -> None:
    diagnosis = diagnose_text("build/pip.log", KERNEL_SOURCE_ERROR_BEFORE_MAKE)
    assert_reads(diagnosis, "operator", first_error="undeclared identifier 'tileLength'")
