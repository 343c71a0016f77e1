"""Hugging Face jobs on NPU that stop before the model runs: a package the options ask for is
missing, the graph engine cannot build an operator the model calls, the launcher library refuses
the distributed backend the job names, or a cast reaches parameters FSDP2 already sharded.

Excerpts are written in the shapes these stacks print (a Python traceback from a model load,
torch_npu's operator headline with its CANN block) with values of our own. Guide sections:
docs/labelling.md#config-driver_env-or-weight_load, docs/labelling.md#wrappers and
docs/labelling.md#dtensor-parameters-under-a-wrapper-that-does-not-know-them.
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import alternative_labels, diagnose_text

LOAD_FRAMES = (
    "Traceback (most recent call last):\n"
    '  File "/srv/jobs/load_model.py", line 12, in <module>\n'
    "    model = AutoModelForCausalLM.from_pretrained(path, attn_implementation=impl)\n"
    '  File "/opt/py/site-packages/transformers/modeling_utils.py", line 4120, in from_pretrained\n'
    "    model = cls(config, *model_args, **model_kwargs)\n"
)


def first_text(diagnosis: Diagnosis) -> str:
    assert diagnosis.first_error is not None
    return diagnosis.first_error.text


def test_a_missing_package_the_options_ask_for_is_a_config_problem() -> None:
    text = (
        LOAD_FRAMES + "importlib.metadata.PackageNotFoundError: No package metadata was found for "
        "fast_attn_kernels\n"
    )
    diagnosis = diagnose_text("load.log", text)
    assert diagnosis.category == "config"
    assert "No package metadata was found for fast_attn_kernels" in first_text(diagnosis)


def test_a_registry_miss_that_was_only_logged_does_not_decide() -> None:
    text = (
        "INFO attention: fast_attn_kernels metadata missing (PackageNotFoundError), using sdpa\n"
        + LOAD_FRAMES
        + "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 29.50 GiB total "
        "capacity; 28.10 GiB already allocated; 0 bytes free; 28.90 GiB reserved in total by "
        "PyTorch)\n"
    )
    diagnosis = diagnose_text("load.log", text)
    assert diagnosis.category == "oom"
    assert "NPU out of memory" in first_text(diagnosis)


def test_a_graph_engine_headline_alone_is_the_operator() -> None:
    text = (
        "[rank0]:     return F.max_pool3d(x, kernel_size)\n"
        "[rank0]: RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:230 "
        "OPS function error: MaxPool3D, error code is 500002\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "operator"
    assert "OPS function error: MaxPool3D" in first_text(diagnosis)


def test_the_graph_engine_block_under_the_headline_decides() -> None:
    text = (
        "RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:230 OPS "
        "function error: MaxPool3D, error code is 500002\n"
        "[ERROR] 2026-03-04-05:06:07 (PID:812, Device:0, RankID:-1) ERR01100 OPS call acl api "
        "failed\n"
        "[Error]: A GE error occurs in the system.\n"
        "E40021: [PID: 812] 2026-03-04-05:06:06.101.202 Failed to compile Op [MaxPool3D_1,]. "
        "(oppath: [Compile /opt/cann/opp/max_pool3d.py failed with errormsg/stack: "
        "max_pool3d.cpp:14:10: fatal error: 'kernel_tiling.h' file not found\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "driver_env"
    assert "OPS function error" not in first_text(diagnosis)


ARGS_FRAMES = (
    "Traceback (most recent call last):\n"
    '  File "/srv/jobs/finetune.py", line 40, in <module>\n'
    "    args = parser.parse_args_into_dataclasses()\n"
    '  File "/opt/py/site-packages/transformers/training_args.py", line 2210, in _setup_devices\n'
    "    self.distributed_state = PartialState(**accelerator_state_kwargs)\n"
    '  File "/opt/py/site-packages/accelerate/state.py", line 190, in __init__\n'
)


def test_a_backend_the_launcher_library_refuses_is_the_jobs_setting() -> None:
    text = (
        ARGS_FRAMES + '    raise ValueError(f"Your assigned backend {backend} is not available")\n'
        "ValueError: Your assigned backend nccl is not available, please use hccl\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"
    assert first_text(diagnosis).startswith("ValueError: Your assigned backend nccl")


def test_the_refusal_with_its_placeholders_unfilled_reads_the_same() -> None:
    text = ARGS_FRAMES + (
        "[rank2]: ValueError: Your assigned backend {original_backend} is not avaliable, please "
        "use {backend}\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"
    assert "Your assigned backend" in first_text(diagnosis)


def test_a_line_naming_the_chosen_backend_is_not_a_failure() -> None:
    text = "INFO accelerate.state: Your assigned backend hccl is available on 8 devices\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None


def test_a_cast_that_reaches_sharded_parameters_is_the_wrappers_order() -> None:
    text = (
        "before prepare: memory allocated (GB): 0.00, device memory used/total (GB): 0.41/29.50\n"
        '  File "/opt/py/site-packages/accelerate/utils/fsdp_utils.py", line 640, in '
        "fsdp2_prepare_model\n"
        "    model = model.to(torch.float32)\n"
        "NotImplementedError: Operator npu.npu_dtype_convert.default does not have a sharding "
        "strategy registered.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"
    assert "operator" in {alt.category for alt in diagnosis.alternatives}
    assert "does not have a sharding strategy registered" in first_text(diagnosis)


def test_an_op_with_no_kernel_for_the_device_is_not_the_sharding_case() -> None:
    text = (
        "NotImplementedError: Could not run 'npu::npu_dtype_convert' with arguments from the "
        "'CPU' backend.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "operator"
    assert "Could not run 'npu::npu_dtype_convert'" in first_text(diagnosis)


PIPE_FRAMES = (
    "Traceback (most recent call last):\n"
    '  File "/srv/jobs/render.py", line 21, in <module>\n'
    "    image = pipe(prompt, num_inference_steps=20).images[0]\n"
    '  File "/opt/py/site-packages/diffusers/utils/deprecation_utils.py", line 18, in deprecate\n'
    "    raise ValueError(\n"
)


def test_a_deprecated_path_called_past_its_removal_release_is_a_version_mismatch() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load
    text = PIPE_FRAMES + (
        "ValueError: The deprecation tuple ('npu_default_processor', '0.40.0', 'Set the "
        "attention processor yourself.') should be removed since diffusers' version 0.41.1 is "
        ">= 0.40.0\n"
    )
    diagnosis = diagnose_text("render.log", text)
    assert diagnosis.category == "config"
    assert diagnosis.confidence >= 0.5
    assert "should be removed since diffusers' version 0.41.1" in first_text(diagnosis)
    assert "other" in alternative_labels(diagnosis)


def test_the_warning_before_the_removal_release_does_not_decide() -> None:
    text = (
        "FutureWarning: `npu_default_processor` is deprecated and will be removed in version "
        "0.40.0. Set the attention processor yourself.\n"
        + LOAD_FRAMES
        + "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 29.50 GiB total "
        "capacity; 28.10 GiB already allocated; 0 bytes free; 28.90 GiB reserved in total by "
        "PyTorch)\n"
    )
    diagnosis = diagnose_text("render.log", text)
    assert diagnosis.category == "oom"
