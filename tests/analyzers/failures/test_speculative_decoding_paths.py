"""Speculative decoding on NPU serving engines: two refusals that are set-up, not the call.

A decode-only full-graph mode meeting speculative decoding's verify batches makes the
graph-capture path refuse the batch state it was not written for; the release lacks the pair
of features (docs/labelling.md#engine-features-that-do-not-combine). The graph engine finding
no host function registered for a built-in op type is the op package's missing host half,
like aclnn's missing tiling function
(docs/labelling.md#operator-installation-or-platform-limit). A local variable that the
path taken never assigned is a plain code bug, `other` with `config` beside it. Values of our
own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

CAPTURE_WORKERS = """\
(Worker_DP0_TP1_EP1 pid=30412) ERROR 05-11 08:03:27 [multiproc_executor.py:824]     self._capture_model()
(Worker_DP1_TP2_EP6 pid=30518) ERROR 05-11 08:03:27 [multiproc_executor.py:824]   File "/srv/plugin/attention/backend.py", line 301, in build_for_graph_capture
(Worker_DP0_TP3_EP3 pid=30466) ERROR 05-11 08:03:27 [multiproc_executor.py:824] NotImplementedError: Currently we only support building dummy metadata for DecodeOnly state
(Worker_DP1_TP0_EP4 pid=30490) ERROR 05-11 08:03:27 [multiproc_executor.py:824]     raise NotImplementedError(
(Worker_DP1_TP3_EP7 pid=30533) ERROR 05-11 08:03:27 [multiproc_executor.py:824]     raise NotImplementedError(
"""


def test_a_capture_path_refusing_the_spec_decode_batch_state_is_the_feature_pair() -> None:
    diagnosis = diagnose_files({"serve.log": CAPTURE_WORKERS})
    assert_reads(
        diagnosis,
        "config",
        first_error="only support building dummy metadata for DecodeOnly state",
        rule="cfg.engine_path_only_for_state",
        beside=("other",),
    )


def test_a_kernel_dtype_limit_in_a_mode_is_not_the_feature_pair() -> None:
    diagnosis = diagnose_text(
        "worker.log",
        "NotImplementedError: npu_demo_attention only supports float16 in decode mode\n",
    )
    assert "cfg.engine_path_only_for_state" not in rules_of(diagnosis)


def test_a_capture_fallback_warning_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "worker.log",
        "WARNING 05-11 08:03:20 [graph.py:77] Currently we only support full graphs in decode "
        "mode; falling back to piecewise capture.\n",
    )
    assert "cfg.engine_path_only_for_state" not in rules_of(diagnosis)


GE_TILING_PARSE = """\
[ERROR] GE(41207,python):2026-02-09-13:05:44.210.516 [tiling.cc:312]41288 BuildTilingParseOutputs: ErrorNo: 1343225857(Parameter invalid!) Failed to find func by type Cast, func_name compile_info_creator
[ERROR] GE(41207,python):2026-02-09-13:05:44.210.533 [execution_data_builder.cc:49]41288 CreateKernelOutputs: ErrorNo: 4294967295(failed) Failed to create output for node TilingParse_trans_Cast_0_17 type TilingParse
"""


def test_the_graph_engine_finding_no_host_function_for_an_op_type_is_the_package() -> None:
    diagnosis = diagnose_files({"drafter.log": GE_TILING_PARSE})
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Failed to find func by type Cast",
        rule="env.op_kernel_binary_missing",
        beside=("operator",),
    )


def test_torch_npu_missing_runtime_entry_point_is_not_the_graph_engine_lookup() -> None:
    diagnosis = diagnose_text(
        "rank0.log",
        "[W AclInterface.cpp:172] Warning: 0Failed to find function aclrtSetOpExecuteTimeOut "
        "(function operator())\n",
    )
    assert "env.op_kernel_binary_missing" not in rules_of(diagnosis)


SCHEDULER_TRACEBACK = """\
[2026-03-02 08:10:44 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/engine/layers/logits.py", line 512, in forward
    merged = torch.cat(aux_states, dim=-1)
                       ^^^^^^^^^^
UnboundLocalError: cannot access local variable 'aux_states' where it is not associated with a value
"""


def test_a_local_variable_no_branch_set_is_a_code_bug() -> None:
    # docs/labelling.md#a-local-variable-read-before-any-branch-set-it
    diagnosis = diagnose_files({"server.log": SCHEDULER_TRACEBACK})
    assert_reads(
        diagnosis,
        "other",
        first_error="cannot access local variable 'aux_states'",
        rule="framework.local_variable_unbound",
        beside=("config",),
    )


# A nested function reading a name of the function around it that the path taken never set: a
# launcher's signal handler that uses the command only the multi-node branch builds. Python 3.10
# words it as a free variable of the enclosing scope.
SIGNAL_HANDLER_TRACEBACK = """\
[2026-03-02 08:10:44,101] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4120
  File "/opt/venv/lib/python3.10/site-packages/demo_launcher/runner.py", line 612, in sigkill_handler
    stopper = subprocess.Popen(stop_cmd, env=env)
NameError: free variable 'stop_cmd' referenced before assignment in enclosing scope
"""


def test_a_free_variable_the_enclosing_scope_never_set_is_the_same_bug() -> None:
    # docs/labelling.md#a-local-variable-read-before-any-branch-set-it
    diagnosis = diagnose_text("launcher.log", SIGNAL_HANDLER_TRACEBACK)
    assert_reads(
        diagnosis,
        "other",
        first_error="free variable 'stop_cmd' referenced before assignment",
        rule="framework.local_variable_unbound",
        beside=("config",),
    )


def test_python_311_words_the_free_variable_its_own_way() -> None:
    line = (
        "NameError: cannot access free variable 'stop_cmd' where it is not associated with a "
        "value in enclosing scope\n"
    )
    diagnosis = diagnose_text("launcher.log", line)
    assert "framework.local_variable_unbound" in rules_of(diagnosis)


def test_a_name_that_does_not_exist_is_not_an_unbound_local() -> None:
    diagnosis = diagnose_text("server.log", "NameError: name 'aux_states' is not defined\n")
    assert "framework.local_variable_unbound" not in rules_of(diagnosis)
