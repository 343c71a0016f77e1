"""Start-up failures pasted as short excerpts: the machine or the packages do not fit the job.

Each excerpt is written in the shape the serving and training stacks print (Ray / vLLM worker
prefixes, CANN error-manager blocks, a plain `[ERROR]` tag after progress dots) with values of
our own; the test checks the label and the line an engineer should read first.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

RAY = "(RayWorkerWrapper pid=5120) ERROR 03-14 08:21:40 worker_base.py:572] "

# torch_npu's communicator init fails; the error manager's record, older than the summary,
# says the driver could not tell which chip the card is
HCCL_INIT_SUMMARY = (
    '[rank2]:   File "/opt/train/launch.py", line 88, in setup_groups\n'
    "[rank2]:     dist.barrier()\n"
    "[rank2]: RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 "
    "HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, "
    "&(comm->hcclComm_)), error code is 19\n"
    "[rank2]: [ERROR] 2026-03-11-09:40:05 (PID:61234, Device:2, RankID:2) ERR02200 DIST call "
    "hccl api failed.\n"
)
PLATFORM_QUERY_UNDER_HCCL_INIT = HCCL_INIT_SUMMARY + (
    "[rank2]: EK9999: Inner Error!\n"
    "[rank2]: EK9999: [PID: 61234] 2026-03-11-09:38:51.220.417 Failed to drvGetPlatformInfo, "
    "ret=4[FUNC:DrvGetPlatformInfo][FILE:ai_drv_dev_api.cpp][LINE:79]\n"
    "[rank2]:         TraceBack (most recent call last):\n"
    "[rank2]:        halGetDeviceInfo get device type version failed , ret:4[FUNC:Init]"
    "[FILE:config_manager.cpp][LINE:61]\n"
)

EXCERPTS = [
    pytest.param(
        RAY + "        halGetDeviceInfo get device type version failed , ret:4"
        "[FUNC:Init][FILE:config_manager.cpp][LINE:61]\n"
        + RAY
        + "        The argument is invalid.Reason: Set visible device failed, invalid device=3, "
        "input visible devices:2,3\n"
        + RAY
        + "        rtSetDevice execute failed, reason=[device id error][FUNC:FuncErrorReason]"
        "[FILE:error_message_manage.cc][LINE:53]\n"
        + RAY
        + "        open device 3 failed, runtime result = 107001.[FUNC:ReportCallError]"
        "[FILE:log_inner.cpp][LINE:161]\n",
        "Set visible device failed, invalid device=3",
        "config",
        id="device-outside-visible-set",
    ),
    pytest.param(
        "RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64\n"
        "[ERROR] 2026-02-17-14:03:52 (PID:40711, Device:3, RankID:3) ERR02200 DIST call hccl api "
        "failed.\n"
        "EC0010: Failed to import Python module [ModuleNotFoundError: No module named "
        "'tbe.common.context.op_info'.].\n"
        "        Solution: Check that all required components are properly installed.\n"
        "        TraceBack (most recent call last):\n"
        "        [GraphOpt][InitializeInner][InitTbeFunc] Failed to init tbe.[FUNC:InitializeInner]"
        "[FILE:tbe_op_store_adapter.cc][LINE:1623]\n",
        "Failed to import Python module",
        "driver_env",
        id="cann-python-package-missing",
    ),
    pytest.param(
        "INFO 11-02 16:40:07 [model_runner_v1.py:2114] Loading model weights took 6.1172 GB\n"
        "....[ERROR] the socversion Ascend910B2 of bin package does not match the current device "
        "socverison Ascend310P3. Rebuild the package for this device.\n"
        "....\n",
        "socversion Ascend910B2 of bin package does not match",
        "config",
        id="package-built-for-another-chip",
    ),
    pytest.param(
        "2024-03-05 10:11:10,118 [INFO] number of network params, total: 3.512300M\n"
        "[ERROR] KERNEL(2210,ffff8c2e1010,python):2024-03-05-10:11:12.131.415 "
        "[mindspore/ccsrc/kernel/oplib/op_info_utils.cc:172] LoadOpInfoJson] Get op info json "
        "suffix path failed, soc_version: Ascend310B4\n"
        "[ERROR] KERNEL(2210,ffff8c2e1010,python):2024-03-05-10:11:12.131.520 "
        "[mindspore/ccsrc/kernel/oplib/op_info_utils.cc:111] GenerateOpInfos] Load op info json "
        "failed, version: Ascend310B4\n",
        "Get op info json suffix path failed, soc_version: Ascend310B4",
        "config",
        id="framework-op-info-without-this-chip",
    ),
    pytest.param(
        PLATFORM_QUERY_UNDER_HCCL_INIT,
        "Failed to drvGetPlatformInfo, ret=4",
        "driver_env",
        id="driver-cannot-report-the-platform",
    ),
]


@pytest.mark.parametrize(("text", "first", "category"), EXCERPTS)
def test_setup_failure_gets_its_label_and_first_error(text: str, first: str, category: str):
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(diagnosis, category, first_error=first)


def test_a_missing_application_module_stays_a_version_question() -> None:
    """Only the toolkit's own Python packages point at the machine set-up; a framework module
    that cannot be imported still reads as packages that do not fit together."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/serve.py", line 12, in <module>\n'
        "    from vllm_ascend.ops import rotary\n"
        "ModuleNotFoundError: No module named 'vllm_ascend.ops'\n"
    )
    assert diagnose_text("issue/log.txt", text).category == "config"


# torch refuses to infer a custom op's schema while the framework is being imported
CUSTOM_OP_SCHEMA = """\
(EngineCore_DP0 pid=4410) ERROR 02-03 04:05:06 [core.py:489]   File "/usr/local/lib/python3.11/site-packages/vllm/model_executor/layers/fused_moe/fused_moe.py", line 14, in <module>
(EngineCore_DP0 pid=4410) ERROR 02-03 04:05:06 [core.py:489]     from vllm.model_executor.layers.quantization.utils.fp8_utils import per_token_group_quant_fp8
(EngineCore_DP0 pid=4410) ERROR 02-03 04:05:06 [core.py:489] ValueError: infer_schema(func): Parameter block_size has unsupported type list[int].
"""

# a serving option the attention backend refuses is not a version question
BLOCK_SIZE_REFUSED = """\
Traceback (most recent call last):
  File "/srv/app/serve.py", line 40, in <module>
    engine = build_engine(args)
RuntimeError: Unsupported block size: 256
"""


def test_torch_refusing_a_custom_ops_annotation_is_a_version_mismatch() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("issue/log.txt", CUSTOM_OP_SCHEMA)
    assert_reads(diagnosis, "config", first_error="infer_schema(func): Parameter block_size")
    assert diagnosis.root_cause.startswith("torch cannot register the framework's custom op")


def test_an_unsupported_option_value_is_not_read_as_a_schema_refusal() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("issue/log.txt", BLOCK_SIZE_REFUSED)
    assert diagnosis.first_error is not None
    assert "Unsupported block size" in diagnosis.first_error.text
    assert "custom op" not in diagnosis.root_cause


def test_a_communicator_init_failure_alone_stays_hccl() -> None:
    """docs/labelling.md#probes-yield-to-their-reason: without the driver's record the
    communicator's own failure is all there is."""
    diagnosis = diagnose_text("issue/log.txt", HCCL_INIT_SUMMARY)
    assert diagnosis.category == "hccl"


def test_the_platform_query_keeps_the_communicator_as_an_alternative() -> None:
    """docs/labelling.md#probes-yield-to-their-reason"""
    diagnosis = diagnose_text("issue/log.txt", PLATFORM_QUERY_UNDER_HCCL_INIT)
    assert diagnosis.category == "driver_env"
    assert "hccl" in alternative_labels(diagnosis)


VLLM_WORKER = "(VllmWorker rank=1 pid=5302) ERROR 03-11 09:40:05 [multiproc_executor.py:546] "


def _communicator_init(code: int) -> str:
    return (
        f"{VLLM_WORKER}RuntimeError: create_config:torch_npu/csrc/distributed/HCCLUtils.cpp:148 "
        "HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, "
        f"&(comm->hcclComm_)), error code is {code}\n"
        f"{VLLM_WORKER}[ERROR] 2026-03-11-09:40:04 (PID:5302, Device:1, RankID:-1) ERR02200 DIST "
        "call hccl api failed.\n"
    )


def test_a_communicator_hccl_does_not_support_here_names_the_platform_and_the_launch() -> None:
    """docs/labelling.md#a-communicator-that-could-not-be-created: HCCL's code 5 (not
    supported) keeps the collective layer's label and offers the platform and the launch."""
    diagnosis = diagnose_text("worker.log", _communicator_init(5))
    assert_reads(diagnosis, "hccl", first_error="error code is 5")
    assert {"driver_env", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_an_internal_hccl_error_names_no_neighbour_of_its_own() -> None:
    diagnosis = diagnose_text("worker.log", _communicator_init(4))
    assert diagnosis.category == "hccl"
    assert "driver_env" not in {alt.category for alt in diagnosis.alternatives}


def test_a_communicator_that_refused_a_parameter_names_the_launch_and_the_network() -> None:
    """docs/labelling.md#a-communicator-that-could-not-be-created: HCCL's code 1 on the call
    that builds the communicator points at what the launch handed it."""
    diagnosis = diagnose_text("worker.log", _communicator_init(1))
    assert_reads(diagnosis, "hccl", first_error="error code is 1")
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_collective_that_refused_a_parameter_names_no_launch_neighbour() -> None:
    """The same code from a collective (not the communicator's creation) is the call's own."""
    text = (
        f"{VLLM_WORKER}RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:428 "
        "OPS function error: HcclAllreduce, error code is 1\n"
    )
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.category == "hccl"
    assert "config" not in {alt.category for alt in diagnosis.alternatives}
