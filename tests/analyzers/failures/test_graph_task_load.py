"""A compiled graph whose tasks the graph engine could not load onto the device.

docs/labelling.md#a-compiled-graph-whose-tasks-do-not-load: MindSpore wraps the failure as
`Preprocess failed before run graph N` with `Distribute Task Failed` and the engine's
`davinci_model : load task fail, return ret: <code>`. It names no task or fault, so alone it is
`other`, with `config` and `operator` beside it and below the confident band. The graph engine's
newer runtime says the same of a torchair graph a serving engine loads (`davinci model init
failed`, `Load graph failed, error code:<GE code>`), read the same way, and so does an offline
model (`.om`) an inference tool loads whose tasks cannot be set up (a detail line from the task's
init code, `Task index:N init failed`), with `config` first beside it. Values of our own in the
shapes MindSpore, a serving engine's workers and an ACL inference tool print.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

GRAPH_LOAD = """\
epoch 1 start, 1250 steps
Traceback (most recent call last):
  File "pretrain.py", line 140, in <module>
    run(net, loader)
  File "/opt/ms/lib/python3.9/site-packages/mindspore/common/api.py", line 323, in compile
    is_compile = self._graph_executor.compile(self.fn, compile_args, phase, True)
RuntimeError: Preprocess failed before run graph 2, 
error msg: Distribute Task Failed, 
error msg: davinci_model : load task fail, return ret: 1343225860

----------------------------------------------------
- C++ Call Stack: (For framework developers)
----------------------------------------------------
"""

# Counterexample: the engine reporting a load that went through.
GRAPH_LOADED = """\
davinci_model : load task success, task num: 412
Distribute task finished for graph 2
epoch 1 step 1, loss is 10.41
"""


# A tensor-parallel serving worker loading its torchair graph: GE's runtime cannot create the
# model, and the trace lines the worker relays end in the engine's API.
TORCHAIR_GRAPH_LOAD = """\
(Worker_TP1 pid=5120) ERROR 03-02 08:15:40 [multiproc_executor.py:815] RuntimeError: Inner error, see the log below.
(Worker_TP1 pid=5120) ERROR 03-02 08:15:40 [multiproc_executor.py:815]         davinci model init failed[FUNC:DavinciModelCreate][FILE:davinci_model_kernel.cc][LINE:251]
(Worker_TP1 pid=5120) ERROR 03-02 08:15:40 [multiproc_executor.py:815]         Failed to execute init graph[FUNC:Load][FILE:model_v2_executor.cc][LINE:190]
(Worker_TP1 pid=5120) ERROR 03-02 08:15:40 [multiproc_executor.py:815]         Load graph failed, error code:1343225857, session_id:3, graph_id:1, isEnableSliceSchedule:0.[FUNC:LoadGraph][FILE:ge_api.cc][LINE:990]
"""

# Counterexample: the engine reporting the graph loaded.
TORCHAIR_GRAPH_LOADED = """\
(Worker_TP1 pid=5120) INFO 03-02 08:15:40 [torchair_model_runner.py:300] Load graph success, session_id:3, graph_id:1
(Worker_TP1 pid=5120) INFO 03-02 08:15:41 [torchair_model_runner.py:310] Capturing batch sizes [1, 8, 16] done
"""


def test_a_graph_whose_tasks_do_not_load_offers_the_stack_and_a_task() -> None:
    diagnosis = diagnose_text("worker_0.log", GRAPH_LOAD)
    assert_reads(diagnosis, "other", first_error="load task fail", rule="ge.graph_task_load_failed")
    assert {"config", "operator"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_a_load_that_went_through_is_no_failure() -> None:
    diagnosis = diagnose_text("worker_0.log", GRAPH_LOADED)
    assert "ge.graph_task_load_failed" not in rules_of(diagnosis)


def test_a_torchair_graph_the_runtime_cannot_load_reads_the_same() -> None:
    diagnosis = diagnose_text("worker_tp1.log", TORCHAIR_GRAPH_LOAD)
    assert_reads(
        diagnosis,
        "other",
        first_error="davinci model init failed",
        rule="ge.graph_model_load_failed",
    )
    assert {"config", "operator"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_a_torchair_graph_that_loaded_is_no_failure() -> None:
    diagnosis = diagnose_text("worker_tp1.log", TORCHAIR_GRAPH_LOADED)
    assert "ge.graph_model_load_failed" not in rules_of(diagnosis)


# An inference tool loading an offline model (.om) through ACL: the graph engine cannot set up
# the model's first task (a stream index the model asks for that the device's stream list does
# not hold), then the load is reported up to the tool, which gives up on the file.
OFFLINE_MODEL_LOAD = """\
[INFO] acl init success
[INFO] open device 1 success
E19999: Inner Error!
E19999 index:2 > stream_list.size(): 1, check invalid[FUNC:SetStream][FILE:task_info.cc][LINE:31]
        TraceBack (most recent call last):
        Task index:4 init failed, ret:-1.[FUNC:InitTaskInfo][FILE:davinci_model.cc][LINE:3610]
        [Model][FromData]load model from data failed, ge result[4294967295][FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
[ERROR] load model from file failed, model file is /data/models/det_bs8.om
[WARN] no model had been loaded, unload failed
RuntimeError: [1][ACL: invalid parameter]
"""

# Counterexample: the same tool loading the model and running it.
OFFLINE_MODEL_LOADED = """\
[INFO] acl init success
[INFO] open device 1 success
[INFO] load model /data/models/det_bs8.om success
[INFO] create model description success
[INFO] unload model success, model Id is 1
"""


def test_an_offline_model_whose_tasks_do_not_load_offers_the_build_and_a_task() -> None:
    diagnosis = diagnose_text("benchmark.log", OFFLINE_MODEL_LOAD)
    assert_reads(
        diagnosis,
        "other",
        first_error="stream_list.size()",
        rule="ge.offline_model_load_failed",
    )
    labels = [alt.category for alt in diagnosis.alternatives]
    assert labels[:1] == ["config"]
    assert "operator" in labels
    assert diagnosis.confidence < 0.8


def test_an_offline_model_that_loaded_is_no_failure() -> None:
    diagnosis = diagnose_text("benchmark.log", OFFLINE_MODEL_LOADED)
    assert "ge.offline_model_load_failed" not in rules_of(diagnosis)
