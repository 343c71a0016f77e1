"""Serving set-ups that fail before or while the engine starts: a cluster node without an
accelerator resource, graph capture running out of streams (named as queue pairs, or as
streams by EL0009 and 207008), and a logger that prints only the
quoted key of a KeyError as the headline of a weight-loading traceback.

The fixtures follow the shapes vLLM-on-Ascend prints (process-name prefixes, the v0 engine's
``ERROR <date> <time> [file:line]`` prefix, tracebacks under it) with values and wording of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of


def test_a_cluster_node_without_npu_resource_is_a_set_up_error() -> None:
    prefix = "(EngineCore_DP0 pid=5120) "
    text = (
        prefix
        + "ERROR 03-02 10:11:12 [core.py:700] EngineCore failed to start.\n"
        + prefix
        + "ERROR 03-02 10:11:12 [core.py:700] ValueError: Current node has no NPU available. "
        "current_node_resource={'CPU': 64.0, 'GPU': 8.0, 'memory': 1.0e12}. vLLM engine cannot "
        "start without NPU.\n"
        + prefix
        + "Process EngineCore_DP0:\n"
        + prefix
        + "Traceback (most recent call last):\n"
        + prefix
        + '  File "/opt/vllm/vllm/v1/engine/core.py", line 690, in run_engine_core\n'
        + prefix
        + "    raise e\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert_reads(diagnosis, "config", first_error="has no NPU available")


def test_graph_capture_out_of_streams_is_a_capture_size_problem() -> None:
    prefix = "(Worker_TP3 pid=7001) ERROR 11-04 08:00:01 [model_runner_v1.py:3400] "
    text = (
        "(EngineCore_DP0 pid=6900) INFO 11-04 07:59:01 [shm_broadcast.py:466] No available "
        "shared memory broadcast block found in 60 seconds.\n"
        + prefix
        + "NPUGraph sizes capture fail: RuntimeError:\n"
        + prefix
        + "NPUGraph has insufficient available streams to capture the configured "
        "number of sizes. Reduce the number of capture sizes.\n" + prefix + "\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert_reads(diagnosis, "config", first_error="capture")
    assert "shm_broadcast" not in diagnosis.first_error.text


CAPTURE_BEGIN_WITHOUT_STREAM_QUEUE = """\
RuntimeError: Worker failed with error 'NPUModelRunner init failed, error is capture_begin:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:209 NPU function error: c10_npu::acl::AclmdlRICaptureBegin(capture_stream_, capture_mode), error code is 207005
(EngineCore pid=7310) [ERROR] 2026-08-02-13:05:44 (PID:7322, Device:1, RankID:-1) ERR00100 PTA call acl api failed
(EngineCore pid=7310) [Error]: Failed to apply for memory.
(EngineCore pid=7310)         Check the remaining storage space in the hardware environment.
(EngineCore pid=7310) EE9999: Inner Error!
(EngineCore pid=7310) EE9999[PID: 7322] 2026-08-02-13:05:44.620.913 (EE9999):  [SqCqManage]Alloc sq cq fail, stream_id=1990, retCode=0x7020023.[FUNC:Setup][FILE:stream.cc][LINE:402]
"""


def test_a_stream_the_device_has_no_queue_for_is_a_settings_problem() -> None:
    diagnosis = diagnose_text("issue/serve.log", CAPTURE_BEGIN_WITHOUT_STREAM_QUEUE)
    assert_reads(diagnosis, "config", first_error="Alloc sq cq fail", beside=("oom",))


def test_a_resource_failure_code_alone_does_not_say_streams_ran_out() -> None:
    wrapper_only = CAPTURE_BEGIN_WITHOUT_STREAM_QUEUE.split("(EngineCore pid=7310) EE9999: Inner")[
        0
    ]
    diagnosis = diagnose_text("issue/serve.log", wrapper_only)
    assert diagnosis.category != "config"


def test_a_quoted_weight_name_heading_a_traceback_is_a_missing_weight() -> None:
    prefix = "ERROR 02-17 09:30:41 [engine.py:410] "
    text = (
        prefix
        + "'model.layers.3.self_attn.o_proj.weight'\n"
        + prefix
        + "Traceback (most recent call last):\n"
        + prefix
        + '  File "/opt/vllm/vllm/engine/multiprocessing/engine.py", line 400, in run\n'
        + prefix
        + "    engine = MQLLMEngine.from_vllm_config(\n"
        + prefix
        + '  File "/opt/vllm/vllm/executor/executor_base.py", line 52, in __init__\n'
        + prefix
        + "    self._init_executor()\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert_reads(diagnosis, "weight_load", first_error="'model.layers.3.self_attn.o_proj.weight'")


def test_a_quoted_config_key_alone_is_not_read_as_a_weight() -> None:
    prefix = "ERROR 02-17 09:30:41 [engine.py:410] "
    text = (
        prefix
        + "'rope_scaling'\n"
        + prefix
        + "Traceback (most recent call last):\n"
        + prefix
        + '  File "/opt/vllm/vllm/config.py", line 300, in __init__\n'
    )
    assert diagnose_text("issue/serve.log", text).category != "weight_load"


def test_a_missing_device_context_left_alone_points_at_the_device_set_up() -> None:
    prefix = "(Worker_TP1 pid=2201) ERROR 04-09 12:00:05 [multiproc_executor.py:500] "
    text = (
        prefix + "        The argument is invalid.Reason: rtGetDevMsg execute failed, "
        "reason=[context pointer null]\n"
        + prefix
        + "\n"
        + "(Worker_TP2 pid=2202) ERROR 04-09 12:00:05 [multiproc_executor.py:500] "
        "WorkerProc failed to start.\n"
        + "(Worker_TP2 pid=2202) ERROR 04-09 12:00:05 [multiproc_executor.py:500] "
        "Traceback (most recent call last):\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert_reads(diagnosis, "driver_env", first_error="context pointer null")


SHORTAGE_HEADLINE = """\
(EngineCore_0 pid=8120) ERROR 03-11 04:05:06 [core.py:632] RuntimeError: capture_begin:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:156 NPU function error: c10_npu::acl::AclmdlRICaptureBegin(capture_stream_, capture_mode), error code is 207005
(EngineCore_0 pid=8120) ERROR 03-11 04:05:06 [core.py:632] [ERROR] 2026-03-11-04:05:06 (PID:8120, Device:2, RankID:-1) ERR00100 PTA call acl api failed
(EngineCore_0 pid=8120) ERROR 03-11 04:05:06 [core.py:632] [Error]: Failed to apply for memory.
(EngineCore_0 pid=8120) ERROR 03-11 04:05:06 [core.py:632] EL0006: [PID: 8120] 2026-03-11-04:05:06.511.042 The resources are insufficient.
"""

SHORTAGE_TRACEBACK = """\
(EngineCore_0 pid=8120) ERROR 03-11 04:05:06 [core.py:632]         [SqCqManage]Alloc sq cq fail, stream_id=2002, retCode=0x7020023.[FUNC:Setup][FILE:stream.cc][LINE:655]
(EngineCore_0 pid=8120) ERROR 03-11 04:05:06 [core.py:632]         rtStreamBeginCapture execute failed, reason=[driver error:resource alloc fail][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
"""


def test_a_resource_shortage_headline_yields_to_the_stream_queue_line() -> None:
    """docs/labelling.md#device-streams-run-out"""
    diagnosis = diagnose_text("issue/serve.log", SHORTAGE_HEADLINE + SHORTAGE_TRACEBACK)
    assert_reads(diagnosis, "config", first_error="Alloc sq cq fail", beside=("oom",))


def test_a_resource_shortage_headline_alone_stays_the_first_error() -> None:
    """docs/labelling.md#device-streams-run-out"""
    diagnosis = diagnose_text("issue/serve.log", SHORTAGE_HEADLINE)
    assert diagnosis.first_error is not None
    assert "The resources are insufficient" in diagnosis.first_error.text


PLOG_QUEUE_REFUSED = """\
[ERROR] DRV(5120,):2026-02-03-04:05:06.700.100 [drv_share_log.c:238][ascend][curpid:5120,5120][drv][tsdrv][share_log_read_in_single_module]Alloc chan failed. (devid=1; tsid=0; type=0; cur_sq_num=150; cur_cq_num=150; ret=-28)
[ERROR] RUNTIME(5120,):2026-02-03-04:05:06.700.190 [npu_driver.cc:1065]5120 NormalSqCqAllocate:[drv api] halSqCqAllocate failed: device_id=1, drvRetCode=14!
[ERROR] RUNTIME(5120,):2026-02-03-04:05:06.700.230 [stream_sqcq_manage.cc:79]5120 AllocStreamSqCq:[SqCqManage]Alloc sq cq fail, stream_id=1102, retCode=0x7020023.
[ERROR] RUNTIME(5120,):2026-02-03-04:05:06.700.260 [context.cc:2707]5120 StreamCreate:Setup stream failed, retCode=0x7020023.
"""


def test_the_drivers_own_record_of_the_queue_shortage_is_read_first() -> None:
    """docs/labelling.md#device-streams-run-out"""
    diagnosis = diagnose_text("plog/plog-5120_20260203040506.log", PLOG_QUEUE_REFUSED)
    assert_reads(diagnosis, "config", first_error="Alloc chan failed")


def test_a_driver_channel_refusal_of_another_kind_is_not_a_queue_shortage() -> None:
    """docs/labelling.md#device-streams-run-out"""
    text = (
        "[ERROR] DRV(5120,):2026-02-03-04:05:06.700.100 [hdc.c:88][ascend][drv] "
        "Alloc chan failed. (session=3; ret=-5)\n"
    )
    diagnosis = diagnose_text("plog/plog-5120_20260203040506.log", text)
    assert diagnosis.category != "config"


# docs/labelling.md#a-front-end-that-waits-for-its-engines
FRONT_END_GAVE_UP = """\
(ApiServer_0 pid=6610)   File "/opt/vllm/vllm/v1/engine/core_client.py", line 512, in __init__
(ApiServer_0 pid=6610)     raise TimeoutError("Timed out waiting for engines to send"
(ApiServer_0 pid=6610) TimeoutError: Timed out waiting for engines to sendinitial message on input socket.
(ApiServer_1 pid=6611) Process ApiServer_1:
(ApiServer_1 pid=6611) Traceback (most recent call last):
"""


def test_a_front_end_that_gave_up_on_its_engines_is_a_start_up_stall() -> None:
    diagnosis = diagnose_text("issue/api.log", FRONT_END_GAVE_UP)
    assert_reads(diagnosis, "hang", first_error="Timed out waiting for engines", beside=("hccl",))


def test_an_engine_error_before_the_wait_is_the_first_error() -> None:
    engine = (
        "(EngineCore_DP1 pid=6702) ERROR 05-02 10:00:01 [core.py:700] ValueError: Current node "
        "has no NPU available. current_node_resource={'CPU': 32.0}. vLLM engine cannot start "
        "without NPU.\n"
    )
    diagnosis = diagnose_text("issue/api.log", engine + FRONT_END_GAVE_UP)
    assert_reads(diagnosis, "config", first_error="has no NPU available")


# A multi-stage server (vLLM-Omni) waits for each stage to report ready; its orchestrator
# counts the stages that did. Our own values.
STAGES_NOT_READY = """\
WARNING 02-03 11:20:45 [omni.py:326] [Orchestrator] Initialization timeout: 1/2 stages ready. Missing stages: [1]
ERROR 02-03 11:20:45 [omni.py:340] [Orchestrator] Stage initialization failed. Troubleshooting Steps:
ERROR 02-03 11:20:45 [omni.py:340]   1) Verify GPU/device assignment in config (runtime.devices) is correct.
"""


def test_stages_that_never_reported_ready_are_a_start_up_stall() -> None:
    diagnosis = diagnose_text("issue/omni.log", STAGES_NOT_READY)
    assert_reads(diagnosis, "hang", first_error="1/2 stages ready", beside=("config",))


def test_a_stage_error_before_the_count_is_the_first_error() -> None:
    stage = (
        "ERROR 02-03 11:19:02 [stage_runtime.py:254] ValueError: Stage 1 requires 4 device(s)"
        " based on parallel_config, but 2 device(s) are available: ['0', '1']\n"
    )
    diagnosis = diagnose_text("issue/omni.log", stage + STAGES_NOT_READY)
    assert diagnosis.first_error is not None
    assert "requires 4 device(s)" in diagnosis.first_error.text


def test_a_count_with_every_stage_ready_is_no_stall() -> None:
    text = (
        "WARNING 02-03 11:20:45 [omni.py:326] [Orchestrator] Initialization timeout: 2/2 stages"
        " ready. Missing stages: []\n"
    )
    diagnosis = diagnose_text("issue/omni.log", text)
    assert diagnosis.first_error is None or "stages ready" not in diagnosis.first_error.text


def test_a_stages_wait_on_its_worker_behind_the_stage_tag_leads_the_count() -> None:
    """The stage's own engine logs its wait on a worker behind vLLM-Omni's stage tag; read
    through the tag, that earlier wait is the first sign of the same stall."""
    wait = (
        "[Stage-1] INFO 02-03 11:18:45 [shm_broadcast.py:501] No available shared memory"
        " broadcast block found in 60 seconds.\n"
    )
    diagnosis = diagnose_text("issue/omni.log", wait + STAGES_NOT_READY)
    assert_reads(diagnosis, "hang", first_error="shared memory broadcast")


# the shortage named as streams (EL0009, 207008) rather than as queue pairs; our own values
CAPTURE_BEGIN_NO_STREAM_LEFT = """\
capture_begin:../torch_npu/csrc/core/npu/NPUGraph.cpp:230 NPU function error: c10_npu::acl::AclmdlRICaptureBegin(capture_stream_, capture_mode), error code is 207008
[ERROR] 2026-05-06-07:08:09 (PID:31200, Device:2, RankID:-1) ERR00100 PTA call acl api failed
[Error]: Stream resources are insufficient.
        Check whether the number of streams meets the requirements by referring to the description of the acl.rt.create_stream interface.
[PID: 31200] 2026-05-06-07:08:09.441.210 Insufficient_Stream_Resources(EL0009): The stream resources are insufficient.
        Solution: Close applications not in use.
        TraceBack (most recent call last):
        rtStreamBeginCapture execution failed, reason=driver error:no stream resource[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:65]
        begin capture stream failed, runtime result = 207008[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]
"""


def test_a_capture_that_finds_no_stream_left_is_a_settings_problem() -> None:
    diagnosis = diagnose_text("issue/serve.log", CAPTURE_BEGIN_NO_STREAM_LEFT)
    assert_reads(diagnosis, "config", first_error="EL0009")
    alternatives = alternative_labels(diagnosis)
    assert "stream_sync" in alternatives
    assert "oom" not in alternatives


def test_a_driver_refusal_of_another_kind_is_not_a_stream_shortage() -> None:
    text = (
        "RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:466 "
        "NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507033\n"
        "EE9999: Inner Error!\n"
        "        rtGetDevMsg execution failed, reason=driver error:no valid device"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:65]\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert diagnosis.category != "config"


# docs/labelling.md#config-driver_env-or-weight_load
BACKENDS_THAT_DO_NOT_COMBINE = """\
[2026-04-02 11:20:31 DP2 TP2 EP2] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/sglang/python/sglang/srt/layers/moe/moe_runner/runner.py", line 74, in __init__
    raise NotImplementedError(
NotImplementedError: Runner backend MoeRunnerBackend.TRITON_KERNELS requires a fused func for a2a backend mooncake, but none is registered.
"""

COLLECTIVE_THE_BACKEND_LACKS = """\
[rank1]: NotImplementedError: backend gloo does not support reduce_scatter
"""


def test_two_backends_the_framework_cannot_pair_are_the_jobs_settings() -> None:
    diagnosis = diagnose_text("decode_w0.out", BACKENDS_THAT_DO_NOT_COMBINE)
    assert_reads(diagnosis, "config", first_error="requires a fused func for a2a backend")


def test_a_backend_lacking_one_collective_is_not_read_as_a_backend_pair() -> None:
    diagnosis = diagnose_text("train.log", COLLECTIVE_THE_BACKEND_LACKS)
    assert all(item.rule != "cfg.backend_combination_unsupported" for item in diagnosis.evidence)


# docs/labelling.md#a-remote-call-that-ran-past-its-deadline
RPC_DRIVER_GAVE_UP = """\
INFO driver: rpc up with 4 workers
Traceback (most recent call last):
  File "/srv/toy/serve.py", line 252, in rpc_proc
    f.wait()
RuntimeError: RPCErr:1:RPC ran for more than set timeout (10000 ms) and will now be marked with an error
ERROR driver: request 0 failed
[rank3]:[W1204 16:22:20.163840307 tensorpipe_agent.cpp:723] RPC agent for worker3 encountered \
error when reading incoming request from driver: eof (this error originated at \
tensorpipe/transport/shm/connection_impl.cc:259)
"""


def test_an_rpc_call_that_ran_past_its_timeout_is_a_stall() -> None:
    diagnosis = diagnose_text("serve/driver.log", RPC_DRIVER_GAVE_UP)
    assert_reads(
        diagnosis, "hang", first_error="RPC ran for more than set timeout", beside=("hccl",)
    )


# docs/labelling.md#a-model-server-whose-backend-is-not-there
# Triton's model table after a load in which the models' backend was not installed. Our own
# model names and paths, the server's table shape.
BACKEND_NOT_INSTALLED = """\
I0412 08:01:09.001122 1 server.cc:662]
+-------------+---------+---------------------------------------------------------------------+
| Model       | Version | Status                                                              |
+-------------+---------+---------------------------------------------------------------------+
| classifier  | 1       | READY                                                               |
| tokenizer   | 1       | UNAVAILABLE: Internal: failed to stat file /srv/triton/backends/python |
+-------------+---------+---------------------------------------------------------------------+
error: creating server: Internal - failed to load all models
"""


def test_a_model_whose_backend_is_not_installed_is_a_set_up_error() -> None:
    diagnosis = diagnose_text("server.log", BACKEND_NOT_INSTALLED)
    assert_reads(
        diagnosis,
        "config",
        first_error="failed to stat file /srv/triton/backends/python",
        beside=("driver_env",),
    )


def test_a_missing_model_file_is_not_a_missing_backend() -> None:
    text = BACKEND_NOT_INSTALLED.replace(
        "/srv/triton/backends/python ", "/models/tokenizer/1/model.pt  "
    )
    diagnosis = diagnose_text("server.log", text)
    rules = rules_of(diagnosis)
    assert "cfg.model_server_backend_missing" not in rules


# docs/labelling.md#a-front-end-that-waits-for-its-engines
# The later orchestrator waits for each stage engine's handshake message. Our own values.
STAGE_ENGINE_NOT_READY = (
    "(APIServer pid=5120) ERROR 03-04 05:06:07 [vllm_omni/engine/async_omni_engine.py:1148] "
    "TimeoutError: Timed out waiting for READY from StageEngineCoreProc after 600s. This "
    "typically indicates model loading or initialization is taking too long. Consider "
    "increasing `stage_init_timeout` for large models.\n"
)


def test_a_stage_engine_that_never_sent_ready_is_a_start_up_stall() -> None:
    diagnosis = diagnose_text("issue/omni.log", STAGE_ENGINE_NOT_READY)
    assert_reads(diagnosis, "hang", first_error="Timed out waiting for READY")
    alternatives = alternative_labels(diagnosis)
    assert "weight_load" in alternatives


def test_a_stage_error_before_the_handshake_wait_is_the_first_error() -> None:
    stage = (
        "(StageEngineCoreProc pid=5201) ERROR 03-04 05:01:07 [core.py:700] ValueError: Current "
        "node has no NPU available. current_node_resource={'CPU': 32.0}. vLLM engine cannot "
        "start without NPU.\n"
    )
    diagnosis = diagnose_text("issue/omni.log", stage + STAGE_ENGINE_NOT_READY)
    assert_reads(diagnosis, "config", first_error="has no NPU available")


def test_the_quoted_raise_of_the_handshake_wait_is_no_stall() -> None:
    text = (
        '  File "/opt/omni/engine/stage_engine_core_proc.py", line 201, in _recv\n'
        '    raise TimeoutError(f"Timed out waiting for {expected} from StageEngineCoreProc")\n'
    )
    diagnosis = diagnose_text("issue/omni.log", text)
    rules = rules_of(diagnosis)
    assert "hang.stage_engine_ready_wait" not in rules


# docs/labelling.md#a-worker-server-registered-twice-in-one-process
# A multi-device start of a C++ serving engine whose registry refuses the second worker's
# server; glog lines as the engine writes them, our own values.
SECOND_WORKER_SERVER = """\
I20260302 10:11:12.100100 51201 worker_server.cpp:95] Worker 0: server address: 10.2.3.4:41001
E20260302 10:11:12.104400 51207 xllm_server_registry.cpp:24] Register server failed, DistributeWorkerServer is existed already
I20260302 10:11:12.104500 51207 server.cpp:1260] Server[xllm::WorkerService] is going to quit
terminate called recursively
Aborted (core dumped)
[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!
"""


def test_a_second_worker_server_refused_by_the_registry_is_the_first_error() -> None:
    diagnosis = diagnose_text("xllm.log", SECOND_WORKER_SERVER)
    assert_reads(diagnosis, "config", first_error="Register server failed")
    alternatives = alternative_labels(diagnosis)
    assert "device_fault" in alternatives


def test_a_model_loader_registered_twice_is_start_up_noise() -> None:
    text = SECOND_WORKER_SERVER.replace(
        "E20260302 10:11:12.104400 51207 xllm_server_registry.cpp:24] Register server failed, "
        "DistributeWorkerServer is existed already",
        "W20260302 10:11:12.104400 51207 model_registry.cpp:96] model args loader for qwen3 "
        "already registered.",
    )
    diagnosis = diagnose_text("xllm.log", text)
    rules = rules_of(diagnosis)
    assert "cfg.worker_server_registered_twice" not in rules
    assert diagnosis.category != "config"
